"""The shipped deployment files agree on the web's port (issue #44 item 15): nginx.conf proxies
to the port docker-compose.yml publishes the web on and the systemd unit's instance is told to
listen on, and no model server example sits on a web port."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import yaml

from tests.conftest import ROOT

WEB_PORT = 8000


def nginx_upstreams() -> dict[str, set[str]]:
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    return {
        name: set(re.findall(r"server\s+([\d.]+:\d+);", body))
        for name, body in re.findall(r"upstream\s+(\w+)\s*\{([^}]*)\}", text)
    }


def compose_web_address() -> str:
    (published,) = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["ports"]
    bind, port, _container = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", published).split(":")
    return f"{bind}:{port}"


def model_ports() -> set[int]:
    urls = [
        re.search(r"^OPENAI_BASE_URL=(\S+)", (ROOT / name).read_text(), re.MULTILINE)[1]
        for name in ("deploy/legalsim.env.example", ".env.example")
    ]
    return {urlsplit(url).port for url in urls}


def test_nginx_proxies_to_the_port_compose_publishes_the_web_on():
    upstreams = nginx_upstreams()

    assert set(upstreams) == {"legalsim_http", "legalsim_ws"}
    assert upstreams["legalsim_http"] == upstreams["legalsim_ws"] == {compose_web_address()}
    assert compose_web_address() == f"127.0.0.1:{WEB_PORT}"


def test_the_systemd_unit_and_procfile_name_the_port_nginx_proxies_to():
    unit = (ROOT / "deploy" / "systemd" / "legalsim-web@.service").read_text()
    procfile = (ROOT / "deploy" / "Procfile").read_text()

    assert f"systemctl enable --now legalsim-web@{WEB_PORT}`" in unit
    assert f"honcho start -p {WEB_PORT} " in procfile


def test_no_model_server_example_sits_on_the_web_port():
    assert WEB_PORT not in model_ports()


def test_the_operations_guide_names_the_same_port():
    guide = (ROOT / "docs" / "operations.md").read_text()

    assert f"proxy in front of `127.0.0.1:{WEB_PORT}` (`deploy/nginx.conf`" in guide
    assert "8002" not in guide
