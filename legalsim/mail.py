"""Whether this site can send e-mail, asked before a page promises that a message is on its way.

Django's password-reset form logs a failed send and carries on, so its page said "check your
e-mail" on a site with no mail server at all (Django's defaults: SMTP to localhost:25). E-mail
counts as set up when the settings chose a backend other than SMTP (console, file, a
provider's) or give an ``EMAIL_HOST``; an SMTP server that is set up is then reached (connect,
TLS, log in) before anything is sent, for every address asked about, so whether an account
has that address stays unsaid. A server that accepts the connection and then refuses one
message is still only logged (by Django), for the same reason.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import get_connection
from django.utils.translation import gettext as _

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
logger = logging.getLogger(__name__)


def mail_configured() -> bool:
    """False on the embedded defaults: the SMTP backend and no ``EMAIL_HOST`` of the site's own."""
    if settings.EMAIL_BACKEND != SMTP_BACKEND:
        return True
    return settings.is_overridden("EMAIL_HOST") and bool(settings.EMAIL_HOST)


def mail_not_configured_problem() -> str | None:
    """What a page asking for an e-mail address should say when none can be sent, or None."""
    if mail_configured():
        return None
    return _(
        "This site has no e-mail set up, so it cannot send you a link. Ask your instructor or an "
        "administrator of this site for a link to set a new password."
    )


def mail_problem() -> str | None:
    """Why no e-mail can be sent now (not set up, or the mail server cannot be reached), or None."""
    if problem := mail_not_configured_problem():
        return problem
    try:
        with get_connection(fail_silently=False):
            pass
    except OSError:  # smtplib's errors, refused connections and timeouts all are
        logger.exception("the mail server %s:%s cannot be reached", settings.EMAIL_HOST, settings.EMAIL_PORT)
        return _(
            "The e-mail could not be sent: this site's mail server cannot be reached. Try again later, or "
            "ask your instructor or an administrator of this site for a link to set a new password."
        )
    return None
