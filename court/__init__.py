"""The court's rules, in plain Python: procedures as data, the engine that walks them (its
steps, visibility and memory), the documents the stages produce, the legal agenda of a
consultation and the legal text readers. Nothing here knows Django, the database or the agents.
"""
