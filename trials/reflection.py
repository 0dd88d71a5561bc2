"""Reflective Legal Skill (LegalWorld section 4.6): the notes a new trial of a cause is given.

The rules a candidate must meet live in ``agents.skill_notes``; a finished trial is
reflected on, with its scores, by ``scoring.reflection``."""

from __future__ import annotations

from agents import skill_notes as notes
from trials.models import Case, SkillNote


def cause_notes(case: Case) -> list[dict]:
    """The enabled notes of the case's cause of action and language, as a trial stores them."""
    kept = SkillNote.objects.filter(cause_of_action=case.cause_of_action, language=case.language, enabled=True)
    return [note_value(note).as_dict() for note in kept]


def note_value(note: SkillNote) -> notes.SkillNote:
    return notes.SkillNote(
        id=note.pk,
        role=note.role,
        stages=tuple(note.stages),
        trigger=note.trigger,
        principle=note.principle,
        expected_output=note.expected_output,
        source_case=note.source_case,
    )
