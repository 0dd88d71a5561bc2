"""The civil life cycle of LegalWorld: LC, CD|DD, FIT, AD-Det, AD|AR, SIT.

FIT and SIT follow Algorithm 1 (opening, court investigation, evidence presentation and
cross-examination, judge questioning, court debate, final statements, mediation inquiry,
pronouncement); SIT uses the appellant/appellee sides fixed by AD-Det. AD-Det is the
court's: a benchmark run takes the real case's appellant at once (LegalWorld §2.2); with a
person seated, the sides the judgment went against decide first (``engine.transitions``).
"""

from __future__ import annotations

from court.procedures.structure import Phase, Procedure, Slot, Stage

MEDIATION_ANSWER = "answer_mediation"
"""The act that carries a decision (accept or decline), stated with the words."""
APPEAL_ANSWER = "answer_appeal"
"""The act by which a side that lost anything at first instance says whether it appeals."""
DECISIONS = {MEDIATION_ANSWER: ("accept", "decline"), APPEAL_ANSWER: ("appeal", "decline")}
"""The decisions each deciding act must carry: buttons with no default, sent with the words."""
APPEAL_DECIDER = "appeal_decider"
"""The symbolic seat of the appeal decision: in turn, each seat the engine asks
(``TrialState.appeal_deciders``: a side that lost anything, through the seat a person holds)."""

FOLLOW_UPS = 6
"""The most questions the lawyer puts to the client after the client's account, each answered
in turn (one per item of the interview agenda, ``court.agenda``); the lawyer closes the
interview sooner by a question turn that ends the phase (``Reply.ends_phase``)."""
CLOSING_ACTS = frozenset({"ask_follow_up"})
"""The acts whose speaker may end their phase early (a person ticks "last question")."""

CIVIL_SEATS = (
    "plaintiff_client",
    "defendant_client",
    "plaintiff_lawyer",
    "defendant_lawyer",
    "judge",
)


def _trial_phases(first: str, second: str) -> tuple[Phase, ...]:
    """The phases of Algorithm 1, with ``first`` the side that opens (plaintiff/appellant)."""
    return (
        Phase(
            "opening",
            (
                Slot("judge", "open_court"),
                Slot(f"{first}_lawyer", "confirm_appearance"),
            ),
        ),
        Phase(
            "investigation",
            (
                Slot("judge", "invite_statement"),
                Slot(f"{first}_lawyer", "state_claims"),
                Slot(f"{second}_lawyer", "state_defence"),
            ),
        ),
        Phase(
            "evidence",
            (
                Slot("judge", "invite_evidence"),
                Slot(f"{first}_lawyer", "present_evidence"),
                Slot(f"{second}_lawyer", "cross_examine"),
                Slot(f"{second}_lawyer", "present_evidence"),
                Slot(f"{first}_lawyer", "cross_examine"),
            ),
        ),
        Phase(
            "questioning",
            (
                Slot("judge", "question_party_first"),
                Slot(f"{first}_client", "answer_judge"),
                Slot("judge", "question_party_second"),
                Slot(f"{second}_client", "answer_judge"),
            ),
        ),
        Phase(
            "debate",
            (
                Slot("judge", "summarise_disputes"),
                Slot(f"{first}_lawyer", "argue"),
                Slot(f"{second}_lawyer", "argue"),
                Slot(f"{first}_lawyer", "rebut"),
                Slot(f"{second}_lawyer", "rebut"),
            ),
        ),
        Phase(
            "final_statements",
            (
                Slot("judge", "invite_final_statements"),
                Slot(f"{first}_client", "final_statement"),
                Slot(f"{second}_client", "final_statement"),
            ),
        ),
        Phase(
            "mediation",
            (
                Slot("judge", "propose_mediation"),
                Slot(f"{first}_client", MEDIATION_ANSWER),
                Slot(f"{second}_client", MEDIATION_ANSWER),
            ),
            decision="mediation",
        ),
    )


CIVIL_LIFE_CYCLE = Procedure(
    id="civil",
    seats=CIVIL_SEATS,
    stages=(
        Stage(
            id="LC",
            unit="LC",
            kind="dialogue",
            phases=(
                Phase("intake", (Slot("target_client", "describe_dispute"),)),
                Phase(
                    "follow_up",
                    (
                        Slot("target_lawyer", "ask_follow_up"),
                        Slot("target_client", "answer_follow_up"),
                    ),
                    rounds=FOLLOW_UPS,
                ),
                Phase(
                    "questions",
                    (
                        Slot("target_client", "ask_question"),
                        Slot("target_lawyer", "answer_question"),
                    ),
                    repeat_per="consultation_questions",
                ),
                Phase(
                    "advice",
                    (
                        Slot("target_lawyer", "summarise_advice"),
                        Slot("target_client", "acknowledge"),
                    ),
                ),
            ),
            closing=Slot("target_lawyer", "write_consultation_record"),
            artifact="consultation_record",
        ),
        *(
            Stage(
                id=stage_id,
                unit="CD_DD",
                kind="drafting",
                when=(f"target_is_{side}",),
                phases=(
                    Phase(
                        "interview",
                        (
                            Slot("target_lawyer", "request_materials"),
                            Slot("target_client", "provide_materials"),
                            Slot("target_lawyer", "confirm_position"),
                            Slot("target_client", "approve_position"),
                        ),
                    ),
                ),
                closing=Slot("target_lawyer", f"draft_{artifact}"),
                artifact=artifact,
            )
            for stage_id, side, artifact in (
                ("CD", "plaintiff", "complaint"),
                ("DD", "defendant", "defence"),
            )
        ),
        Stage(
            id="FIT",
            unit="FIT",
            kind="trial",
            phases=_trial_phases("plaintiff", "defendant"),
            closing=Slot("judge", "pronounce_judgment"),
            artifact="first_instance_judgment",
        ),
        Stage(
            id="AD-Det",
            unit="AD_AR",
            kind="transition",
            when=("has_appeal",),
            phases=(
                Phase(
                    "appeal_decision",
                    (Slot(APPEAL_DECIDER, APPEAL_ANSWER),),
                    repeat_per="appeal_deciders",
                    decision="appeal",
                ),
            ),
            artifact="appeal_determination",
        ),
        *(
            Stage(
                id=stage_id,
                unit="AD_AR",
                kind="drafting",
                when=("has_appeal", f"target_is_{role}"),
                phases=(
                    Phase(
                        "interview",
                        (
                            Slot("target_lawyer", "review_judgment"),
                            Slot("target_client", "provide_materials"),
                            Slot("target_lawyer", "confirm_position"),
                            Slot("target_client", "approve_position"),
                        ),
                    ),
                ),
                closing=Slot("target_lawyer", f"draft_{artifact}"),
                artifact=artifact,
            )
            for stage_id, role, artifact in (
                ("AD", "appellant", "appeal"),
                ("AR", "appellee", "appeal_response"),
            )
        ),
        Stage(
            id="SIT",
            unit="SIT",
            kind="trial",
            when=("has_appeal",),
            phases=_trial_phases("appellant", "appellee"),
            closing=Slot("judge", "pronounce_judgment"),
            artifact="second_instance_judgment",
        ),
    ),
)
