"""Legal text as courts and parties write it, read without a model: the room's own primitives.

``text`` normalises text and finds the articles, amounts and party roles it cites;
``numerals`` reads numbers written in Chinese or English words; ``sentences`` reads the
sentence a criminal judgment orders; ``penalties`` names the Criminal Law's principal penalties
and the statutory brackets of its charges. The scripted court, the debrief and the case
readers use them as they are; the ``scoring`` app builds its rubrics on them.
"""
