"""The offline civil court's decision: the first instance by ``civil_ruling``, the second by
``civil_appeal`` (docs/offline-court.md, "Civil")."""

from __future__ import annotations

from agents.scripted.civil_appeal import appeal_decision
from agents.scripted.civil_ruling import CivilDecision, first_instance_decision
from agents.scripted.record import CivilRecord


def civil_decision(record: CivilRecord) -> CivilDecision:
    """The orders on the record as heard: at first instance on the claims, on appeal the
    first-instance orders varied by the requests the appellant made out."""
    return appeal_decision(record) if record.appeal else first_instance_decision(record)
