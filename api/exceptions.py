"""The API's one answer to a refused study rule, as ``annotation.middleware`` is the pages'."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from annotation.studies import StudyError


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "the request conflicts with the current state"
    default_code = "conflict"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus: a ``StudyError`` is 409 ``{"detail": message}``, never a 500."""
    if isinstance(exc, StudyError):
        exc = Conflict(str(exc))
    return drf_exception_handler(exc, context)
