"""The judge's ruling on an objection, in either hearing."""

from __future__ import annotations

from trials.agents.scripted.context import Ctx

OBJECTION_GROUNDS = (
    "relevan",
    "leading",
    "hearsay",
    "speculat",
    "argumentative",
    "关联",
    "诱导",
    "传闻",
    "推测",
    "重复",
)


def rule_objection(ctx: Ctx) -> str:
    """Sustain an objection on a recognised evidentiary ground, overrule the rest."""
    objection = ctx.view.dialogue[-1]["text"] if ctx.view.dialogue else ""
    if any(ground in objection.lower() for ground in OBJECTION_GROUNDS):
        return ctx.say(
            "反对有效。代理人的陈述超出了本争议焦点，请围绕案件事实和证据发言。",
            "Sustained. Counsel will confine the submission to the facts and evidence in issue.",
        )
    return ctx.say("反对无效。请继续。", "Overruled. Counsel may continue.")
