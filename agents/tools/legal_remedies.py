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

import re

from agents.tools.legal_terms import Cue, terms_shown, words


def both(context: str, *alternatives: str) -> re.Pattern[str]:
    """A query that speaks of ``context`` anywhere and of one of the ``alternatives``: the
    words alone belong to several fields (鉴定费 to any dispute, 清偿 to any debt)."""
    return re.compile(f"(?s)(?=.*(?:{context})).*(?:{'|'.join(alternatives)})")


LABOUR = "劳动|用人单位|入职|员工|职工"
"""A labour case's words, beside which a deposit or a pregnancy is the labour statutes' concern."""

REMEDIES: tuple[Cue, ...] = (
    Cue("interest", words("利息", "利率"), "利息"),
    Cue(
        "overdue interest",
        words("逾期利息", "逾期还款", "到期未还", "逾期未还", "未还本付息", "未归还借款", "拒不归还"),
        "逾期利息",
    ),
    Cue("penalty", words("违约金"), "违约金"),
    Cue(
        "performance", words("继续履行", "未按约交货", "未按约定履行"), "不履行合同义务 继续履行 采取补救措施 赔偿损失"
    ),
    Cue("joint liability", words("连带"), "连带责任"),
    Cue("guarantee", words("保证人", "担保人", "连带保证"), "保证责任"),
    Cue(
        "compulsory insurance",
        words("交强险", "强制保险", "强制责任保险"),
        "机动车第三者责任强制保险 责任限额",
    ),
    Cue(
        "liability insurance",
        re.compile("三者险|第三者责任险|商业险|责任保险|(?s:(?=.*交通事故).*保险公司)"),
        "责任保险 第三者 直接 赔偿保险金",
    ),
    Cue("insurance money", words("保险金", "理赔", "保险事故"), "保险金 给付"),
    Cue(
        "subrogation",
        both("保险", "代位"),
        "保险人自向被保险人赔偿保险金之日起 代位行使被保险人对第三者请求赔偿的权利",
    ),
    Cue(
        "appraisal costs",
        both("保险", "鉴定费", "评估费", "查勘费", "施救费"),
        "查明和确定保险事故的性质、原因和保险标的的损失程度 必要的、合理的费用 由保险人承担",
    ),
    Cue("traffic accident", words("交通事故"), "交通事故 赔偿责任"),
    Cue(
        "labour relation",
        words("确认.{0,8}劳动关系", "存在劳动关系", "不存在劳动关系"),
        "用人单位自用工之日起即与劳动者建立劳动关系",
    ),
    Cue("economic compensation", words("经济补偿", "补偿金"), "解除劳动合同 经济补偿"),
    Cue(
        "double wages",
        words("未签订书面劳动合同", "未签订劳动合同", "二倍工资", "双倍工资"),
        "未订立书面劳动合同 二倍工资",
    ),
    Cue(
        "written contract",
        words("(?:未|没有|从未|均未)(?:与.{0,12})?(?:签订|订立)过?(?:书面)?的?劳动合同"),
        "建立劳动关系，应当订立书面劳动合同",
    ),
    Cue("probation period", words("试用期"), "试用期 不得超过"),
    Cue("dismissal", words("解除劳动合同", "解除劳动关系", "辞退", "开除"), "解除劳动合同"),
    Cue(
        "agreed termination",
        words("协商一致", "协商解除", "辞职", "离职"),
        "用人单位与劳动者协商一致，可以解除劳动合同",
    ),
    Cue(
        "wages owed",
        words(
            "拖欠.{0,8}(?:工资|劳动报酬)",
            "(?:未|没有)(?:足额|按时|及时)?(?:支付|发放|结清).{0,10}(?:工资|劳动报酬)",
            "克扣",
            "欠发",
            "工资差额",
            "劳动报酬",
            "加班费",
        ),
        "及时足额支付劳动报酬",
    ),
    Cue("overtime", words("加班", "延长工作时间", "休息日", "节假日"), "延长工作时间 休息日 法定休假日 工资报酬"),
    Cue("annual leave", words("年休假", "带薪休假", "年假"), "带薪年休假"),
    Cue(
        "compensation computation",
        both("经济补偿|补偿金|赔偿金", "平均工资", "工作年限"),
        "经济补偿按劳动者在本单位工作的年限 每满一年支付一个月工资",
    ),
    Cue(
        "layoff",
        words("裁减人员", "裁员", "全体职工", "濒临破产", "生产经营.{0,6}严重困难"),
        "生产经营发生严重困难 裁减人员",
    ),
    Cue(
        "deposit from a worker",
        both(LABOUR, "保证金", "押金", "扣押.{0,8}(?:身份证|证件)"),
        "不得扣押劳动者的居民身份证和其他证件 不得要求劳动者提供担保或者以其他名义向劳动者收取财物",
    ),
    Cue("pregnancy", both(LABOUR, "怀孕", "孕期", "产假", "哺乳"), "女职工在孕期、产期、哺乳期的 不得解除劳动合同"),
    Cue("non-compete", words("竞业限制", "竞业禁止"), "竞业限制"),
    Cue("arbitration time limit", words("仲裁时效", "超过仲裁", "申请仲裁的时效"), "劳动争议 仲裁时效"),
    Cue("bankruptcy", words("破产"), "破产 管理人"),
    Cue(
        "bankruptcy claims",
        both("破产", "债权确认", "确认.{0,12}债权", "债权表", "申报.{0,8}债权"),
        "债权表 记载的债权 异议 受理破产申请的人民法院提起诉讼",
    ),
    Cue(
        "executory contracts",
        both("破产", "解除合同", "继续履行", "未履行完毕"),
        "管理人 均未履行完毕的合同 决定解除或者继续履行",
    ),
    Cue(
        "avoidance",
        both("破产", "个别清偿", "撤销", "清偿"),
        "受理破产申请前六个月内 个别债权人进行清偿 管理人有权请求人民法院予以撤销",
    ),
)


def remedy_terms(query: str) -> list[str]:
    """The statutes' terms for the remedies and disputed points ``query`` shows, in
    ``REMEDIES`` order."""
    return terms_shown(REMEDIES, query)
