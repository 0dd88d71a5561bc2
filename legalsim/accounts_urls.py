"""Django's account pages, with the password forms throttled (legalsim/login_throttle.py)."""

from __future__ import annotations

from django.contrib.auth import urls as auth_urls
from django.contrib.auth.views import LoginView
from django.urls import path

from legalsim.login_throttle import ThrottledAuthenticationForm, ThrottledPasswordChangeView

urlpatterns = [
    path("login/", LoginView.as_view(authentication_form=ThrottledAuthenticationForm), name="login"),
    path("password_change/", ThrottledPasswordChangeView.as_view(), name="password_change"),
    *(pattern for pattern in auth_urls.urlpatterns if pattern.name not in ("login", "password_change")),
]
