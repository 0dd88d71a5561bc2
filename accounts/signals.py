"""``sign_ins_revoked``: a person's sign-ins may have ended without a sign-out.

Django ends a session at the next request once the password it was opened under changed
(the session auth hash) or the person was made inactive; whatever holds a sign-in longer than
a request (a trial room's socket) hears of it here and asks ``accounts.services.sign_in_holds``.
Sent after the change is committed, whoever made it: the password-change view, the
set-password link, the admin, ``set_password`` and ``save`` anywhere. A ``QuerySet.update``
sends no model signals and so nothing here; the sockets' check of every message still holds.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import Signal

sign_ins_revoked = Signal()
"""Sent with ``user_id`` after a person's password changed, they were made inactive or deleted."""

REVOKING_FIELDS = frozenset({"password", "is_active"})
PENDING = "_sign_ins_revoked"
"""Set on the instance by ``pre_save`` for its ``post_save``."""


def _revoked_before_save(sender: Any, instance: Any, raw: bool = False, update_fields=None, **kwargs: Any) -> None:
    if raw or instance.pk is None or (update_fields is not None and not REVOKING_FIELDS & set(update_fields)):
        return
    stored = sender._default_manager.filter(pk=instance.pk).values("password", "is_active").first()
    if stored is not None and (
        stored["password"] != instance.password or (stored["is_active"] and not instance.is_active)
    ):
        setattr(instance, PENDING, True)


def _revoked_after_save(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.__dict__.pop(PENDING, False):
        revoke_on_commit(instance.pk)


def _revoked_by_delete(sender: Any, instance: Any, **kwargs: Any) -> None:
    revoke_on_commit(instance.pk)


def revoke_on_commit(user_id: int) -> None:
    transaction.on_commit(lambda: sign_ins_revoked.send(sender=get_user_model(), user_id=user_id))


def connect() -> None:
    user_model = get_user_model()
    pre_save.connect(_revoked_before_save, sender=user_model, dispatch_uid="accounts.revoked_before_save")
    post_save.connect(_revoked_after_save, sender=user_model, dispatch_uid="accounts.revoked_after_save")
    post_delete.connect(_revoked_by_delete, sender=user_model, dispatch_uid="accounts.revoked_by_delete")
