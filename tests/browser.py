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
    """A new page, logged in through Django's standard login form; ``browser`` may be a
    browser context (a phone's viewport, a locale)."""
    page = browser.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")  # the header's language switch has buttons too
    page.wait_for_load_state()
    return page


def trial_started(page, base_url: str, case_id: str, seat: str, stage: str) -> None:
    """Start a trial from the case page with ``seat`` the only seat ticked, from ``stage``;
    return once the room's socket is live."""
    page.goto(f"{base_url}/cases/{case_id}/")
    page.locator("input[name=seats]:checked").uncheck()
    page.check(f"input[value={seat}]")
    page.select_option("select[name=stage]", stage)
    page.click("text=Start the trial")
    page.wait_for_selector("#connection:has-text('live')")


SCREENSHOTS = os.environ.get("LEGALSIM_SCREENSHOTS", "")
"""Where the browser tests write their screenshots (none when unset)."""
PHONE = {"width": 390, "height": 844}
"""Playwright's iPhone 12-14 viewport."""


def screenshot(page, name: str, *, phone: bool = False) -> None:
    """``name``.png (and ``name``-phone.png at 390 px wide) in LEGALSIM_SCREENSHOTS, if set."""
    if not SCREENSHOTS:
        return
    os.makedirs(SCREENSHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)
    if phone:
        desktop = page.viewport_size
        page.set_viewport_size(PHONE)
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}-phone.png"), full_page=True)
        page.set_viewport_size(desktop)


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


class LiveRoomServer:
    """For a ``ChannelsLiveServerTestCase`` (after ``WithChromium`` among the bases): daphne
    in a forked process on this test's database, streaming scripted agents quickly, running
    the Celery tasks it enqueues itself (no worker: the earlier stages of a trial started
    later in its procedure are played by one)."""

    tokens_per_s = 120
    """The scripted agents' pace in this class's server."""

    @classmethod
    def setUpClass(cls) -> None:
        from channels.layers import channel_layers
        from django.conf import settings

        from tests.celery_mode import celery_eager

        settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = cls.tokens_per_s
        settings.LEGALSIM_OBJECTION_GRACE_S = 1.5
        # The server process must open the database this test already uses (its NAME is the
        # test database by now); channels would otherwise prefix "test_" a second time.
        database = settings.DATABASES["default"]
        database.setdefault("TEST", {})["NAME"] = database["NAME"]
        # The server process is forked from this one: it must build its own channel layer,
        # not inherit one bound to the event loops of the tests that ran before.
        channel_layers.backends.clear()
        cls.enterClassContext(celery_eager(True))
        super().setUpClass()

    @classmethod
    def _pre_setup(cls) -> None:
        server = getattr(cls, "_server_process", None)  # none yet while the class sets up
        if server is not None and not server.is_alive():
            cls._start_server()
        super()._pre_setup()

    def _fixture_teardown(self) -> None:
        """Stop the server before the database is emptied: a trial the test left to its agents
        is still writing turns there, and PostgreSQL's TRUNCATE would deadlock with it. The
        class's next test starts a fresh server."""
        type(self)._server_process.terminate()
        type(self)._server_process.join()
        super()._fixture_teardown()

    @classmethod
    def _start_server(cls) -> None:
        """What ``ChannelsLiveServerTestCase.setUpClass`` does to start its daphne process."""
        from functools import partial

        from channels.layers import channel_layers
        from channels.testing.live import make_application, set_database_connection

        channel_layers.backends.clear()
        get_application = partial(make_application, static_wrapper=cls.static_wrapper if cls.serve_static else None)
        cls._server_process = cls.ProtocolServerProcess(cls.host, get_application, setup=set_database_connection)
        cls._server_process.start()
        if not cls._server_process.ready.wait(timeout=60):
            raise RuntimeError("the live server did not start")
        cls._port = cls._server_process.port.value
