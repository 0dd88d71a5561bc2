"""The API's documentation pages (issue #31, item 16): Swagger UI and Redoc come from the pinned
copy drf-spectacular-sidecar ships, served from this site, under a policy with no CDN and no
inline script; Swagger UI's page runs under the site's own policy. A real chromium renders
both pages and reports no Content-Security-Policy violation and no request off the site."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from legalsim.csp import HEADER
from tests.browser import CHROMIUM, WithChromium

pytestmark = pytest.mark.django_db
DIRECTIVES = re.compile(r"\s*([\w-]+)\s*([^;]*)")


def directives(response) -> dict[str, set[str]]:
    return {name: set(values.split()) for name, values in DIRECTIVES.findall(response.headers[HEADER])}


def assets(page: str) -> list[str]:
    return re.findall(r'<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"', page)


def test_swagger_ui_is_served_from_this_site_under_the_sites_own_policy(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "cdn." not in page and "@latest" not in page
    urls = assets(page)
    assert any(url.endswith("swagger-ui-dist/swagger-ui-bundle.js") for url in urls), urls
    assert all(url.startswith("/") for url in urls), "every script and stylesheet from this site"
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "no inline script"
    policy = directives(response)
    assert policy["script-src"] == {"'self'"}
    assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in policy["script-src"]
    assert not any(re.search(r"https?:", " ".join(values)) for values in policy.values()), "no other origin"
    [nonce] = [value[7:-1] for value in policy["style-src"] if value.startswith("'nonce-")]
    assert re.findall(r"<style[^>]*>", page) == [f'<style nonce="{nonce}">'], "its one inline style has the nonce"
    [script] = [url for url in urls if "script" in url]
    init = client.get(script)
    assert init.status_code == 200 and init["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in init.content.decode()
    static = f"/{settings.STATIC_URL.strip('/')}/"
    assert sum(url.startswith(static) for url in urls) == 4, "stylesheet, icon, bundle and preset"
    for url in urls:
        if url.startswith(static):
            assert finders.find(url.removeprefix(static)), f"{url} is one of the site's static files"


def test_redoc_is_served_from_this_site_with_no_script_but_its_own(client):
    response = client.get("/api/redoc/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "cdn." not in page and "fonts.googleapis" not in page
    urls = assets(page)
    assert any(url.endswith("redoc/bundles/redoc.standalone.js") for url in urls), urls
    assert all(url.startswith("/") for url in urls)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "no inline script"
    policy = directives(response)
    assert policy["script-src"] == {"'self'"}
    assert not any(re.search(r"https?:", " ".join(values)) for values in policy.values()), "no other origin"


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
class DocsInChromium(WithChromium, StaticLiveServerTestCase):
    def rendered(self, path: str, ready: str) -> tuple[list[str], set[str]]:
        """Open ``path`` until ``ready`` shows; the console's CSP complaints and the hosts that
        answered (a request the policy refuses fails before it leaves the browser)."""
        page = self.browser.new_page()
        complaints: list[str] = []
        hosts: set[str] = set()
        page.on(
            "console", lambda message: complaints.append(message.text) if "Content Security" in message.text else None
        )
        page.on("requestfinished", lambda request: hosts.add(urlsplit(request.url).netloc))
        try:
            page.goto(f"{self.live_server_url}{path}")
            page.wait_for_selector(ready, timeout=30_000)
            page.wait_for_load_state("networkidle")
        finally:
            page.close()
        return complaints, {host for host in hosts if host}

    def test_swagger_ui_renders_the_schema_with_no_policy_violation_and_nothing_off_the_site(self):
        complaints, hosts = self.rendered("/api/docs/", ".swagger-ui .information-container .title")
        assert complaints == []
        assert hosts == {urlsplit(self.live_server_url).netloc}

    def test_redoc_renders_the_schema_and_the_policy_keeps_its_one_outside_image_out(self):
        complaints, hosts = self.rendered("/api/redoc/", ".api-info h1")
        # Redoc's "API docs by Redocly" logo is an image on Redocly's CDN: refused, nothing else.
        assert all(re.match(r"Loading the image 'https://cdn\.redoc\.ly/[^']+' violates", text) for text in complaints)
        assert hosts == {urlsplit(self.live_server_url).netloc}
