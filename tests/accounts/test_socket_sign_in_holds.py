"""Whether a sign-in still holds (``accounts.services.sign_in_holds``, which every trial socket
asks) and when ``accounts.signals.sign_ins_revoked`` is sent (issue #31 item 3)."""

from __future__ import annotations

import pytest

from accounts.services import sign_in_holds
from accounts.signals import sign_ins_revoked
from legalsim.roles import Role
from tests.servers import session_key_for
from tests.users import person

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "an-old-pass-phrase-3"


def test_a_session_opened_under_the_old_password_or_of_an_inactive_person_no_longer_holds():
    user = person("paula", Role.STUDENT, password=PASSWORD)
    key = session_key_for(user)
    assert sign_in_holds(user_id=user.pk, session_key=key)
    assert not sign_in_holds(user_id=user.pk, session_key="no-such-session")
    user.set_password("a-new-pass-phrase-7")
    user.save()
    assert not sign_in_holds(user_id=user.pk, session_key=key)
    fresh = session_key_for(user)
    assert sign_in_holds(user_id=user.pk, session_key=fresh)
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert not sign_in_holds(user_id=user.pk, session_key=fresh)
    assert not sign_in_holds(user_id=user.pk, session_key=None), "a token socket: the person must be active"


def test_another_persons_session_is_no_sign_in_of_theirs():
    """A token socket that also carried someone else's cookie is judged by the token's person."""
    paula, other = person("paula", Role.STUDENT), person("olga", Role.STUDENT)
    assert sign_in_holds(user_id=paula.pk, session_key=session_key_for(other))


@pytest.fixture
def revoked() -> list[int]:
    heard: list[int] = []

    def hear(sender, user_id: int, **kwargs) -> None:
        heard.append(user_id)

    sign_ins_revoked.connect(hear, dispatch_uid="test.revoked")
    yield heard
    sign_ins_revoked.disconnect(dispatch_uid="test.revoked")


def test_sign_ins_are_revoked_when_the_password_or_the_active_flag_changes(revoked):
    user = person("paula", Role.STUDENT, password=PASSWORD)
    revoked.clear()  # ``person`` set the first password
    session_key_for(user)  # a sign-in saves last_login
    user.first_name = "Paula"
    user.save()
    assert revoked == [], "nothing of the sign-in changed"
    user.set_password("a-new-pass-phrase-7")
    user.save()
    user.is_active = False
    user.save(update_fields=["is_active"])
    user.is_active = True
    user.save()
    assert revoked == [user.pk, user.pk], "a password changed, a person made inactive (not made active again)"
    user_id = user.pk
    user.delete()
    assert revoked == [user_id] * 3
