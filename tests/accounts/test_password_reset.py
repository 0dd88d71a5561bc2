"""The password-reset page promises a link only when one can be sent (issue 31): with no
e-mail set up, or a mail server that cannot be reached, it says so and whom to ask."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from django.test import override_settings
from django.urls import reverse

from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
SMTP = "django.core.mail.backends.smtp.EmailBackend"
NOT_SET_UP = "This site has no e-mail set up, so it cannot send you a link."
NOT_SENT = "The e-mail could not be sent: this site&#x27;s mail server cannot be reached."
ASK = "your instructor or an administrator of this site for a link to set a new password."
SENT = "Check your e-mail"


@pytest.fixture
def student():
    user = person("liming", Role.STUDENT)
    user.email = "liming@example.edu"
    user.save(update_fields=["email"])
    return user


def hanging_up_server() -> Iterator[int]:
    """A loopback SMTP server that accepts every connection and closes it at once."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _address = listener.accept()
            except OSError:
                return
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    listener.close()
    thread.join(timeout=5)


def closed_port() -> Iterator[int]:
    """A loopback port nothing listens on: the connection is refused."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    yield port


@pytest.fixture(params=[hanging_up_server, closed_port], ids=["server-hangs-up", "port-closed"])
def refusing_smtp(request) -> Iterator[None]:
    ports = request.param()
    with override_settings(EMAIL_BACKEND=SMTP, EMAIL_HOST="127.0.0.1", EMAIL_PORT=next(ports), EMAIL_TIMEOUT=5):
        yield
    next(ports, None)


@pytest.mark.parametrize("settings_given", [{}, {"EMAIL_HOST": ""}], ids=["embedded-defaults", "empty-host"])
def test_with_no_email_set_up_the_page_says_so_instead_of_promising_a_link(client, student, settings_given, mailoutbox):
    with override_settings(EMAIL_BACKEND=SMTP, **settings_given):
        page = client.get(reverse("password_reset"))
        response = client.post(reverse("password_reset"), {"email": student.email}, follow=True)
    assert NOT_SET_UP in page.content.decode() and ASK in page.content.decode()
    assert 'name="email"' not in page.content.decode(), "no address is asked for that cannot be used"
    text = response.content.decode()
    assert response.status_code == 503 and NOT_SET_UP in text and ASK in text and SENT not in text
    assert mailoutbox == []


@pytest.mark.parametrize("address", ["liming@example.edu", "nobody@example.edu"], ids=["account", "no-account"])
def test_a_mail_server_that_refuses_is_reported_alike_for_every_address(client, student, refusing_smtp, address):
    """Whether an account has the address stays unsaid: the server is reached before anything is sent."""
    page = client.get(reverse("password_reset")).content.decode()
    assert NOT_SET_UP not in page and 'name="email"' in page
    response = client.post(reverse("password_reset"), {"email": address}, follow=True)
    text = response.content.decode()
    assert response.status_code == 503 and NOT_SENT in text and ASK in text and SENT not in text
    assert 'name="email"' in text, "the form stays, to try again later"
