"""The API's request parsers: DRF's own, with the site's text rule (``legalsim.text_input``)
applied to everything they decode. DRF's ``CharField`` already refuses NUL and lone
surrogates in the values it validates; this also covers dictionary keys (``answers`` is keyed
by item id), fields a serializer ignores and bodies of PUT and PATCH requests, which Django's
own form parsing (and so ``TextInputMiddleware``) never sees. A refused body is a 400
``{"detail": "FIELD: contains ..."}`` before any view runs. A JSON body nested deeper than
``legalsim.json_input.MAX_DEPTH`` is a 400 too, found by one pass over its brackets before the
recursive parser could run out of stack (a 500 for anyone, signed in or not)."""

from __future__ import annotations

import io
from typing import Any

from django.http import QueryDict
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from legalsim.json_input import MAX_DEPTH, nested_too_deep
from legalsim.text_input import json_problem


def _checked(data: Any) -> Any:
    """``data`` as parsed, or ``ParseError`` naming the first text that breaks the rule."""
    values = data.data if isinstance(data, parsers.DataAndFiles) else data
    if isinstance(values, QueryDict):
        values = dict(values.lists())
    problem = json_problem(values)
    if problem is None and isinstance(data, parsers.DataAndFiles):
        problem = json_problem({name: [upload.name for upload in files] for name, files in data.files.lists()})
    if problem:
        raise ParseError(problem)
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        body = stream.read()
        if nested_too_deep(body.decode("utf-8", errors="replace")):
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels")
        return _checked(super().parse(io.BytesIO(body), media_type, parser_context))


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        return _checked(super().parse(stream, media_type, parser_context))


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        return _checked(super().parse(stream, media_type, parser_context))
