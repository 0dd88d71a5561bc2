"""Shared by the browser tests: Debian's chromium through Playwright."""

from __future__ import annotations

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
