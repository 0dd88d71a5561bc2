"""What the court heard: a stage's statements less the objections, the rulings on them and what a
sustained objection struck (docs/offline-court.md, "What the court reads")."""

from __future__ import annotations

import re

from court.engine.machine import RULE_OBJECTION
from court.engine.objections import OBJECT_ACT

SUSTAINED = re.compile(r"^\s*(?:反对有效|反对成立|异议成立|sustained)", re.IGNORECASE)


def heard_turns(dialogue: list[dict]) -> list[dict]:
    """The stage's statements without objections, rulings and what a sustained objection struck."""
    struck: set[int] = set()
    for index, turn in enumerate(dialogue):
        if turn.get("act") == RULE_OBJECTION and SUSTAINED.search(turn.get("text", "")):
            objection = next((i for i in range(index - 1, -1, -1) if dialogue[i].get("act") == OBJECT_ACT), None)
            if objection is not None and objection > 0:
                struck.add(dialogue[objection - 1]["seq"])
    return [
        turn
        for turn in dialogue
        if turn.get("act") not in (OBJECT_ACT, RULE_OBJECTION) and turn.get("seq") not in struck
    ]
