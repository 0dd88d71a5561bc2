"""The judge's ruling on an objection, in either hearing: sustained when the ground fits the
act objected to (``court.engine.objections.ground_fits``), overruled otherwise, with the
reason either way."""

from __future__ import annotations

from agents.scripted.context import Ctx
from court.engine.objections import ground_fits, objection_ground
from court.procedures.names import act_name, ground_name

SUSTAINED = {
    "leading": (
        "该发问含有诱导性，暗示了所期待的回答。请以开放的方式重新发问。",
        "the question suggests its own answer. Counsel will put it open-ended.",
    ),
    "speculation": (
        "该陈述属于推测，而非事实或证据。请围绕证据所能证明的内容陈述。",
        "that is conjecture, not fact or evidence. Keep to what the evidence shows.",
    ),
    "irrelevant": (
        "该陈述超出了本案的争议焦点。请围绕案件事实和证据发言。",
        "that goes beyond the points in dispute. Keep to the facts and evidence in issue.",
    ),
    "hearsay": (
        "该内容转述了他人在庭外的陈述，属于传闻。请以当庭出示的证据为依据。",
        "that repeats what someone said out of court. Rely on the evidence before the court.",
    ),
    "argumentative": (
        "此时应当发问或举证，辩论意见请在法庭辩论阶段发表。",
        "this is argument, not a question or evidence; keep argument for the debate.",
    ),
    "beyond_scope": (
        "该内容超出了本轮发问或质证的范围。请围绕相关内容进行。",
        "that goes beyond the scope of what was raised. Keep to the matter at hand.",
    ),
}
NOT_APPLICABLE = {
    "leading": ("只有发问才可能具有诱导性", "only a question can be leading"),
    "speculation": ("该环节并不陈述需要证据证明的事实", "it asserts no fact that could be conjecture"),
    "irrelevant": ("这是法定程序的一部分", "it is a step the procedure requires"),
    "hearsay": ("该环节并未转述他人的陈述", "it reports nobody else's words"),
    "argumentative": ("该环节本就用于发表意见", "stating a position is what this step is for"),
    "beyond_scope": ("该环节并非对他方内容的回应", "it answers nothing it could exceed"),
    "other": ("法庭未发现法定的异议理由", "the court finds no recognised ground in it"),
}


def rule_objection(ctx: Ctx) -> str:
    """Sustain an objection whose ground fits the statement objected to; overrule the rest.
    Both rulings say why."""
    dialogue = ctx.view.dialogue
    objection = dialogue[-1]["text"] if dialogue else ""
    act = dialogue[-2]["act"] if len(dialogue) > 1 else ""
    language = ctx.view.language
    ground = objection_ground(objection, language)
    if ground_fits(ground, act):
        zh, en = SUSTAINED[ground]
        return ctx.say(f"反对有效：{zh}", f"Sustained: {en}")
    zh, en = NOT_APPLICABLE[ground]
    step = act_name(act, language)
    named = ground_name(ground, language)
    return ctx.say(
        f"反对无效：“{named}”不适用于“{step}”，{zh}。请继续。",
        f'Overruled: "{named}" does not apply to "{step}": {en}. Counsel may continue.',
    )
