"""Shared by the browser tests: Debian's chromium through Playwright."""

from __future__ import annotations

import os
import shutil

CHROMIUM = shutil.which("chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def chromium_start():
    """(playwright, browser); stop both with ``browser.close(); playwright.stop()``."""
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    return playwright, playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def page_logged_in(browser, base_url: str, username: str, password: str, *, timeout_ms: int = 60_000):
    """A new page, logged in through Django's standard login form."""
    page = browser.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    return page


class WithChromium:
    """For a live-server test case (put it first among the bases): one chromium for the
    class's tests. Playwright's sync API keeps an event loop in the test's thread, where the
    ORM calls are still synchronous (Django's documented setting for Playwright tests)."""

    @classmethod
    def setUpClass(cls) -> None:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        super().setUpClass()
        cls.playwright, cls.browser = chromium_start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.browser.close()
        cls.playwright.stop()
        super().tearDownClass()
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
