"""Drafting with the client: the complaint and the defence (CD/DD), whether to appeal
(AD-Det), the notice of appeal and the response to it (AD/AR)."""

from __future__ import annotations

from datetime import date

from agents.scripted.context import (
    Ctx,
    as_list,
    court_name,
    disposition_of,
    evidence_lines,
    numbered,
)
from court.engine.judgment import orders_lost
from court.engine.steps import ArtifactDraft
from court.procedures.seats import opposite


def request_materials(ctx: Ctx) -> str:
    return ctx.say(
        "接下来要起草正式文书。请您把证据原件和关键时间节点再核对一遍，有没有需要补充或更正的？",
        "We now draft the formal pleading. Please check the original evidence and the key dates again: "
        "anything to add or correct?",
    )


def provide_materials(ctx: Ctx) -> str:
    items = [item["name"] for item in ctx.evidence()]
    new = [item["name"] for item in ctx.field("new_evidence", ctx.view.side, []) or []]
    extra = (
        ctx.say(
            f"另外还有新证据：{ctx.sep().join(new)}。",
            f"There is also new evidence: {ctx.sep().join(new)}. ",
        )
        if new
        else ""
    )
    return ctx.say(
        f"我核对过了，材料包括：{ctx.sep().join(items) or '（暂无）'}。{extra}时间节点和之前说的一致。",
        f"I checked: the materials are {ctx.sep().join(items) or '(none yet)'}. {extra}The dates are as I told you.",
    )


def confirm_position(ctx: Ctx) -> str:
    if ctx.view.unit == "AD_AR":
        appellant = ctx.view.side == ctx.view.appellant_side
        requests = ctx.appeal_requests(ctx.view.side if appellant else None)
        if appellant:
            return ctx.say(
                f"根据一审判决和您的意见，上诉请求拟定为：{ctx.sep().join(requests)}。您确认吗？",
                f"Based on the first-instance judgment and your instructions, the appeal requests will be: "
                f"{ctx.sep().join(requests)}. Do you confirm?",
            )
        return ctx.say(
            "对方的上诉理由我已看过，我们的答辩思路是一审认定事实清楚、适用法律正确，请求驳回上诉。您同意吗？",
            "I have read the appeal. Our response is that the first-instance court found the facts correctly and "
            "applied the law properly, so the appeal should be dismissed. Do you agree?",
        )
    if ctx.view.side == "plaintiff":
        return ctx.say(
            f"诉讼请求拟定为：{ctx.sep().join(ctx.claims())}。您确认吗？",
            f"The claims will be: {ctx.sep().join(ctx.claims())}. Do you confirm?",
        )
    return ctx.say(
        "针对原告的诉讼请求，我们的答辩要点是：" + (ctx.facts()[:120] or "原告主张缺乏依据") + "。您同意吗？",
        "Against the plaintiff's claims our key defence points are: "
        + (ctx.facts()[:200] or "the claims lack basis")
        + ". Agreed?",
    )


def approve_position(ctx: Ctx) -> str:
    if ctx.persona("emotional_stability") == "low":
        return ctx.say(
            "行，就按您说的办，我只希望尽快有个结果。",
            "Fine, do it your way. I just want this over quickly.",
        )
    return ctx.say("我确认，就按这个方案起草。", "Confirmed. Please draft on that basis.")


# A defence does not list the evidence: the list is exchanged in the evidence phase of the
# trial, the point from which the opponent may see it (Table 5). A complaint sets it out, as
# 民事起诉状 does; the opponent reads that section from the evidence phase on
# (``court.documents.document_without``).
EVIDENCE_SEPARATELY_ZH = "证据目录另行提交，于庭审举证质证时交换。"
EVIDENCE_SEPARATELY_EN = "The evidence list is filed separately and exchanged at the evidence phase of the hearing."


def draft_complaint(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    """The complaint in the template of 民事起诉状 (``court.documents``): the parties with
    their particulars, the claims, the facts and reasons, the evidence with what each item
    proves (left out when the side has none), the court addressed, the complainant and the
    date."""
    evidence = evidence_lines(ctx, ctx.evidence())
    listed = ctx.say(
        f"证据和证据来源：\n{numbered(ctx, evidence)}\n\n", f"Evidence and sources:\n{numbered(ctx, evidence)}\n\n"
    )
    body = ctx.say(
        f"民事起诉状\n\n{_parties(ctx)}\n\n诉讼请求：\n{numbered(ctx, ctx.claims())}\n\n"
        f"事实与理由：\n{ctx.facts()}\n\n{listed if evidence else ''}此致\n{court_name(ctx)}\n\n"
        f"具状人：{_complainants(ctx)}\n{_today(ctx)}",
        f"Civil Complaint\n\n{_parties(ctx)}\n\nClaims:\n{numbered(ctx, ctx.claims())}\n\n"
        f"Facts and reasons:\n{ctx.facts()}\n\n{listed if evidence else ''}To: {court_name(ctx)}\n\n"
        f"Complainant: {_complainants(ctx)}\nDate: {_today(ctx)}",
    )
    return ctx.say("起诉状已起草完成。", "The complaint is drafted."), ArtifactDraft(
        ctx.say("民事起诉状", "Civil complaint"), body
    )


def _parties(ctx: Ctx) -> str:
    """A line per party of either side, with the particulars the case file gives."""
    lines = []
    for party in ctx.view.case["parties"]:
        if party.get("side") in ("plaintiff", "defendant"):
            heading = ctx.say(_side_zh(party["side"]), party["side"].capitalize())
            details = str(party.get("details") or "").strip()
            entry = ctx.say(f"{party['name']}，{details}", f"{party['name']}, {details}") if details else party["name"]
            lines.append(ctx.say(f"{heading}：{entry}", f"{heading}: {entry}"))
    return "\n".join(lines)


def _complainants(ctx: Ctx) -> str:
    names = [party["name"] for party in ctx.view.case["parties"] if party.get("side") == "plaintiff"]
    return ctx.say("、", ", ").join(names) or ctx.name("plaintiff")


def _today(ctx: Ctx) -> str:
    """The date the complaint is signed: the day it is drafted."""
    today = date.today()
    return ctx.say(f"{today.year}年{today.month}月{today.day}日", f"{today.day} {today:%B} {today.year}")


def draft_defence(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    body = ctx.say(
        f"民事答辩状\n\n答辩人：{ctx.name('defendant')}\n被答辩人：{ctx.name('plaintiff')}\n\n针对原告的诉讼请求：\n"
        f"{numbered(ctx, ctx.claims())}\n\n答辩意见：\n{ctx.facts()}\n\n{EVIDENCE_SEPARATELY_ZH}\n\n此致\n{court_name(ctx)}",
        f"Statement of Defence\n\nRespondent: {ctx.name('defendant')}\nClaimant: {ctx.name('plaintiff')}\n\n"
        f"In answer to the claims:\n{numbered(ctx, ctx.claims())}\n\nDefence:\n{ctx.facts()}\n\n{EVIDENCE_SEPARATELY_EN}\n\n"
        f"To: {court_name(ctx)}",
    )
    return ctx.say("答辩状已起草完成。", "The defence is drafted."), ArtifactDraft(
        ctx.say("民事答辩状", "Statement of defence"), body
    )


def answer_appeal(ctx: Ctx) -> tuple[str, str]:
    """Appeal what the judgment took from this side: only a side that lost something is
    asked, so the scripted seat appeals, naming the orders it contests."""
    judgment = ctx.artifact("first_instance_judgment")
    lost = orders_lost(judgment["text"])[ctx.view.side] if judgment else []
    if not lost:
        return ctx.say(
            "一审判决没有对我方不利的判项，我方不上诉。", "The judgment took nothing from us; we do not appeal."
        ), "decline"
    orders = ctx.sep().join(order.rstrip("。.") for order in lost)
    return ctx.say(
        f"我方不服一审判决中的以下判项，决定提起上诉：{orders}。",
        f"We do not accept these orders of the judgment and appeal: {orders}.",
    ), "appeal"


def review_judgment(ctx: Ctx) -> str:
    judgment = ctx.artifact("first_instance_judgment")
    holding = disposition_of(judgment["text"]) if judgment else ""
    return ctx.say(
        f"一审判决主文是：{holding}。我们需要据此确定二审的立场，请您提供一审后新获得的材料。",
        f"The first-instance judgment held: {holding}. We must set our position for the appeal; "
        "please give me any material obtained since.",
    )


def draft_appeal(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    """The notice of appeal: this side's own appeal when both sides appealed, else the one heard."""
    appeal = ctx.appeal(ctx.view.side) or ctx.appeal()
    new = ctx.field("new_evidence", ctx.view.side, []) or []
    appellee = opposite(ctx.view.side)
    body = ctx.say(
        f"民事上诉状\n\n上诉人（原审{_side_zh(ctx.view.side)}）：{ctx.name(ctx.view.side)}\n"
        f"被上诉人（原审{_side_zh(appellee)}）：{ctx.name(appellee)}\n\n上诉请求：\n"
        f"{numbered(ctx, as_list(appeal.get('appeal_requests')))}\n\n上诉理由：\n{appeal.get('appeal_reasons', '')}\n\n"
        f"新证据：\n{numbered(ctx, evidence_lines(ctx, new))}\n\n此致\n二审人民法院",
        f"Notice of Appeal\n\nAppellant (original {ctx.view.side}): {ctx.name(ctx.view.side)}\n"
        f"Appellee (original {appellee}): {ctx.name(appellee)}\n\nAppeal requests:\n"
        f"{numbered(ctx, as_list(appeal.get('appeal_requests')))}\n\nGrounds of appeal:\n{appeal.get('appeal_reasons', '')}\n\n"
        f"New evidence:\n{numbered(ctx, evidence_lines(ctx, new))}\n\nTo: the appellate court",
    )
    return ctx.say("上诉状已起草完成。", "The notice of appeal is drafted."), ArtifactDraft(
        ctx.say("民事上诉状", "Notice of appeal"), body
    )


def draft_appeal_response(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    appeal = ctx.appeal(opposite(ctx.view.side))
    defenses = ctx.field("appellee_defenses", ctx.view.side, "") or ctx.say(
        "一审判决认定事实清楚，适用法律正确，上诉理由不能成立。",
        "The judgment below is correct in fact and law; the grounds of appeal do not stand.",
    )
    body = ctx.say(
        f"二审答辩状\n\n答辩人（被上诉人）：{ctx.name(ctx.view.side)}\n上诉人：{ctx.name(opposite(ctx.view.side))}\n\n"
        f"针对上诉请求：\n{numbered(ctx, as_list(appeal.get('appeal_requests')))}\n\n答辩意见：\n{defenses}\n\n"
        "请求：驳回上诉，维持原判。",
        f"Response to Appeal\n\nRespondent (appellee): {ctx.name(ctx.view.side)}\nAppellant: "
        f"{ctx.name(opposite(ctx.view.side))}\n\nIn answer to the appeal requests:\n"
        f"{numbered(ctx, as_list(appeal.get('appeal_requests')))}\n\nResponse:\n{defenses}\n\n"
        "Relief sought: dismiss the appeal and affirm the judgment.",
    )
    return ctx.say("二审答辩状已起草完成。", "The response to the appeal is drafted."), ArtifactDraft(
        ctx.say("二审答辩状", "Response to appeal"), body
    )


def _side_zh(side: str) -> str:
    return {"plaintiff": "原告", "defendant": "被告"}[side]
