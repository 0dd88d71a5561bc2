"""The judge's ruling on an objection, in either hearing (docs/offline-court.md, "Objections").

A ground must fit the act objected to (``court.engine.objections.ground_fits``) and the record
must show the defect: the statement's own words for leading, speculation, hearsay and argument
(``defect_shown``); for "irrelevant", a statement or exhibit sharing no term with any point in
dispute (the claims and defences, the appeal, the charges and the indictment, a sentencing
circumstance); for "beyond the scope", a statement sharing none with what it answers. A
statement that offers exhibits is ruled on exhibit by exhibit: those the objection names, else
the one it cut, else all it offers. Sustained, the ruling strikes the exhibits that show the
defect, or the statement, and says which (``heard`` reads it); overruled, it says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.scripted.context import Ctx, as_list, split_sentences
from agents.scripted.heard import EVIDENCE_PHASES, offered_in, offers, parts, side_of
from agents.scripted.record import GENERIC, circumstances_in, shared_terms
from court.engine.objections import CUT, OBJECT_ACT, RULE_OBJECTION, defect_shown, ground_fits, objection_ground
from court.legaltext.text import terms
from court.procedures.names import act_name, ground_name
from court.procedures.seats import COURT

SUSTAINED = {
    "leading": (
        "该发问含有诱导性（‘{shown}’），暗示了所期待的回答。请以开放的方式重新发问。",
        "the question suggests its own answer (‘{shown}’). Counsel will put it open-ended.",
    ),
    "speculation": (
        "该陈述属于推测（‘{shown}’），而非事实或证据。请围绕证据所能证明的内容陈述。",
        "that is conjecture (‘{shown}’), not fact or evidence. Keep to what the evidence shows.",
    ),
    "irrelevant": (
        "该内容与本案的诉讼请求、答辩或指控均无关联。请围绕案件事实和证据发言。",
        "that bears on none of the points in dispute. Keep to the facts and evidence in issue.",
    ),
    "hearsay": (
        "该内容转述了他人在庭外的陈述（‘{shown}’），属于传闻。请以当庭出示的证据为依据。",
        "that repeats what someone said out of court (‘{shown}’). Rely on the evidence before the court.",
    ),
    "argumentative": (
        "此时应当发问或举证，该内容是辩论意见（‘{shown}’），请在法庭辩论阶段发表。",
        "this is argument (‘{shown}’), not a question or evidence; keep argument for the debate.",
    ),
    "beyond_scope": (
        "该内容与其所回应的内容毫无关联，超出了范围。请围绕相关内容进行。",
        "that answers nothing the other side raised. Keep to the matter at hand.",
    ),
}
SUPPORTED = {
    "leading": ("该发问是开放式的，并未暗示回答", "the question is put open; {it} does not suggest its answer"),
    "speculation": ("其中没有推测之词", "{it} states no conjecture"),
    "irrelevant": ("其涉及本案争议焦点：‘{point}’", "{it} goes to a point in dispute: ‘{point}’"),
    "hearsay": ("其中没有转述他人庭外的陈述", "{it} repeats nobody's words said out of court"),
    "argumentative": ("其中没有法律结论或责任判断", "{it} draws no conclusion of law or liability"),
    "beyond_scope": ("其回应了对方提出的内容：‘{point}’", "{it} answers what was raised: ‘{point}’"),
}
"""ground -> why the record does not support it (an overruled objection says so)."""
NOT_APPLICABLE = {
    "leading": ("只有发问才可能具有诱导性", "only a question can be leading"),
    "speculation": ("该环节并不陈述需要证据证明的事实", "it asserts no fact that could be conjecture"),
    "irrelevant": ("这是法定程序的一部分", "it is a step the procedure requires"),
    "hearsay": ("该环节并未转述他人的陈述", "it reports nobody else's words"),
    "argumentative": ("该环节本就用于发表意见", "stating a position is what this step is for"),
    "beyond_scope": ("该环节并非对他方内容的回应", "it answers nothing it could exceed"),
    "other": ("法庭未发现法定的异议理由", "the court finds no recognised ground in it"),
}
PREMATURE = (
    "该陈述刚刚开始，尚不足以判断其是否偏离争点",
    "the statement has barely begun: too little is said yet to be off the point",
)
"""Why an objection to relevance or scope is overruled when it cut a statement that had yet
to say ``SAID_ENOUGH`` content words."""
SAID_ENOUGH = 4
QUESTIONS = frozenset({"question_defendant", "ask_follow_up", "ask_question"})
POINT_CHARS = 60


@dataclass(frozen=True)
class Finding:
    """The ground held against one statement or exhibit: ``shown`` the words showing the
    defect (sustained), else ``point`` the point in dispute it goes to (overruled)."""

    sustained: bool
    shown: str = ""
    point: str = ""
    premature: bool = False


def rule_objection(ctx: Ctx) -> str:
    """Sustain an objection the act and the record support, striking what shows the defect;
    overrule the rest. Both rulings say why."""
    dialogue = ctx.view.dialogue
    objection = dialogue[-1]["text"] if dialogue else ""
    statement = dialogue[-2] if len(dialogue) > 1 else {"act": "", "text": "", "seat": ""}
    ground = objection_ground(objection, ctx.view.language)
    if not ground_fits(ground, statement["act"]):
        return _not_applicable(ctx, ground, statement["act"])
    exhibits = offered_exhibits(ctx, statement)
    if not exhibits:
        return _ruling(ctx, ground, finding(ctx, ground, statement, statement["text"]), statement["act"])
    targets = targeted(exhibits, statement["text"], objection)
    findings = {
        name: finding(ctx, ground, statement, said, filed=f"{name} {purpose}")
        for name, (said, purpose) in targets.items()
    }
    return _exhibit_ruling(ctx, ground, findings)


def offered_exhibits(ctx: Ctx, statement: dict) -> dict[str, tuple[str, str]]:
    """The exhibits of the speaker's side that ``statement``, made in the evidence phase and
    not a question (a question names an exhibit, it does not offer it), offers, in the order offered: name ->
    the words offering it (its part of the statement) and what the case file says it proves."""
    if statement.get("phase") not in EVIDENCE_PHASES or statement["act"] in QUESTIONS:
        return {}
    side = side_of(statement["seat"])
    items = ctx.field("evidence", side, []) or []
    if ctx.view.stage == "SIT":
        items = ctx.field("new_evidence", side, []) or []
    purposes = {item["name"]: item.get("purpose", "") for item in items}
    return {name: (words, purposes[name]) for name, words in _by_exhibit(statement["text"], list(purposes)).items()}


def targeted(exhibits: dict[str, tuple[str, str]], statement: str, objection: str) -> dict[str, tuple[str, str]]:
    """The exhibits an objection goes to: those it names, else the one being offered when it
    cut the statement, else every one the statement offers."""
    named = {name: text for name, text in exhibits.items() if offers(objection, name)}
    if named:
        return named
    if statement.rstrip().endswith(CUT.strip()):
        last = list(exhibits)[-1]
        return {last: exhibits[last]}
    return exhibits


def finding(ctx: Ctx, ground: str, statement: dict, text: str, *, filed: str = "") -> Finding:
    """Whether the record shows ``ground``'s defect in ``text`` (a statement, or the words
    offering one exhibit, ``filed`` its name and purpose in the case file: what it is
    offered for, whatever counsel's words)."""
    if ground in ("irrelevant", "beyond_scope") and not filed and _barely_begun(ctx, text):
        return Finding(False, premature=True)
    if ground == "irrelevant":
        point = _point(ctx, f"{text} {filed}", points_in_dispute(ctx))
        return Finding(not point, point=point)
    if ground == "beyond_scope":
        answered = _answered(ctx, statement)
        point = _point(ctx, text, answered + (points_in_dispute(ctx) if statement["act"] in QUESTIONS else []))
        return Finding(not point, point=point)
    shown = defect_shown(ground, text)
    return Finding(bool(shown), shown=shown or "")


def _barely_begun(ctx: Ctx, text: str) -> bool:
    """A statement an objection cut before it said ``SAID_ENOUGH`` content words."""
    said = terms(text.removesuffix(CUT), ctx.view.language) - GENERIC
    return text.endswith(CUT) and len(said) < SAID_ENOUGH


def points_in_dispute(ctx: Ctx) -> list[str]:
    """What the hearing is about, as the judge's seat reads the case."""
    if ctx.view.procedure == "criminal":
        indictment = ctx.field("indictment") or {}
        return as_list(indictment.get("charges")) + split_sentences(indictment.get("indictment", ""))
    if ctx.view.stage == "SIT":
        appeal = ctx.appeal()
        defences = [ctx.field("appellee_defenses", side, "") or "" for side in ("plaintiff", "defendant")]
        return as_list(appeal.get("appeal_requests")) + [
            sentence for text in [appeal.get("appeal_reasons", ""), *defences] for sentence in split_sentences(text)
        ]
    return ctx.claims() + split_sentences(ctx.facts("plaintiff")) + split_sentences(ctx.facts("defendant"))


def _point(ctx: Ctx, text: str, points: list[str]) -> str:
    """The point ``text`` shares most terms with ("" if none); in a criminal trial a
    sentencing circumstance is a point too."""
    shared = max(((shared_terms(text, point, ctx.view.language), point) for point in points), default=(0, ""))
    found = shared[1] if shared[0] else ""
    if not found and ctx.view.procedure == "criminal" and circumstances_in(text):
        found = ctx.say("量刑情节", "the sentence")
    return found if len(found) <= POINT_CHARS else f"{found[:POINT_CHARS].rstrip()}…"


def _answered(ctx: Ctx, statement: dict) -> list[str]:
    """The other side's last statement before ``statement``: what it answers."""
    side = side_of(statement["seat"])
    before = [
        turn
        for turn in ctx.view.dialogue
        if turn["seq"] < statement["seq"] and turn["act"] not in (OBJECT_ACT, RULE_OBJECTION)
    ]
    other = [turn["text"] for turn in before if side_of(turn["seat"]) not in (side, COURT)]
    return other[-1:]


def _by_exhibit(text: str, names: list[str]) -> dict[str, str]:
    """The parts of ``text`` offering each exhibit it names: from the part naming it to the
    part naming the next (a heading before the first belongs to none)."""
    said: dict[str, str] = {}
    current = None
    for part in parts(text):
        current = offered_in(part, names) or current
        if current is not None:
            said[current] = f"{said.get(current, '')} {part.strip()}".strip()
    return said


def _ruling(ctx: Ctx, ground: str, found: Finding, act: str) -> str:
    if found.premature:
        zh, en = PREMATURE
        return ctx.say(f"反对无效：{zh}。请继续。", f"Overruled: {en}. Counsel may continue.")
    if not found.sustained:
        zh, en = SUPPORTED[ground]
        return ctx.say(
            f"反对无效：{zh.format(point=found.point)}。请继续。",
            f"Overruled: {en.format(point=found.point, it='it')}. Counsel may continue.",
        )
    zh, en = SUSTAINED[ground]
    what = ctx.say("该发问", "The question") if act in QUESTIONS else ctx.say("该陈述", "The statement")
    return ctx.say(
        f"反对有效：{zh.format(shown=found.shown)}{what}不予采纳。",
        f"Sustained: {en.format(shown=found.shown)} {what} is struck.",
    )


def _exhibit_ruling(ctx: Ctx, ground: str, findings: dict[str, Finding]) -> str:
    struck = [name for name, found in findings.items() if found.sustained]
    reasons: dict[str, list[str]] = {}
    for name, found in findings.items():
        if not found.sustained:
            reasons.setdefault(found.point, []).append(name)
    zh_why, en_why = SUPPORTED[ground]
    stand = [
        ctx.say(
            f"{_quoted(ctx, names)}予以保留：{zh_why.format(point=point)}。",
            f"{_quoted(ctx, names)} {'stand' if len(names) > 1 else 'stands'}: "
            f"{en_why.format(point=point, it='each' if len(names) > 1 else 'it')}.",
        )
        for point, names in reasons.items()
    ]
    if not struck:
        return ctx.say(f"反对无效：{''.join(stand)}请继续。", f"Overruled: {' '.join(stand)} Counsel may continue.")
    zh, en = SUSTAINED[ground]
    shown = findings[struck[0]].shown
    return ctx.say(
        f"反对有效：{zh.format(shown=shown)}本庭排除{_quoted(ctx, struck)}。{''.join(stand)}",
        f"Sustained: {en.format(shown=shown)} The court strikes {_quoted(ctx, struck)}. {' '.join(stand)}".rstrip(),
    )


def _quoted(ctx: Ctx, names: list[str]) -> str:
    quoted = [f"“{name}”" for name in names]
    english = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"
    return ctx.say("、".join(f"《{name}》" for name in names), english)


def _not_applicable(ctx: Ctx, ground: str, act: str) -> str:
    zh, en = NOT_APPLICABLE[ground]
    language = ctx.view.language
    step, named = act_name(act, language), ground_name(ground, language)
    return ctx.say(
        f"反对无效：“{named}”不适用于“{step}”，{zh}。请继续。",
        f'Overruled: "{named}" does not apply to "{step}": {en}. Counsel may continue.',
    )
