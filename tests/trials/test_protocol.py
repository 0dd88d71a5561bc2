"""The websocket protocol's definitions (``trials.protocol``) and docs/protocol.md, which documents them."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from trials.protocol import (
    CLIENT_MESSAGES,
    SERVER_FRAMES,
    BadMessage,
    Control,
    ErrorCode,
    Objection,
    Resume,
    Say,
    client_message_parse,
)


def test_the_protocol_page_documents_every_frame_message_and_error_code():
    section = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    missing = [
        name for name in (*SERVER_FRAMES, *CLIENT_MESSAGES, *ErrorCode) if not re.search(rf"\b{name}\b", section)
    ]
    assert not missing, f"docs/protocol.md does not mention {missing}"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"type": "say", "text": "Hello", "client_id": "c1"}', Say("Hello", "c1")),
        ('{"type": "say", "text": "", "sections": {"facts": "x"}}', Say("", "", None, {"facts": "x"})),
        ('{"type": "say", "text": "Yes", "decision": "accept"}', Say("Yes", "", "accept")),
        ('{"type": "resume", "after_seq": 12}', Resume(12)),
        ('{"type": "resume", "after_seq": "12"}', Resume(12)),
        ('{"type": "resume"}', Resume(0)),
        (
            '{"type": "control", "action": "question", "seat": "judge", "text": "Why?"}',
            Control("question", "judge", "Why?"),
        ),
        ('{"type": "objection", "ground": "hearsay"}', Objection("hearsay")),
        ('{"type": "objection", "ground": "leading", "text": " The witness "}', Objection("leading", "The witness")),
        ('{"type": "objection", "ground": "other", "text": "Privilege"}', Objection("other", "Privilege")),
        ('{"type": "objection", "ground": "Relevance, plainly"}', Objection("other", "Relevance, plainly")),
    ],
)
def test_each_documented_message_is_read_into_its_type(raw, expected):
    assert client_message_parse(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "say", "text": "x", "decision": "maybe"}',
        '{"type": "say", "text": "x", "sections": {"facts": 3}}',
        '{"type": "resume", "after_seq": true}',
        '{"type": "resume", "after_seq": 1.5}',
        '{"type": "control"}',
        '{"type": "objection", "ground": ["a"]}',
        '{"type": "objection", "ground": "other"}',
        '{"type": "objection"}',
    ],
)
def test_a_field_of_the_wrong_kind_is_a_bad_message(raw):
    with pytest.raises(BadMessage):
        client_message_parse(raw)
