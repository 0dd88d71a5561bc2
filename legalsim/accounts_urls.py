"""Django's account pages, with the password forms throttled (legalsim/login_throttle.py) and
every form checking the site's text rule beside its fields (legalsim/text_input.py)."""

from __future__ import annotations

from django.contrib.auth import urls as auth_urls
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.views import LoginView, PasswordResetConfirmView, PasswordResetView
from django.urls import path

from legalsim.login_throttle import (
    ThrottledAuthenticationForm,
    ThrottledPasswordChangeForm,
    ThrottledPasswordChangeView,
)
from legalsim.text_input import TextCheckedForm, form_checks_text


class TextCheckedPasswordResetForm(TextCheckedForm, PasswordResetForm):
    pass


class TextCheckedSetPasswordForm(TextCheckedForm, SetPasswordForm):
    pass


OWN = {
    "login": form_checks_text(
        LoginView.as_view(authentication_form=ThrottledAuthenticationForm), ThrottledAuthenticationForm
    ),
    "password_change": form_checks_text(ThrottledPasswordChangeView.as_view(), ThrottledPasswordChangeForm),
    "password_reset": form_checks_text(
        PasswordResetView.as_view(form_class=TextCheckedPasswordResetForm), TextCheckedPasswordResetForm
    ),
    "password_reset_confirm": form_checks_text(
        PasswordResetConfirmView.as_view(form_class=TextCheckedSetPasswordForm), TextCheckedSetPasswordForm
    ),
}
urlpatterns = [
    path(str(pattern.pattern), OWN.get(pattern.name, pattern.callback), name=pattern.name)
    for pattern in auth_urls.urlpatterns
]
