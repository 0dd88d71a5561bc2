"""Environment transitions: the court's appeal determination (AD-Det, LegalWorld §2.2;
docs/sources.md), which remaps plaintiff/defendant to appellant/appellee.

Two rules (issue #17). A benchmark run (``simulate``, batches: nobody seated) follows the
real case's appeal, as LegalWorld does, so runs compare with the case file. A trial with a
person seated follows the first-instance judgment the trial produced: each side it went
against in anything is asked (through the seat a person holds, else its agent counsel), and
a side that won everything is never asked; if nobody appeals, the judgment becomes final;
if both sides appeal, both appeals are heard at the second instance.
"""

from __future__ import annotations

from court.engine.judgment import sides_that_lost
from court.engine.state import ArtifactRecord, TrialState
from court.procedures.civil import APPEAL_ANSWER, DECISIONS
from court.procedures.seats import CIVIL_SIDES, COURT, opposite

APPEAL = DECISIONS[APPEAL_ANSWER][0]
"""The decision of a side that appeals (the other is ``decline``)."""


def appeal_open(state: TrialState) -> ArtifactRecord | None:
    """AD-Det starts: the determination at once (a benchmark run, or a judgment nobody lost
    anything by), or None while ``state.appeal_deciders`` are asked."""
    if not (state.human_seats or state.seated):
        appellant = state.case["second_instance"]["appellant_side"]
        state.appellant_side = appellant
        return _determination(state, appellant)
    state.appeal_deciders = appeal_deciders(state)
    return None if state.appeal_deciders else appeal_close(state)


def appeal_deciders(state: TrialState) -> list[str]:
    """The seats to ask, plaintiff's side first: of each side the first-instance judgment went
    against, the seat a person holds (counsel, else the client), else its agent counsel."""
    judgments = state.artifacts_of("first_instance_judgment")
    if state.mediated or not judgments:
        return []
    losers = sides_that_lost(judgments[-1].text)
    return [_voice(state, side) for side in CIVIL_SIDES if side in losers]


def _voice(state: TrialState, side: str) -> str:
    held = [seat for seat in (f"{side}_lawyer", f"{side}_client") if seat in state.human_seats]
    return held[0] if held else f"{side}_lawyer"


def appeal_close(state: TrialState) -> ArtifactRecord:
    """Every side asked has decided (``state.decisions``): the appellant, or the judgment final.

    When both sides appeal, both appeals are heard: one side opens the second instance as the
    appellant (a side a person holds first, so a student's appeal is never turned into a
    response; then the side that appealed in the real case; then the plaintiff), and the
    other, the appellee, is its cross-appellant (``state.cross_appellant_side``)."""
    appealing = [side for side in CIVIL_SIDES if state.decisions.get(side) == APPEAL]
    if not appealing:
        state.judgment_final = True
        return _final(state)
    real = (state.case.get("second_instance") or {}).get("appellant_side")
    people = {seat.rpartition("_")[0] for seat in state.human_seats}
    appellant = min(appealing, key=lambda side: (side not in people, side != real, CIVIL_SIDES.index(side)))
    state.appellant_side = appellant
    state.cross_appellant_side = next((side for side in appealing if side != appellant), None)
    return _determination(state, appellant)


def _names(state: TrialState) -> dict[str, str]:
    return {party["side"]: party["name"] for party in state.case.get("parties", [])}


def _determination(state: TrialState, appellant: str) -> ArtifactRecord:
    appellee = opposite(appellant)
    names = _names(state)
    cross = state.cross_appellant_side == appellee
    if state.language == "zh":
        side_names = {"plaintiff": "原审原告", "defendant": "原审被告"}
        title = "上诉审查决定"
        text = (
            f"一审判决送达后，{side_names[appellant]}{names.get(appellant, '')}在法定期间内提起上诉。"
            f"本案进入第二审程序：{names.get(appellant, '')}为上诉人，"
            f"{side_names[appellee]}{names.get(appellee, '')}为被上诉人。"
        )
        if cross:
            text += f"{names.get(appellee, '')}亦在法定期间内提起上诉，双方的上诉请求一并审理。"
    else:
        title = "Appeal determination"
        text = (
            f"After service of the first-instance judgment, the original {appellant} "
            f"{names.get(appellant, '')} appealed within the statutory period. The case proceeds to "
            f"second instance with {names.get(appellant, '')} as appellant and the original {appellee} "
            f"{names.get(appellee, '')} as appellee."
        )
        if cross:
            text += f" {names.get(appellee, '')} appealed too, within the period; both appeals are heard together."
    return _court_record(title, text)


def _final(state: TrialState) -> ArtifactRecord:
    names = _names(state)
    parties = "、".join(names.values()) if state.language == "zh" else " nor ".join(names.values())
    if state.language == "zh":
        title = "一审判决生效"
        text = f"一审判决送达后，当事人{parties}均未在法定期间内提起上诉。一审判决已发生法律效力，本案审理终结。"
    else:
        title = "Judgment final"
        text = (
            f"After service of the first-instance judgment, neither {parties} appealed within the statutory "
            "period. The first-instance judgment has become final and the case is closed."
        )
    return _court_record(title, text)


def _court_record(title: str, text: str) -> ArtifactRecord:
    return ArtifactRecord(
        stage="AD-Det", kind="appeal_determination", title=title, text=text, author_seat="environment", side=COURT
    )
