"""Feedback on a transcript: an instructor's comments on turns (a passage quoted, if any),
the student's one reply, and the notice that goes once the student has seen them. A comment
belongs to the student who wrote the turn: in a paired trial both see every comment, and
each gets the notice for, and replies to, the comments on their own turns."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.models import TurnComment
from classroom.services import ClassroomError
from court.engine.state import TurnRecord
from trials.access import trial_overseer
from trials.models import Trial

COMMENT_MAX_CHARS = 10_000


def _comment_text(text: str, what: str) -> str:
    """``what`` is the field as people read it ("comment", "reply")."""
    text = text.strip()
    if not text:
        raise ClassroomError(_("%(field)s: write something") % {"field": what})
    if len(text) > COMMENT_MAX_CHARS:
        raise ClassroomError(_("%(field)s: at most %(limit)d characters") % {"field": what, "limit": COMMENT_MAX_CHARS})
    return text


def comment_add(
    *, trial: Trial, seq: int, text: str, author: AbstractBaseUser, excerpt: str = "", document: str = ""
) -> TurnComment:
    """An overseer's comment (an instructor of the trial's course, ``trial_overseer``) on the
    turn ``seq`` or, with ``document`` (a kind), on the document that turn filed; ``excerpt``,
    if given, is a passage of what is commented on (whitespace aside)."""
    if not trial_overseer(trial, author):
        raise PermissionError("only the instructors of the trial's course comment on it")
    state = trial.engine_state
    turn = next((turn for turn in state.turns if turn.seq == seq), None)
    if turn is None:
        raise ClassroomError(_("turn %(seq)d: the trial has no such turn") % {"seq": seq})
    commented = turn.text
    if document:
        filed = [a for a in state.artifacts if a.kind == document and state.filing_turn(a) == turn]
        if not filed:
            raise ClassroomError(_("document: turn %(seq)d filed no %(document)s") % {"seq": seq, "document": document})
        commented = filed[-1].text
    excerpt = excerpt.strip()
    if excerpt and _words(excerpt) not in _words(commented):
        if document:
            problem = _("excerpt: the %(document)s of turn %(seq)d does not contain this passage")
        else:
            problem = _("excerpt: turn %(seq)d does not contain this passage")
        raise ClassroomError(problem % {"document": document, "seq": seq})
    return TurnComment.objects.create(
        trial=trial,
        seq=seq,
        document=document,
        excerpt=excerpt,
        author=author,
        student=_turn_student(trial, turn),
        text=_comment_text(text, _("comment")),
    )


def _turn_student(trial: Trial, turn: TurnRecord) -> AbstractBaseUser | None:
    """Who wrote the turn: the person in its seat (or who handed it back since); None for an
    agent's turn, whose comments any student of the trial may answer."""
    if turn.author != "human":
        return None
    seat = trial.seats.select_related("user", "handed_back_by").filter(seat=turn.seat).first()
    return (seat.user or seat.handed_back_by) if seat is not None else None


def _words(text: str) -> str:
    """``text`` with its runs of whitespace as single spaces: a passage selected in the page
    (where the browser folds line breaks) is found in the stored text."""
    return " ".join(text.split())


def comment_reply(*, comment: TurnComment, text: str, by: AbstractBaseUser) -> TurnComment:
    """The student's one reply: the student whose turn was commented on (anyone seated in
    the trial, for an agent's turn) answers once; a second reply is refused, and so is the
    partner's in a paired trial."""
    if not comment.trial.seats.filter(user=by).exists():
        raise PermissionError("only the students of the trial reply to its comments")
    if comment.student_id is not None and comment.student_id != by.pk:
        raise ClassroomError(
            _("this comment is on %(username)s’s turn: only they reply to it")
            % {"username": comment.student.get_username()}
        )
    text = _comment_text(text, _("reply"))
    with transaction.atomic():
        locked = TurnComment.objects.select_for_update().get(pk=comment.pk)
        if locked.replied_at is not None:
            raise ClassroomError(_("you have replied to this comment already: one reply per comment"))
        now = timezone.now()
        locked.reply, locked.replied_by, locked.replied_at = text, by, now
        locked.read_at = locked.read_at or now
        locked.save(update_fields=["reply", "replied_by", "replied_at", "read_at"])
    return locked


def comments_read(*, user: AbstractBaseUser, comments: list[TurnComment]) -> int:
    """Mark the comments a student has now seen as read (the notice goes): those on their own
    turns and on agents' turns of their trials; a partner's comments stay theirs to read."""
    unread = [comment.pk for comment in comments if comment.read_at is None and comment.student_id in (None, user.pk)]
    if not unread:
        return 0
    return (
        TurnComment.objects.filter(pk__in=unread, read_at__isnull=True, trial__seats__user=user)
        .filter(Q(student=user) | Q(student__isnull=True))
        .update(read_at=timezone.now())
    )
