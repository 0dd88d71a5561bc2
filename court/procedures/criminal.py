"""The SimCourt criminal trial: preparation, investigation, evidence, debate, final
statement and judgment, with judge, prosecutor, attorney, defendant and stenographer."""

from __future__ import annotations

from court.procedures.structure import Phase, Procedure, Slot, Stage

CRIMINAL_SEATS = ("judge", "prosecutor", "attorney", "defendant", "stenographer")


def _stage(
    stage_id: str,
    *phases: Phase,
    closing: Slot | None = None,
    artifact: str | None = None,
) -> Stage:
    return Stage(
        id=stage_id,
        unit=stage_id,
        kind="trial",
        phases=phases,
        closing=closing,
        artifact=artifact,
    )


CRIMINAL_TRIAL = Procedure(
    id="criminal",
    seats=CRIMINAL_SEATS,
    stages=(
        _stage(
            "preparation",
            Phase(
                "opening",
                (
                    Slot("stenographer", "announce_discipline"),
                    Slot("judge", "open_court"),
                    Slot("judge", "verify_identity"),
                    Slot("defendant", "confirm_identity"),
                    Slot("judge", "inform_rights"),
                    Slot("defendant", "acknowledge_rights"),
                ),
            ),
        ),
        _stage(
            "investigation",
            Phase(
                "indictment",
                (
                    Slot("prosecutor", "read_indictment"),
                    Slot("judge", "ask_plea"),
                    Slot("defendant", "plead"),
                ),
            ),
            Phase(
                "examination",
                (
                    Slot("prosecutor", "question_defendant"),
                    Slot("defendant", "answer_examination"),
                    Slot("attorney", "question_defendant"),
                    Slot("defendant", "answer_examination"),
                ),
            ),
        ),
        _stage(
            "evidence",
            Phase(
                "prosecution_evidence",
                (
                    Slot("prosecutor", "present_evidence"),
                    Slot("attorney", "cross_examine"),
                    Slot("defendant", "comment_evidence"),
                ),
            ),
            Phase(
                "defence_evidence",
                (
                    Slot("attorney", "present_evidence"),
                    Slot("prosecutor", "cross_examine"),
                ),
            ),
        ),
        _stage(
            "debate",
            Phase(
                "arguments",
                (
                    Slot("judge", "open_debate"),
                    Slot("prosecutor", "argue"),
                    Slot("attorney", "argue"),
                    Slot("defendant", "self_defence"),
                    Slot("prosecutor", "rebut"),
                    Slot("attorney", "rebut"),
                ),
            ),
        ),
        _stage(
            "final_statement",
            Phase(
                "statement",
                (
                    Slot("judge", "invite_final_statement"),
                    Slot("defendant", "final_statement"),
                ),
            ),
        ),
        _stage(
            "judgment",
            Phase(
                "pronouncement",
                (Slot("judge", "pronounce_judgment", artifact="criminal_judgment"),),
            ),
            closing=Slot("stenographer", "write_trial_record"),
            artifact="trial_record",
        ),
    ),
)
