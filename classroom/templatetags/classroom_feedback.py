"""The instructors' comments on a trial, shown on the transcript and scorecard pages.

Trials never imports classroom: its templates load this library and ask for the comments
of the trial they render; the reads are ``classroom.selectors.trial_feedback``. Showing the
comments to a student seated in the trial marks them read (the "Feedback" notice goes).
"""

from __future__ import annotations

from typing import Any

from django import template

from classroom.selectors import TrialFeedback, trial_feedback
from classroom.services import comments_read

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


@register.inclusion_tag("classroom/_feedback_summary.html")
def feedback_summary(feedback: TrialFeedback) -> dict[str, Any]:
    return {"feedback": feedback}
