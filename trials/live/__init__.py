"""The live trial: a room where people and agents play a case together over websockets.

One ``LiveSession`` per trial (``session``) holds what the process knows of the trial while it
is played here; the driver (``driver``) walks the engine for it, ``services`` holds the rules
of the room (who may say, control, take a seat), ``objecting`` the objections, ``fanout`` the
frames sent to the sockets, ``feed`` what one socket sends its client, ``seating`` the seats
taken and handed back over HTTP and ``driver_store`` the driver's writes.
"""
