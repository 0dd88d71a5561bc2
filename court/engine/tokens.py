"""The tokenizer-free token estimate, in C rather than a character at a time in Python.

``estimate_tokens`` counts one token per CJK character (U+3400 to U+9FFF) and 4/3 per other
word, a word being a run of characters between whitespace and CJK characters. It is asked of
every reply and every prompt.
"""

from __future__ import annotations

import re

_CJK = re.compile("[\u3400-\u9fff]")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: one token per CJK character, 4/3 per other word."""
    if text.isascii():
        return (len(text.split()) * 4 + 2) // 3
    cjk = len(_CJK.findall(text))
    words = len(_CJK.sub(" ", text).split()) if cjk else len(text.split())
    return cjk + (words * 4 + 2) // 3
