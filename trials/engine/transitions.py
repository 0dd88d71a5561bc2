"""Environment transitions: stages no agent speaks in (AD-Det, LegalWorld §2.2;
docs/sources.md)."""

from __future__ import annotations

from trials.engine.state import ArtifactRecord, TrialState
from trials.procedures.seats import COURT, opposite


def appeal_determination(state: TrialState) -> tuple[str, ArtifactRecord]:
    """Read the appeal fields and remap plaintiff/defendant to appellant/appellee."""
    appellant = state.case["second_instance"]["appellant_side"]
    appellee = opposite(appellant)
    names = {party["side"]: party["name"] for party in state.case.get("parties", [])}
    if state.language == "zh":
        side_names = {"plaintiff": "原审原告", "defendant": "原审被告"}
        title = "上诉审查决定"
        text = (
            f"一审判决送达后，{side_names[appellant]}{names.get(appellant, '')}在法定期间内提起上诉。"
            f"本案进入第二审程序：{names.get(appellant, '')}为上诉人，"
            f"{side_names[appellee]}{names.get(appellee, '')}为被上诉人。"
        )
    else:
        title = "Appeal determination"
        text = (
            f"After service of the first-instance judgment, the original {appellant} "
            f"{names.get(appellant, '')} appealed within the statutory period. The case proceeds to "
            f"second instance with {names.get(appellant, '')} as appellant and the original {appellee} "
            f"{names.get(appellee, '')} as appellee."
        )
    return appellant, ArtifactRecord(
        stage="AD-Det",
        kind="appeal_determination",
        title=title,
        text=text,
        author_seat="environment",
        side=COURT,
    )
