"""The instructors' comments on a trial, shown on the transcript and scorecard pages.

Trials never imports classroom: its templates load this library and ask for the comments
of the trial they render; the reads are ``classroom.selectors.trial_feedback``. Showing the
comments to a student seated in the trial marks them read (the "Feedback" notice goes).
"""

from __future__ import annotations

from typing import Any

from django import template

from classroom.feedback import comments_read
from classroom.selectors import TrialFeedback, trial_feedback

register = template.Library()


@register.simple_tag(takes_context=True)
def trial_comments(context: dict[str, Any], trial) -> TrialFeedback:
    user = context["request"].user
    feedback = trial_feedback(trial=trial, user=user)
    if feedback.can_reply:
        comments_read(user=user, comments=feedback.comments)
    return feedback


@register.inclusion_tag("classroom/_turn_comments.html", takes_context=True)
def turn_comments(context: dict[str, Any], feedback: TrialFeedback, turn) -> dict[str, Any]:
    return {
        "feedback": feedback,
        "turn": turn,
        "comments": feedback.on_turn(turn.seq),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("classroom/_turn_comments.html", takes_context=True)
def document_comments(context: dict[str, Any], feedback: TrialFeedback, artifact) -> dict[str, Any]:
    """The comments on a document, kept with the turn that filed it (none for a document
    recorded without a turn)."""
    turn = feedback.state.filing_turn(artifact)
    return {
        "feedback": feedback,
        "turn": turn,
        "document": artifact.kind,
        "comments": feedback.on_document(turn.seq, artifact.kind) if turn else [],
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("classroom/_feedback_summary.html")
def feedback_summary(feedback: TrialFeedback) -> dict[str, Any]:
    return {"feedback": feedback}
