"""Skill cards (LegalWorld, Tables 13-14; docs/sources.md): declarative procedural know-how
injected into an LLM seat's prompt on the first turn a skill is needed and kept for the rest of
the scenario, and shown in the room under "How to do this".

A card speaks the case's language (``state.language``), not the reader's interface language:
it goes into prompts and guidance everyone in the trial reads alike. Tool names stay as they
are in both languages, since the model calls them by name."""

from __future__ import annotations

from dataclasses import dataclass

from court.engine.visibility import SeatView


@dataclass(frozen=True)
class Wording:
    """What a card says in one language."""

    title: str
    legal_task: str
    checklist: tuple[str, ...]
    expected_output: str


@dataclass(frozen=True)
class SkillCard:
    id: str
    roles: tuple[str, ...]
    stages: tuple[str, ...]
    triggers: tuple[str, ...]
    """The acts that need the skill; it is loaded at the first of them in a stage."""
    tools: tuple[str, ...]
    en: Wording
    zh: Wording

    def wording(self, language: str) -> Wording:
        return self.zh if language == "zh" else self.en

    def render(self, language: str) -> str:
        """The card as a prompt carries it. Its tools are not named: they are the tools the
        request offers (``toolbox.turn_tools``), described there."""
        words = self.wording(language)
        checklist = "\n".join(f"- {item}" for item in words.checklist)
        if language == "zh":
            return (
                f"### 技能：{words.title}\n任务：{words.legal_task}\n要点清单：\n{checklist}\n"
                f"预期成果：{words.expected_output}"
            )
        return (
            f"### Skill: {self.id}\nTask: {words.legal_task}\nChecklist:\n{checklist}\n"
            f"Expected output: {words.expected_output}"
        )

    def guidance(self, language: str) -> dict[str, object]:
        """The room's "How to do this" for the act: the card's task and checklist."""
        words = self.wording(language)
        return {"task": words.legal_task, "checklist": list(words.checklist)}


SKILLS = (
    SkillCard(
        id="memory_writing",
        roles=("client", "lawyer", "prosecutor", "attorney", "defendant"),
        stages=("*",),
        triggers=("update_memory",),
        tools=("read_memory", "memory_expand", "memory_revise"),
        en=Wording(
            "memory writing",
            "Keep your global case memory accurate at the end of each stage.",
            (
                "expand facts, evidence, claims or defenses with what this stage established",
                "revise positions when your position changed; never delete facts silently",
                "record procedural_progress: which stage ended and its outcome",
            ),
            "memory_expand / memory_revise calls only",
        ),
        zh=Wording(
            "整理案件记忆",
            "每个阶段结束时，保持你的全局案件记忆准确、完整。",
            (
                "把本阶段查明的内容补充到事实（facts）、证据（evidence）、主张（claims）或抗辩（defenses）中",
                "立场改变时修订立场（positions）；不得悄悄删除已记录的事实",
                "在程序进展（procedural_progress）中记下哪个阶段结束、结果如何",
            ),
            "只调用 memory_expand / memory_revise 工具",
        ),
    ),
    SkillCard(
        id="complaint_drafting",
        roles=("lawyer",),
        stages=("CD",),
        triggers=("request_materials", "draft_complaint"),
        tools=("search_statutes", "check_citations", "export_document"),
        en=Wording(
            "complaint drafting",
            "Draft a civil complaint that states enforceable claims supported by facts and evidence.",
            (
                "parties with identifying details",
                "each claim specific and enforceable (amounts, dates, interest basis)",
                "facts in chronological order, each tied to evidence",
                "legal basis checked with check_citations",
            ),
            "a civil complaint with parties, claims, facts and reasons, court",
        ),
        zh=Wording(
            "起诉状撰写",
            "起草民事起诉状，提出有事实和证据支持、可以执行的诉讼请求。",
            (
                "写明当事人及其身份信息",
                "每项诉讼请求具体、可执行（金额、日期、利息计算依据）",
                "按时间顺序陈述事实，每一事实都对应证据",
                "用 check_citations 核对法律依据",
            ),
            "民事起诉状：当事人、诉讼请求、事实与理由、致送法院",
        ),
    ),
    SkillCard(
        id="defence_drafting",
        roles=("lawyer",),
        stages=("DD",),
        triggers=("request_materials", "draft_defence"),
        tools=("search_statutes", "check_citations", "read_artifact", "export_document"),
        en=Wording(
            "defence drafting",
            "Draft a statement of defence answering every claim.",
            (
                "answer each claim: admit, deny or qualify",
                "facts and evidence for every denial",
                "procedural defences (limitation, jurisdiction) considered",
            ),
            "a statement of defence",
        ),
        zh=Wording(
            "答辩状撰写",
            "起草民事答辩状，逐项回应对方的每一项诉讼请求。",
            (
                "逐项回应诉讼请求：承认、否认或部分承认",
                "每一项否认都要有事实和证据支持",
                "考虑程序性抗辩（诉讼时效、管辖）",
            ),
            "民事答辩状",
        ),
    ),
    SkillCard(
        id="appeal_drafting",
        roles=("lawyer",),
        stages=("AD",),
        triggers=("review_judgment", "draft_appeal"),
        tools=("read_artifact", "compare_documents", "search_statutes", "check_citations", "export_document"),
        en=Wording(
            "appeal drafting",
            "Draft an appeal that attacks the specific findings or legal errors of the first-instance judgment.",
            (
                "identify each order appealed",
                "grounds: wrong facts, wrong law, procedural error",
                "new evidence and why it is admissible",
            ),
            "a notice of appeal",
        ),
        zh=Wording(
            "上诉状撰写",
            "起草民事上诉状，具体指出一审判决在事实认定或法律适用上的错误。",
            (
                "逐项列明不服的判项",
                "上诉理由：事实认定错误、适用法律错误、程序违法",
                "新证据及其应予采纳的理由",
            ),
            "民事上诉状",
        ),
    ),
    SkillCard(
        id="appeal_response_drafting",
        roles=("lawyer",),
        stages=("AR",),
        triggers=("review_judgment", "draft_appeal_response"),
        tools=("read_artifact", "search_statutes", "check_citations", "export_document"),
        en=Wording(
            "appeal response drafting",
            "Answer each ground of appeal and defend the first-instance judgment.",
            ("answer each ground", "show the findings rest on evidence", "ask for dismissal of the appeal"),
            "a response to appeal",
        ),
        zh=Wording(
            "上诉答辩状撰写",
            "逐项回应上诉理由，维护一审判决。",
            ("逐项回应上诉理由", "说明一审认定的事实有证据支持", "请求驳回上诉、维持原判"),
            "二审答辩状",
        ),
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
        tools=("search_statutes", "check_citations", "read_artifact"),
        en=Wording(
            "trial advocacy",
            "Advocate in court: state the case, handle evidence, argue the points in dispute.",
            (
                "cross-examine on authenticity, legality and relevance",
                "argue to the judge's points in dispute, one by one",
                "cite only articles you have checked",
            ),
            "a spoken statement, concise and structured",
        ),
        zh=Wording(
            "出庭代理",
            "出庭代理：陈述主张、举证质证、围绕争议焦点发表辩论意见。",
            (
                "从真实性、合法性、关联性三方面发表质证意见",
                "围绕法庭归纳的争议焦点逐一辩论",
                "只引用已经核对过的法条",
            ),
            "简洁、有条理的当庭发言",
        ),
    ),
    SkillCard(
        id="judging",
        roles=("judge",),
        stages=("FIT", "SIT", "preparation", "investigation", "evidence", "debate", "final_statement", "judgment"),
        triggers=("open_court", "summarise_disputes", "pronounce_judgment"),
        tools=("read_artifact", "search_statutes", "check_citations"),
        en=Wording(
            "judging",
            "Run the procedure neutrally and decide on the record.",
            (
                "follow the phase order; give each side its turn",
                "sum up the points in dispute before the debate",
                "judgment: parties, claims, facts found, reasoning, legal basis, orders",
                "on appeal: affirm, vary, or set aside and remand each affected order",
            ),
            "spoken control of the hearing; the judgment with its standard sections",
        ),
        zh=Wording(
            "审判",
            "中立主持庭审程序，依据在案证据和法律作出裁判。",
            (
                "按庭审阶段顺序推进，保障各方的发言机会",
                "法庭辩论前归纳争议焦点",
                "判决书：当事人、诉讼请求、本院查明、本院认为、法律依据、判决主文",
                "二审：对每一受影响的判项分别维持、改判或撤销发回",
            ),
            "当庭主持庭审；按标准结构写出判决书",
        ),
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
    do this", in the case's language: ``SkillCard.guidance``), if a card covers it."""
    return next(
        (
            skill
            for skill in SKILLS
            if role in skill.roles and ("*" in skill.stages or stage in skill.stages) and act in skill.triggers
        ),
        None,
    )
