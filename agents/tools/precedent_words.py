"""The words precedent search (``agents/tools/precedents.py``) counts: Chinese cut by jieba in
search mode, English stemmed lightly and filed under the Chinese terms judgments use for it
(``GLOSSARY``), so a library that mixes Chinese and English cases is one index; no stop words,
dates, sums or counts.
"""

from __future__ import annotations

import re
import unicodedata

import jieba

CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[a-z]+")
QUANTITY = re.compile(
    r"[0-9０-９][0-9０-９.,，:：%]*(?:万元|元|年|个月|月|日|时|分|周岁|岁|天|号|平方米|mg/100ml)?"
    r"|[一二三四五六七八九十百千万]+(?:万元|元|个月|周岁)"
)
GENERIC_ZH = frozenset(
    "原告 被告 被告人 被害人 公诉机关 本院 法院 人民法院 判令 本案 诉称 辩称 诉至 认为 是否 能否 应当 "
    "某某 其中 以及 并且 但是 因为 所以 之后 以后 当日 当天 期间 左右 经过 其他 没有 已经 可以 进行 "
    "要求 请求 提出 表示 一审 二审 判决 案件 纠纷 责任 争议".split()
)
"""Words every case uses (the parties' labels, the court's verbs, the generic part of a cause's
name), which say nothing about which case is like which."""
STOP_EN = frozenset(
    "the and for that with this was were are has have had not but from his her its their they them "
    "which who whom whose into onto upon than then there these those such also any all each other "
    "plaintiff defendant court case dispute liability claim shall would could should may might must "
    "been being after before between under over about against within without per out off one two "
    "three four five six seven eight nine ten rmb yuan year month day time said did does".split()
)
GLOSSARY: dict[str, tuple[str, ...]] = {
    "fraud": ("诈骗",),
    "defraud": ("诈骗",),
    "scam": ("诈骗",),
    "telecom": ("电信",),
    "theft": ("盗窃",),
    "steal": ("盗窃",),
    "stole": ("盗窃",),
    "robbery": ("抢劫",),
    "rob": ("抢劫",),
    "embezzle": ("侵占",),
    "embezzlement": ("侵占",),
    "bribe": ("受贿", "行贿"),
    "bribery": ("受贿", "行贿"),
    "gambl": ("赌博", "赌场"),
    "casino": ("赌场",),
    "drug": ("毒品",),
    "injury": ("伤害", "受伤"),
    "injur": ("伤害", "受伤"),
    "assault": ("伤害", "殴打"),
    "beat": ("殴打",),
    "drunk": ("醉酒",),
    "alcohol": ("醉酒", "酒精"),
    "drive": ("驾驶",),
    "driv": ("驾驶",),
    "driver": ("驾驶",),
    "vehicle": ("机动车", "车辆"),
    "car": ("机动车", "车辆"),
    "traffic": ("交通",),
    "accident": ("事故",),
    "collision": ("碰撞", "事故"),
    "pedestrian": ("行人",),
    "insurance": ("保险",),
    "insurer": ("保险",),
    "hospital": ("医院", "住院"),
    "medical": ("医疗",),
    "disability": ("伤残",),
    "lease": ("租赁",),
    "leas": ("租赁",),
    "tenant": ("承租人", "租赁"),
    "landlord": ("出租人", "租赁"),
    "rent": ("租金", "租赁"),
    "rental": ("租金", "租赁"),
    "premis": ("房屋",),
    "house": ("房屋",),
    "deposit": ("押金", "定金"),
    "loan": ("借款", "借贷"),
    "lend": ("借款", "借贷"),
    "lent": ("借款", "借贷"),
    "borrow": ("借款", "借贷"),
    "iou": ("借条",),
    "interest": ("利息",),
    "repay": ("归还", "还款"),
    "repaid": ("归还", "还款"),
    "repayment": ("归还", "还款"),
    "debt": ("债务",),
    "guarantee": ("保证", "担保"),
    "guarantor": ("保证人", "担保"),
    "contract": ("合同",),
    "breach": ("违约",),
    "terminat": ("解除",),
    "goods": ("货物",),
    "sale": ("买卖",),
    "sell": ("买卖", "出卖人"),
    "seller": ("出卖人", "买卖"),
    "buyer": ("买受人", "买卖"),
    "purchase": ("买卖", "购买"),
    "price": ("价款", "货款"),
    "wage": ("工资", "劳动报酬"),
    "salary": ("工资", "劳动报酬"),
    "employer": ("用人单位", "劳动"),
    "employee": ("劳动者", "劳动"),
    "employment": ("劳动",),
    "labour": ("劳动",),
    "labor": ("劳动",),
    "overtime": ("加班",),
    "dismiss": ("解除", "辞退"),
    "dismissal": ("解除", "辞退"),
    "compensation": ("赔偿", "补偿"),
    "damag": ("赔偿", "损失"),
    "loss": ("损失",),
    "divorce": ("离婚",),
    "marriage": ("婚姻", "结婚"),
    "spous": ("夫妻",),
    "husband": ("夫妻",),
    "wife": ("夫妻",),
    "property": ("财产",),
    "inherit": ("继承",),
    "inheritance": ("继承", "遗产"),
    "estate": ("遗产",),
    "heir": ("继承人",),
    "child": ("子女",),
    "support": ("抚养", "赡养"),
    "defamation": ("名誉",),
    "reputation": ("名誉",),
    "construction": ("施工", "工程"),
    "renovat": ("装饰装修", "装修"),
    "renovation": ("装饰装修", "装修"),
    "decoration": ("装饰装修", "装修"),
    "repair": ("维修", "修理"),
    "defect": ("质量", "瑕疵"),
    "defective": ("质量", "瑕疵"),
    "liquidated": ("违约金",),
    "overdue": ("逾期",),
    "neighbour": ("相邻",),
    "neighbor": ("相邻",),
    "leak": ("漏水",),
    "animal": ("动物",),
    "dog": ("动物", "犬只"),
    "bank": ("银行",),
    "card": ("银行卡",),
    "account": ("账户",),
    "confess": ("供述", "坦白"),
    "confession": ("供述", "坦白"),
    "surrender": ("自首",),
    "forgiv": ("谅解",),
    "forgiveness": ("谅解",),
    "restitution": ("退赔", "退赃"),
    "probation": ("缓刑",),
    "imprisonment": ("有期徒刑",),
    "detention": ("拘役",),
    "fine": ("罚金",),
    "accessory": ("从犯",),
    "accomplice": ("共同犯罪",),
}
"""English legal words (stems, ``_stem``) with the Chinese terms judgments use for them: general
legal vocabulary, one line per concept, written for a library that mixes Chinese and English
cases (the demo library's English cases are heard in Chinese courts), not per case."""


def _stem(word: str) -> str:
    """A light English stemmer: plurals and the -ing/-ed forms (rented, renting -> rent)."""
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(("ss", "us", "is")):
            return word[: -len(suffix)] + keep
    return word


_GLOSSARY = {_stem(word): terms for word, terms in GLOSSARY.items()}


def clean(text: str) -> str:
    """``text`` without control characters (NUL included), NFKC-normalised (full-width letters
    and digits become ordinary ones)."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(" " if unicodedata.category(char)[0] == "C" else char for char in text)


def tokens(text: str) -> list[str]:
    """The words of ``text`` the index counts: Chinese words of two characters or more (jieba's
    search mode: 诈骗罪 also as 诈骗),
    English stems of three letters or more with their ``GLOSSARY`` terms; no stop words, dates,
    sums or counts."""
    words: list[str] = []
    for piece in jieba.lcut_for_search(QUANTITY.sub(" ", clean(text).lower())):
        if CJK.search(piece):
            if len(piece) >= 2 and piece not in GENERIC_ZH:
                words.append(piece)
            continue
        for latin in LATIN_WORD.findall(piece):
            stem = _stem(latin)
            if len(stem) >= 3 and latin not in STOP_EN and stem not in STOP_EN:
                words.append(stem)
                words.extend(_GLOSSARY.get(stem, ()))
    return words
