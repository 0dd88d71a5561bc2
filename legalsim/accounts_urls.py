"""Django's account pages, with the password forms throttled (legalsim/login_throttle.py),
every form checking the site's text rule beside its fields (legalsim/text_input.py), and the
password-reset page saying so when no e-mail can be sent (legalsim/mail.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import urls as auth_urls
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.views import LoginView, PasswordResetConfirmView, PasswordResetView
from django.http import HttpResponse
from django.urls import path

from legalsim.login_throttle import (
    ThrottledAuthenticationForm,
    ThrottledPasswordChangeForm,
    ThrottledPasswordChangeView,
)
from legalsim.mail import mail_configured, mail_not_configured_problem, mail_problem
from legalsim.text_input import TextCheckedForm, form_checks_text


class TextCheckedPasswordResetForm(TextCheckedForm, PasswordResetForm):
    pass


class TextCheckedSetPasswordForm(TextCheckedForm, SetPasswordForm):
    pass


class MailCheckedPasswordResetView(PasswordResetView):
    """Django's page, which says a link is on its way even when none can be sent: here the
    page says that e-mail is not set up (without asking for an address), and a request the
    mail server cannot take is answered 503 with the reason and whom to ask."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = {"mail_set_up": mail_configured(), "mail_problem": mail_not_configured_problem()}
        return context | super().get_context_data(**kwargs)

    def form_valid(self, form: TextCheckedPasswordResetForm) -> HttpResponse:
        if problem := mail_problem():
            return self.render_to_response(self.get_context_data(form=form, mail_problem=problem), status=503)
        return super().form_valid(form)


OWN = {
    "login": form_checks_text(
        LoginView.as_view(authentication_form=ThrottledAuthenticationForm), ThrottledAuthenticationForm
    ),
    "password_change": form_checks_text(ThrottledPasswordChangeView.as_view(), ThrottledPasswordChangeForm),
    "password_reset": form_checks_text(
        MailCheckedPasswordResetView.as_view(form_class=TextCheckedPasswordResetForm), TextCheckedPasswordResetForm
    ),
    "password_reset_confirm": form_checks_text(
        PasswordResetConfirmView.as_view(form_class=TextCheckedSetPasswordForm), TextCheckedSetPasswordForm
    ),
}
urlpatterns = [
    path(str(pattern.pattern), OWN.get(pattern.name, pattern.callback), name=pattern.name)
    for pattern in auth_urls.urlpatterns
]
