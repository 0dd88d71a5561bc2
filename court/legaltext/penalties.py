"""The principal penalties of the Criminal Law of the PRC, as a case file names them, and the
statutory brackets of the charges the library's cases bring: the case file validates a
sentence against them, the judgment reader reads one, the scripted court sentences within
them and ``scoring.prediction`` decides a hit by them."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

PENALTIES = (
    "fixed_term", "criminal_detention", "public_surveillance", "life_imprisonment", "death_suspended", "death",
    "exempt", "acquitted",
)  # fmt: skip
"""``sentence.penalty``: 有期徒刑 (the default), 拘役, 管制, 无期徒刑, 死刑缓期二年执行, 死刑, 免予刑事处罚, 无罪."""
TERM_PENALTIES = frozenset({"fixed_term", "criminal_detention", "public_surveillance"})
"""The penalties measured in months; the others have no term (``imprisonment_months`` null)."""
NON_NUMERIC_PENALTIES = frozenset({"life_imprisonment", "death_suspended", "death"})

Bracket = tuple[int, int]
LIFE_OR_DEATH_MONTHS = 1000

# Statutory brackets of the Criminal Law of the PRC in months, bounds inclusive (以上/以下
# include the number). A fixed term tops out at 15 years (180 months); a tier that reaches
# life imprisonment or death tops out at LIFE_OR_DEATH_MONTHS.
_TO_LIFE: tuple[Bracket, ...] = ((0, 36), (36, 120), (120, LIFE_OR_DEATH_MONTHS))
_CHARGES: tuple[tuple[tuple[str, ...], tuple[Bracket, ...]], ...] = (
    (("危险驾驶罪", "dangerous driving"), ((1, 6),)),  # art. 133-1: criminal detention
    (("诈骗罪", "fraud"), _TO_LIFE),  # art. 266
    (("盗窃罪", "theft"), _TO_LIFE),  # art. 264
    (("故意伤害罪", "intentional injury"), _TO_LIFE),  # art. 234
    (("交通肇事罪", "traffic accident", "causing a traffic accident"), ((0, 36), (36, 84), (84, 180))),  # art. 133
    (
        ("贩卖毒品罪", "走私、贩卖、运输、制造毒品罪", "drug trafficking"),
        ((0, 36), (36, 84), (84, 180), (180, LIFE_OR_DEATH_MONTHS)),
    ),  # art. 347
    (("抢劫罪", "robbery"), ((36, 120), (120, LIFE_OR_DEATH_MONTHS))),  # art. 263
    (("寻衅滋事罪", "picking quarrels and provoking trouble"), ((0, 60), (60, 120))),  # art. 293
    (("非法持有枪支罪", "illegal possession of firearms"), ((0, 36), (36, 84))),  # art. 128
    (("信用卡诈骗罪", "credit card fraud"), ((0, 60), (60, 120), (120, LIFE_OR_DEATH_MONTHS))),  # art. 196
    (("贪污罪", "embezzlement"), _TO_LIFE),  # art. 383
    (("受贿罪", "bribery", "accepting bribes"), _TO_LIFE),  # art. 386 punished under art. 383
    (("赌博罪", "gambling"), ((0, 36),)),  # art. 303(1)
    (("开设赌场罪", "operating a gambling house"), ((0, 60), (60, 120))),  # art. 303(2)
    (("帮助信息网络犯罪活动罪", "assisting information network criminal activities"), ((0, 36),)),  # art. 287-2
    (("容留他人吸毒罪", "harbouring others to take drugs"), ((0, 36),)),  # art. 354
)
STATUTORY_RANGES: dict[str, tuple[Bracket, ...]] = {name: brackets for names, brackets in _CHARGES for name in names}


def charge_brackets(charges: Iterable[str]) -> tuple[Bracket, ...]:
    """The brackets ``STATUTORY_RANGES`` gives the charges (none for an unknown charge)."""
    index = _charge_index()
    return tuple(bracket for charge in charges for bracket in index.get(_charge_key(charge), ()))


@cache
def _charge_index() -> dict[str, tuple[Bracket, ...]]:
    return {_charge_key(name): brackets for name, brackets in STATUTORY_RANGES.items()}


def _charge_key(name: str) -> str:
    """诈骗罪 / 诈骗 / "Fraud" / "crime of fraud" → one key."""
    key = unicodedata.normalize("NFKC", name).strip().lower().removeprefix("the ").removeprefix("crime of ")
    return key.removesuffix("罪").strip()
