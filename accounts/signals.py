"""``sign_ins_revoked``: a person's sign-ins may have ended without a sign-out.

Django ends a session at the next request once the password it was opened under changed
(the session auth hash) or the person was made inactive; whatever holds a sign-in longer than
a request (a trial room's socket) hears of it here and asks ``accounts.services.sign_in_holds``.
Sent after the change is committed, whoever made it: the password-change view, the
set-password link, the admin, ``set_password`` and ``save`` anywhere. A ``QuerySet.update``
sends no model signals and so nothing here; the sockets' check of every message still holds.

``rights_changed``: what a person may do may have narrowed without their sign-in ending: a
role taken (a group removed, in the admin, by ``role_revoke`` or ``grant_role --revoke``), the
superuser flag cleared, or a person taken off a course's instructors (any many-to-many
relation to people that loses rows: this app names no course). A trial room's socket re-reads
the person's rights on it (``trials.live.fanout``), as it does on every message.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save
from django.dispatch import Signal

sign_ins_revoked = Signal()
"""Sent with ``user_id`` after a person's password changed, they were made inactive or deleted."""

rights_changed = Signal()
"""Sent with ``user_id`` after a person's roles, superuser flag or instructorships changed."""

REVOKING_FIELDS = frozenset({"password", "is_active"})
WATCHED_FIELDS = REVOKING_FIELDS | {"is_superuser"}
PENDING = "_sign_ins_revoked"
"""Set on the instance by ``pre_save`` for its ``post_save``."""
RIGHTS_PENDING = "_rights_changed"
REMOVALS = frozenset({"post_remove", "post_clear"})


def _revoked_before_save(sender: Any, instance: Any, raw: bool = False, update_fields=None, **kwargs: Any) -> None:
    if raw or instance.pk is None or (update_fields is not None and not WATCHED_FIELDS & set(update_fields)):
        return
    stored = sender._default_manager.filter(pk=instance.pk).values("password", "is_active", "is_superuser").first()
    if stored is None:
        return
    if stored["password"] != instance.password or (stored["is_active"] and not instance.is_active):
        setattr(instance, PENDING, True)
    if stored["is_superuser"] and not instance.is_superuser:
        setattr(instance, RIGHTS_PENDING, True)


def _revoked_after_save(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.__dict__.pop(PENDING, False):
        revoke_on_commit(instance.pk)
    if instance.__dict__.pop(RIGHTS_PENDING, False):
        rights_changed_on_commit([instance.pk])


def _rights_by_relation(sender: Any, instance: Any, action: str, model: Any, pk_set: set | None, **kwargs: Any) -> None:
    """A many-to-many relation to people lost rows: a person's groups (their roles) or the
    people of a row (a course's instructors). Additions only widen rights and are not told.
    ``post_clear`` gives no ``pk_set``, so the people are read before the clear."""
    user_model = get_user_model()
    if isinstance(instance, user_model):
        if action in REMOVALS:
            rights_changed_on_commit([instance.pk])
    elif model is user_model:
        if action == "pre_clear":
            instance.__dict__[RIGHTS_PENDING] = _people_related(sender, instance)
        elif action in REMOVALS:
            cleared = instance.__dict__.pop(RIGHTS_PENDING, []) if action == "post_clear" else []
            rights_changed_on_commit([*(pk_set or ()), *cleared])


def _people_related(through: Any, instance: Any) -> list[int]:
    """The people ``instance`` is related to through the many-to-many table ``through``."""
    fields = [field for field in through._meta.fields if field.is_relation]
    to_user = next(field.attname for field in fields if field.related_model is get_user_model())
    to_row = next(field.name for field in fields if field.related_model is type(instance))
    return list(through._default_manager.filter(**{to_row: instance}).values_list(to_user, flat=True))


def _revoked_by_delete(sender: Any, instance: Any, **kwargs: Any) -> None:
    revoke_on_commit(instance.pk)


def revoke_on_commit(user_id: int) -> None:
    transaction.on_commit(lambda: sign_ins_revoked.send(sender=get_user_model(), user_id=user_id))


def rights_changed_on_commit(user_ids: list[int]) -> None:
    """After the commit, tell whatever holds a sign-in of these people to re-read their rights."""
    for user_id in dict.fromkeys(user_ids):
        transaction.on_commit(lambda user_id=user_id: rights_changed.send(sender=get_user_model(), user_id=user_id))


def connect() -> None:
    user_model = get_user_model()
    pre_save.connect(_revoked_before_save, sender=user_model, dispatch_uid="accounts.revoked_before_save")
    post_save.connect(_revoked_after_save, sender=user_model, dispatch_uid="accounts.revoked_after_save")
    post_delete.connect(_revoked_by_delete, sender=user_model, dispatch_uid="accounts.revoked_by_delete")
    m2m_changed.connect(_rights_by_relation, dispatch_uid="accounts.rights_by_relation")
