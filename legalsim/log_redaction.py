"""A logging filter that keeps secrets out of log output, whoever logs them.

It replaces the values of the configured secrets (the LLM server's API key, Django's secret
key) and the credentials of ``Authorization``/``Token`` headers with ``[redacted]`` in the
message, its arguments and any traceback text. Prompts and completions are not logged at
all: the LLM client records token counts, never text, and the HTTP client libraries that would
log request bodies at DEBUG are held at WARNING (settings.LOGGING).
"""

from __future__ import annotations

import logging
import re

from django.conf import settings

REDACTED = "[redacted]"
_HEADER = re.compile(
    r"(?i)\b(authorization|x-api-key|api[-_]key)(['\"]?\s*[:=]\s*['\"]?)(bearer\s+|token\s+)?[^\s'\",}]+"
)
# A bearer or DRF token written out anywhere else: long and with a digit, unlike prose.
_TOKEN = re.compile(r"\b(Bearer|Token|bearer)\s+(?=[\w.~+/=-]*\d)[\w.~+/=-]{16,}")
_SECRET_SETTINGS = ("OPENAI_API_KEY", "SECRET_KEY")


def redact(text: str) -> str:
    for name in _SECRET_SETTINGS:
        value = getattr(settings, name, "")
        if value and len(value) >= 6:
            text = text.replace(value, REDACTED)
    text = _HEADER.sub(lambda match: f"{match[1]}{match[2]}{match[3] or ''}{REDACTED}", text)
    return _TOKEN.sub(lambda match: f"{match[1]} {REDACTED}", text)


class SecretRedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True
