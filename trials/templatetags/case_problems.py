"""The problems of a case file as the authoring pages show them (``trials.caselibrary.authoring``):
``{{ problem|problem_shown }}``."""

from __future__ import annotations

from django import template

from trials.caselibrary.authoring import problem_shown

register = template.Library()
register.filter("problem_shown", problem_shown)
