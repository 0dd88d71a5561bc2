"""Remedies and disputed points a civil query speaks of, each with the words the statutes
define it in, so the search looks for the rule on the remedy asked beside the facts' matches.

A civil judgment rests on the rule of the remedy a claim asks (overdue interest, the penalty,
economic compensation, the insurer's direct payment) and of the point the parties dispute
(dismissal, the time limit); a pleading or a statement of facts names them in everyday or
trade words (交强险, 辞退, 双倍工资), the statutes in their own (机动车第三者责任强制保险,
解除劳动合同, 二倍的工资). A ``Cue`` pairs the words that show it in a query with the
statute's term for it: a fact about the law's vocabulary, not a list of article numbers. The
search (``statutes``) adds each term found as a line of its own, searched where the query's
other lines are (the cause's governing laws, or the whole corpus without a cause).
"""

from __future__ import annotations

from trials.tools.legal_terms import Cue, terms_shown, words

REMEDIES: tuple[Cue, ...] = (
    Cue("interest", words("利息", "利率"), "利息"),
    Cue("overdue interest", words("逾期利息", "逾期还款", "到期未还", "逾期未还"), "逾期利息"),
    Cue("penalty", words("违约金"), "违约金"),
    Cue("joint liability", words("连带"), "连带责任"),
    Cue("guarantee", words("保证人", "担保人", "连带保证"), "保证责任"),
    Cue(
        "compulsory insurance",
        words("交强险", "强制保险", "强制责任保险"),
        "机动车第三者责任强制保险 责任限额",
    ),
    Cue("liability insurance", words("三者险", "第三者责任险", "商业险", "责任保险"), "责任保险 第三者 赔偿保险金"),
    Cue("insurance money", words("保险金", "理赔", "保险事故"), "保险金 给付"),
    Cue("traffic accident", words("交通事故"), "交通事故 赔偿责任"),
    Cue("economic compensation", words("经济补偿", "补偿金"), "解除劳动合同 经济补偿"),
    Cue(
        "double wages",
        words("未签订书面劳动合同", "未签订劳动合同", "二倍工资", "双倍工资"),
        "未订立书面劳动合同 二倍工资",
    ),
    Cue("dismissal", words("解除劳动合同", "解除劳动关系", "辞退", "开除"), "解除劳动合同"),
    Cue("wages", words("工资", "劳动报酬", "加班费"), "劳动报酬"),
    Cue("arbitration time limit", words("仲裁时效", "超过仲裁", "申请仲裁的时效"), "劳动争议 仲裁时效"),
    Cue("bankruptcy", words("破产"), "破产 管理人"),
)


def remedy_terms(query: str) -> list[str]:
    """The statutes' terms for the remedies and disputed points ``query`` shows, in
    ``REMEDIES`` order."""
    return terms_shown(REMEDIES, query)
