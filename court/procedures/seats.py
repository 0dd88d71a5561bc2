"""Seats: who they are (role, side) and what the courtroom calls them in each language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CIVIL_SIDES = ("plaintiff", "defendant")
CRIMINAL_SIDES = ("prosecution", "defendant")
COURT = "court"
PLAYABLE_SEATS = {
    "civil": ("plaintiff_lawyer", "defendant_lawyer", "plaintiff_client", "defendant_client", "judge"),
    "criminal": ("attorney", "prosecutor", "defendant", "judge"),
}
"""The seats a person may choose in the lobby (every seat but the stenographer)."""


@dataclass(frozen=True)
class SeatInfo:
    seat: str
    role: str
    side: str


_CRIMINAL = {
    "judge": SeatInfo("judge", "judge", COURT),
    "prosecutor": SeatInfo("prosecutor", "prosecutor", "prosecution"),
    "attorney": SeatInfo("attorney", "attorney", "defendant"),
    "defendant": SeatInfo("defendant", "defendant", "defendant"),
    "stenographer": SeatInfo("stenographer", "stenographer", COURT),
}


def seat_info(procedure: str, seat: str) -> SeatInfo:
    if procedure == "criminal":
        return _CRIMINAL[seat]
    if seat == "judge":
        return SeatInfo("judge", "judge", COURT)
    side, role = seat.split("_", 1)
    return SeatInfo(seat, role, side)


def target_seat(procedure: str, target_side: str) -> str:
    """The seat under evaluation: the target side's counsel (criminal: the prosecutor for
    the prosecution, else defence counsel)."""
    if procedure == "criminal":
        return "prosecutor" if target_side == "prosecution" else "attorney"
    return f"{target_side}_lawyer"


SeatKind = Literal["lawyer", "judge", "client"]


def seat_kind(procedure: str, seat: str) -> SeatKind | None:
    """Which scorecard a seat gets: counsel (civil lawyers, prosecutor, defence counsel) on
    LongJud-Bench's capabilities, the judge and the parties (clients, a criminal defendant)
    on LegalWorld's role rubric; the stenographer none."""
    role = seat_info(procedure, seat).role
    if role in ("lawyer", "prosecutor", "attorney"):
        return "lawyer"
    if role == "judge":
        return "judge"
    if role in ("client", "defendant"):
        return "client"
    return None


def opposite(side: str) -> str:
    return {
        "plaintiff": "defendant",
        "defendant": "plaintiff",
        "prosecution": "defendant",
    }[side]


_TITLES = {
    "zh": {
        ("FIT", "plaintiff", "client"): "原告",
        ("FIT", "defendant", "client"): "被告",
        ("FIT", "plaintiff", "lawyer"): "原告代理人",
        ("FIT", "defendant", "lawyer"): "被告代理人",
        ("SIT", "appellant", "client"): "上诉人",
        ("SIT", "appellee", "client"): "被上诉人",
        ("SIT", "appellant", "lawyer"): "上诉人代理人",
        ("SIT", "appellee", "lawyer"): "被上诉人代理人",
        ("pre", "any", "client"): "当事人",
        ("pre", "any", "lawyer"): "律师",
        ("FIT", "court", "judge"): "一审审判长",
        ("SIT", "court", "judge"): "二审审判长",
        ("criminal", "court", "judge"): "审判长",
        ("criminal", "prosecution", "prosecutor"): "公诉人",
        ("criminal", "defendant", "attorney"): "辩护人",
        ("criminal", "defendant", "defendant"): "被告人",
        ("criminal", "court", "stenographer"): "书记员",
    },
    "en": {
        ("FIT", "plaintiff", "client"): "Plaintiff",
        ("FIT", "defendant", "client"): "Defendant",
        ("FIT", "plaintiff", "lawyer"): "Counsel for the plaintiff",
        ("FIT", "defendant", "lawyer"): "Counsel for the defendant",
        ("SIT", "appellant", "client"): "Appellant",
        ("SIT", "appellee", "client"): "Appellee",
        ("SIT", "appellant", "lawyer"): "Counsel for the appellant",
        ("SIT", "appellee", "lawyer"): "Counsel for the appellee",
        ("pre", "any", "client"): "Client",
        ("pre", "any", "lawyer"): "Lawyer",
        ("FIT", "court", "judge"): "Presiding judge (first instance)",
        ("SIT", "court", "judge"): "Presiding judge (second instance)",
        ("criminal", "court", "judge"): "Presiding judge",
        ("criminal", "prosecution", "prosecutor"): "Public prosecutor",
        ("criminal", "defendant", "attorney"): "Defence counsel",
        ("criminal", "defendant", "defendant"): "Defendant",
        ("criminal", "court", "stenographer"): "Court clerk",
    },
}


def speaker_title(
    *,
    language: str,
    procedure: str,
    stage: str,
    info: SeatInfo,
    appellant_side: str | None,
) -> str:
    """The title a seat is announced with: 原告, 上诉人代理人, Presiding judge..."""
    titles = _TITLES["zh" if language == "zh" else "en"]
    if procedure == "criminal":
        return titles[("criminal", info.side, info.role)]
    if stage == "SIT":
        side = COURT if info.side == COURT else ("appellant" if info.side == appellant_side else "appellee")
        return titles[("SIT", side, info.role)]
    if stage == "FIT":
        return titles[("FIT", info.side, info.role)]
    return titles[("pre", "any", info.role)]
