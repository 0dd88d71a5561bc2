"""The civil judgment's writing: the orders of a first- or second-instance judgment and the
reasoning naming the points that decided each, item by item in the same terms, from the
decision on the record as heard (``civil_appeal.civil_decision``); ``hearing`` pronounces it."""

from __future__ import annotations

from agents.scripted.civil_appeal import QUOTED
from agents.scripted.civil_court import civil_decision
from agents.scripted.civil_ruling import CivilDecision, ClaimRuling
from agents.scripted.claims import ACCRUAL, SUM, ClaimItem, claim_read
from agents.scripted.context import Ctx
from agents.scripted.record import civil_record
from agents.scripted.wording import money
from court.procedures.seats import opposite


def civil_orders(ctx: Ctx) -> tuple[list[str], str]:
    """Decide on the record as heard (``civil_appeal.civil_decision``): the orders, and the
    reasoning naming the points that decided each, item by item in the same terms."""
    record = civil_record(ctx)
    decision = civil_decision(record)
    if ctx.view.stage == "SIT":
        return _appeal_orders(ctx, decision), _reasoning(ctx, decision)
    orders = _payment_orders(ctx, decision)
    for ruling in decision.rulings:
        if ruling.granted >= 0.5 and ruling.kind != ACCRUAL and ruling.amount is None:
            orders.append(
                ctx.say(f"支持原告诉讼请求：{ruling.claim}", f"The plaintiff's claim is granted: {ruling.claim}")
            )
    if not orders:
        orders.append(ctx.say("驳回原告的全部诉讼请求", "The plaintiff's claims are dismissed in full"))
    elif _anything_refused(decision):
        orders.append(ctx.say("驳回原告的其他诉讼请求", "The plaintiff's other claims are dismissed"))
    return orders, _reasoning(ctx, decision)


def _payment_orders(ctx: Ctx, decision: CivilDecision) -> list[str]:
    """The sum payable, and each interest or penalty on the base granted."""
    claimant, respondent = ctx.name("plaintiff"), ctx.name("defendant")
    orders = []
    if decision.total:
        orders.append(
            ctx.say(
                f"被告{respondent}于本判决生效之日起十日内向原告{claimant}支付{money(decision.total, True)}",
                f"The defendant {respondent} shall pay the plaintiff {claimant} {money(decision.total, False)} within ten days of this judgment taking effect",
            )
        )
        orders.extend(
            ctx.say(
                f"被告{respondent}以{money(item.base, True)}为基数，{_rate(ctx, item)}支付原告{claimant}{item.since}至实际清偿之日止的{item.head or '利息'}",
                f"The defendant {respondent} shall pay the plaintiff {claimant} {_accrued(ctx, item)}",
            )
            for item in decision.accruals
        )
    return orders


def _rate(ctx: Ctx, item: ClaimItem) -> str:
    """The rate claimed, or (none named) the one-year loan prime rate a court applies."""
    return item.rate or ctx.say("按一年期贷款市场报价利率", "at the one-year loan prime rate (LPR)")


def _accrued(ctx: Ctx, item: ClaimItem) -> str:
    """An accrual as ordered: "overdue-payment interest on RMB 62,000 at the LPR from 1 June 2024 until paid"."""
    if ctx.zh:
        return f"以{money(item.base, True)}为基数，{_rate(ctx, item)}计算的{item.since}至实际清偿之日止的{item.head or '利息'}"
    since = f" {item.since}" if item.since else ""
    return f"{item.head or 'interest'} on {money(item.base, False)} {_rate(ctx, item)}{since} until paid"


def _anything_refused(decision: CivilDecision) -> bool:
    """A claim dismissed, granted in part or cut by a sum the defence proved: the plaintiff's
    other claims are dismissed."""
    return (
        decision.share < 1
        or bool(decision.deductions)
        or any(ruling.granted < 1 or _cut(ruling) for ruling in decision.rulings)
        or any(item.base and (item.base + 0.5) < (claim_read(item.text).base or 0) for item in decision.accruals)
    )


def _cut(ruling: ClaimRuling) -> bool:
    claimed = claim_read(ruling.claim).amount
    return ruling.amount is not None and claimed is not None and ruling.amount + 0.5 < claimed


def _appeal_orders(ctx: Ctx, decision: CivilDecision) -> list[str]:
    """A complete appellate order: affirmed; or each order below affirmed or set aside, the
    sum as varied ordered paid (with interest on its base), and who bears the costs of the appeal."""
    appellant = ctx.name(ctx.opener())
    if not decision.varied and len(decision.appellants) > 1:
        return [
            ctx.say("驳回双方上诉，维持原判", "Both appeals are dismissed and the judgment below affirmed"),
            ctx.say(
                "二审案件受理费由双方上诉人各自负担", "The costs of each appeal are borne by the side that brought it"
            ),
        ]
    if not decision.varied:
        return [
            ctx.say("驳回上诉，维持原判", "The appeal is dismissed and the judgment below affirmed"),
            ctx.say(
                f"二审案件受理费由上诉人{appellant}负担",
                f"The costs of the appeal are borne by the appellant {appellant}",
            ),
        ]
    orders = [
        ctx.say(f"维持一审判决“{order}”一项", f'The order "{order}" of the judgment below is affirmed')
        for order in decision.kept_orders
    ]
    orders.extend(
        ctx.say(f"撤销一审判决“{order}”一项", f'The order "{order}" of the judgment below is set aside')
        for order in decision.below_orders
    )
    orders.extend(_varied_orders(ctx, decision))
    orders.extend(
        ctx.say(f"改判：{ruling.claim}", f"Varied on appeal: {ruling.claim}")
        for ruling in decision.rulings
        if ruling.granted >= 0.5
        and ruling.amount is None
        and ruling.kind not in (ACCRUAL, SUM)
        and not QUOTED.search(ruling.claim)
    )
    if not decision.granted_all:
        orders.append(
            ctx.say("驳回双方的其他上诉请求", "The appellants' other requests are dismissed")
            if len(decision.appellants) > 1
            else ctx.say("驳回上诉人的其他上诉请求", "The appellant's other requests are dismissed")
        )
        orders.append(
            ctx.say(
                "二审案件受理费由双方按上诉请求得到支持的比例负担",
                "The costs of the appeal are borne in proportion to the requests granted",
            )
        )
    else:
        appellee = ctx.name(opposite(ctx.opener()))
        orders.append(
            ctx.say(
                f"二审案件受理费由被上诉人{appellee}负担",
                f"The costs of the appeal are borne by the appellee {appellee}",
            )
        )
    return orders


def _varied_orders(ctx: Ctx, decision: CivilDecision) -> list[str]:
    """What replaces the orders set aside: the sum payable as varied (or, reduced to nothing,
    the claims for it dismissed) and each accrual set aside, on its new base or rate."""
    claimant, respondent = ctx.name("plaintiff"), ctx.name("defendant")
    paid_below = any(claim_read(order).kind == SUM for order in decision.below_orders)
    orders = []
    if decision.total and (paid_below or not decision.below):
        orders.append(
            ctx.say(
                f"被告{respondent}于本判决生效之日起十日内向原告{claimant}支付{money(decision.total, True)}",
                f"The defendant {respondent} shall pay the plaintiff {claimant} {money(decision.total, False)} within ten days of this judgment taking effect",
            )
        )
    elif not decision.total and decision.below:
        orders.append(
            ctx.say(
                f"驳回原告{claimant}要求被告支付款项的诉讼请求",
                f"The plaintiff {claimant}'s claims for payment are dismissed",
            )
        )
    orders.extend(
        ctx.say(
            f"被告{respondent}以{money(item.base, True)}为基数，{_rate(ctx, item)}支付原告{claimant}{item.since}至实际清偿之日止的{item.head or '利息'}",
            f"The defendant {respondent} shall pay the plaintiff {claimant} {_accrued(ctx, item)}",
        )
        for item in decision.accruals
        if decision.total and (item.text in decision.below_orders or not decision.below)
    )
    return orders


def _verdict(ctx: Ctx, decision: CivilDecision, ruling: ClaimRuling) -> str:
    """What the court decides on one claim or request, in the terms its order uses."""
    if ruling.granted <= 0:
        return ctx.say("不予支持", "dismissed")
    verdict = (
        ctx.say("予以支持", "granted")
        if ruling.granted >= 1
        else ctx.say(f"支持{round(ruling.granted * 100)}%", f"granted as to {round(ruling.granted * 100)} %")
    )
    if decision.appeal and ruling.amount is not None:
        below = money(decision.below or 0, ctx.zh)
        return verdict + ctx.say(
            f"，应付款项由{below}改为{money(decision.total or 0, True)}",
            f": the sum payable is varied from {below} to {money(decision.total or 0, False)}",
        )
    if ruling.kind == ACCRUAL and ruling.base:
        item = next((item for item in decision.accruals if item.text == ruling.claim), None)
        return verdict + (ctx.say(f"：{_accrued(ctx, item)}", f": {_accrued(ctx, item)}") if item else "")
    if ruling.amount is not None and not decision.appeal:
        return verdict + ctx.say(f"{money(ruling.amount, True)}", f": {money(ruling.amount, False)}")
    return verdict


def _costs_follow(ctx: Ctx, decision: CivilDecision) -> str:
    if decision.appeal:
        return ctx.say(
            "二审案件受理费随上诉结果负担，见判决主文", "the costs of the appeal follow its outcome, as ordered"
        )
    return ctx.say(
        "诉讼费用按各方胜诉比例负担", "the costs follow the outcome and are borne in proportion to each side's success"
    )


def _reasoning(ctx: Ctx, decision: CivilDecision) -> str:
    lines = []
    for ruling in decision.rulings:
        because = ctx.sep().join(ruling.reasons) or ctx.say("请求方在庭审中主张该项请求", "the claimant stated it")
        verdict = _verdict(ctx, decision, ruling)
        lines.append(
            ctx.say(f"关于“{ruling.claim}”：{because}，{verdict}。", f'As to "{ruling.claim}": {because}; {verdict}.')
        )
    if decision.share_reason:
        share = round(decision.share * 100)
        lines.append(
            ctx.say(
                f"关于责任比例：{decision.share_reason}，被告承担{share}%的责任。",
                f"As to liability: {decision.share_reason}; the defendant bears {share} %.",
            )
        )
    for deduction in decision.deductions:
        lines.append(
            ctx.say(
                f"已经支付或应予扣除的{money(deduction, True)}从本金中扣除。",
                f"{money(deduction, False)} already paid or to be deducted comes off the principal.",
            )
        )
    if decision.total and not decision.appeal and (decision.share < 1 or decision.deductions or len(lines) > 1):
        lines.append(
            ctx.say(
                f"综上，被告应支付{money(decision.total, True)}。",
                f"In all, the defendant shall pay {money(decision.total, False)}.",
            )
        )
    lines.extend(
        ctx.say(
            f"关于“{claim}”：{_costs_follow(ctx, decision)}。",
            f'As to "{claim}": {_costs_follow(ctx, decision)}.',
        )
        for claim in decision.costs
    )
    if not lines:
        lines.append(
            ctx.say(
                "请求方未提出本院可以裁判的具体请求，依法驳回。",
                "The claimant stated no claim the court could decide; there is nothing to grant.",
            )
        )
    return "\n".join(lines)
