"""The fast token estimate (court/engine/tokens.py) gives the numbers of the estimate as it
was first written, a character at a time (kept here as the reference), so switching a caller
over changes no count."""

from __future__ import annotations

import json
import random

from court.engine.tokens import estimate_tokens
from tests.conftest import DEMO_CASES


def reference(text: str) -> int:
    cjk = sum(1 for char in text if "\u3400" <= char <= "\u9fff")
    words = len("".join(" " if "\u3400" <= char <= "\u9fff" else char for char in text).split())
    return cjk + (words * 4 + 2) // 3


EDGES = [
    "",
    " ",
    "word",
    "中文",
    "中文words 和 more",
    "a\u3000b",
    "x\x1cy\x1dz\x1e\x1fw",
    "\u0085a\u00a0b\u2028c",
    "\u33ff\u3400\u9fff\ua000",
]


def test_the_estimate_counts_as_the_reference_on_the_demo_cases_and_on_mixed_text():
    texts = [*EDGES, *(path.read_text(encoding="utf-8") for path in sorted(DEMO_CASES.glob("*.json")))]
    for path in sorted(DEMO_CASES.glob("*.json")):
        texts += [value for value in json.loads(path.read_text(encoding="utf-8")).values() if isinstance(value, str)]
    alphabet = "ab1 ,.中文。\t\n\r\u3000\u00a0\u2028\x1c\u0085\u33ff\u3400\u9fff\ua000🙂"
    rng = random.Random(35)
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(5000)]
    assert [estimate_tokens(text) for text in texts] == [reference(text) for text in texts]
    assert estimate_tokens("中文 two words") == 2 + 3
