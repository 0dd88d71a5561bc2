"""Skill cards (LegalWorld, Tables 13-14; docs/sources.md): declarative procedural know-how
injected into an LLM seat's prompt on the first turn a skill is needed and kept for the rest of
the scenario."""

from __future__ import annotations

from dataclasses import dataclass

from trials.engine.visibility import SeatView


@dataclass(frozen=True)
class SkillCard:
    id: str
    roles: tuple[str, ...]
    stages: tuple[str, ...]
    triggers: tuple[str, ...]
    """The acts that need the skill; it is loaded at the first of them in a stage."""
    legal_task: str
    checklist: tuple[str, ...]
    expected_output: str
    tools: tuple[str, ...]

    def render(self) -> str:
        checklist = "\n".join(f"- {item}" for item in self.checklist)
        return (
            f"### Skill: {self.id}\nTask: {self.legal_task}\nChecklist:\n{checklist}\n"
            f"Expected output: {self.expected_output}\nTools: {', '.join(self.tools)}"
        )


SKILLS = (
    SkillCard(
        id="memory_writing",
        roles=("client", "lawyer", "prosecutor", "attorney", "defendant"),
        stages=("*",),
        triggers=("update_memory",),
        legal_task="Keep your global case memory accurate at the end of each stage.",
        checklist=(
            "expand facts, evidence, claims or defenses with what this stage established",
            "revise positions when your position changed; never delete facts silently",
            "record procedural_progress: which stage ended and its outcome",
        ),
        expected_output="memory_expand / memory_revise calls only",
        tools=("read_memory", "memory_expand", "memory_revise"),
    ),
    SkillCard(
        id="complaint_drafting",
        roles=("lawyer",),
        stages=("CD",),
        triggers=("request_materials", "draft_complaint"),
        legal_task="Draft a civil complaint that states enforceable claims supported by facts and evidence.",
        checklist=(
            "parties with identifying details",
            "each claim specific and enforceable (amounts, dates, interest basis)",
            "facts in chronological order, each tied to evidence",
            "legal basis checked with check_citations",
        ),
        expected_output="民事起诉状 / civil complaint with parties, claims, facts and reasons, court",
        tools=("search_statutes", "check_citations", "export_document"),
    ),
    SkillCard(
        id="defence_drafting",
        roles=("lawyer",),
        stages=("DD",),
        triggers=("request_materials", "draft_defence"),
        legal_task="Draft a statement of defence answering every claim.",
        checklist=(
            "answer each claim: admit, deny or qualify",
            "facts and evidence for every denial",
            "procedural defences (limitation, jurisdiction) considered",
        ),
        expected_output="民事答辩状 / statement of defence",
        tools=("search_statutes", "check_citations", "read_artifact", "export_document"),
    ),
    SkillCard(
        id="appeal_drafting",
        roles=("lawyer",),
        stages=("AD",),
        triggers=("review_judgment", "draft_appeal"),
        legal_task="Draft an appeal that attacks the specific findings or legal errors of the first-instance judgment.",
        checklist=(
            "identify each order appealed",
            "grounds: wrong facts, wrong law, procedural error",
            "new evidence and why it is admissible",
        ),
        expected_output="民事上诉状 / notice of appeal",
        tools=("read_artifact", "compare_documents", "search_statutes", "check_citations", "export_document"),
    ),
    SkillCard(
        id="appeal_response_drafting",
        roles=("lawyer",),
        stages=("AR",),
        triggers=("review_judgment", "draft_appeal_response"),
        legal_task="Answer each ground of appeal and defend the first-instance judgment.",
        checklist=("answer each ground", "show the findings rest on evidence", "ask for dismissal of the appeal"),
        expected_output="二审答辩状 / response to appeal",
        tools=("read_artifact", "search_statutes", "check_citations", "export_document"),
    ),
    SkillCard(
        id="trial_advocacy",
        roles=("lawyer", "prosecutor", "attorney"),
        stages=("FIT", "SIT", "investigation", "evidence", "debate"),
        triggers=(
            "state_claims",
            "state_defence",
            "present_evidence",
            "cross_examine",
            "argue",
            "rebut",
            "read_indictment",
            "question_defendant",
        ),
        legal_task="Advocate in court: state the case, handle evidence, argue the points in dispute.",
        checklist=(
            "cross-examine on authenticity, legality and relevance",
            "argue to the judge's points in dispute, one by one",
            "cite only articles you have checked",
        ),
        expected_output="a spoken statement, concise and structured",
        tools=("search_statutes", "check_citations", "read_artifact"),
    ),
    SkillCard(
        id="judging",
        roles=("judge",),
        stages=("FIT", "SIT", "preparation", "investigation", "evidence", "debate", "final_statement", "judgment"),
        triggers=("open_court", "summarise_disputes", "pronounce_judgment"),
        legal_task="Run the procedure neutrally and decide on the record.",
        checklist=(
            "follow the phase order; give each side its turn",
            "sum up the points in dispute before the debate",
            "judgment: parties, claims, facts found, reasoning, legal basis, orders",
            "on appeal: affirm, vary, or set aside and remand each affected order",
        ),
        expected_output="spoken control of the hearing; the judgment with its standard sections",
        tools=("read_artifact", "compare_documents", "search_statutes", "check_citations"),
    ),
)


def loaded_skills(view: SeatView, act: str) -> list[SkillCard]:
    """Skills needed now or already needed earlier in this scenario by this seat."""
    acts_so_far = {turn.get("act") for turn in view.dialogue if turn["seat"] == view.seat} | {act}
    return [
        skill
        for skill in SKILLS
        if view.role in skill.roles
        and ("*" in skill.stages or view.stage in skill.stages)
        and acts_so_far & set(skill.triggers)
    ]


def skill_for(*, role: str, stage: str, act: str) -> SkillCard | None:
    """The card that teaches ``act`` to a seat of ``role`` in ``stage`` (the room's "How to
    do this"), if a card covers it."""
    return next(
        (
            skill
            for skill in SKILLS
            if role in skill.roles and ("*" in skill.stages or stage in skill.stages) and act in skill.triggers
        ),
        None,
    )
