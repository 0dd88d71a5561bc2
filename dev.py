#!/usr/bin/env python3
"""One-command developer entry points; needs nothing but Python 3.11+.

    python3 dev.py up [--host H] [--port N]
                          set up, load the demo library and users, serve on 127.0.0.1:8000
                          (--host 0.0.0.0 serves a classroom's network: see the warning)
    python3 dev.py test   set up, then ruff (lint + format check) and the whole test suite

Both create ``.venv`` and install the pinned requirements when they changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(arg) for arg in args), flush=True)
    subprocess.run([str(arg) for arg in args], cwd=ROOT, check=True, env=env)


def ensure_venv(requirements: str) -> None:
    """Create the virtualenv and install ``requirements`` unless the same set is installed."""
    if sys.version_info < (3, 11):  # noqa: UP036 (dev.py is the one file run by any python3)
        sys.exit(f"LegalSim needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    digest = hashlib.sha256()
    for name in ("requirements.txt", requirements):
        digest.update((ROOT / name).read_bytes())
    stamp = VENV / f".installed-{requirements}"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements)
    stamp.write_text(digest.hexdigest())


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve_options(args: list[str]) -> tuple[str, int]:
    """``--host H`` and ``--port N`` of ``dev.py up`` (127.0.0.1 and 8000 by default)."""
    options = {"--host": "127.0.0.1", "--port": "8000"}
    for name, value in zip(args[::2], args[1::2], strict=False):
        if name not in options:
            sys.exit(f"dev.py up: unknown option {name}; options: --host H, --port N")
        options[name] = value
    if len(args) % 2 or not options["--port"].isdigit():
        sys.exit("dev.py up: give --host H and --port N, each with its value (the port a number)")
    return options["--host"], int(options["--port"])


def up() -> None:
    host, port = serve_options(sys.argv[2:])
    ensure_venv("requirements.txt")
    # legalsim.checks warns (at migrate) when LEGALSIM_TRUSTED_PROXIES is set but clients reach us directly.
    env = {**os.environ, "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "0"), "LEGALSIM_WEB_BIND": host}
    if host not in LOOPBACK:
        # Another machine names this one by its address: accept any Host header.
        env.setdefault("DJANGO_ALLOWED_HOSTS", "*")
    run(PYTHON, "manage.py", "migrate", "--noinput", env=env)
    run(PYTHON, "manage.py", "catalogues_compile", env=env)
    run(PYTHON, "manage.py", "seed_demo", env=env)
    run(PYTHON, "manage.py", "seed_demo_study", env=env)
    run(PYTHON, "manage.py", "collectstatic", "--noinput", "--verbosity", "0", env=env)
    print(
        f"LegalSim development server on http://{host}:{port}/ (Ctrl+C stops it): SQLite, in-memory "
        "channel layer, offline agents; not a production server (docs/operations.md).",
        flush=True,
    )
    if host not in LOOPBACK:
        print(
            f"WARNING: serving every machine that reaches {host}:{port}, over plain http, with the demo "
            "users' passwords printed above; use it on a classroom network you trust, never on the internet.",
            flush=True,
        )
    os.execve(BIN / "daphne", [str(BIN / "daphne"), "-b", host, "-p", str(port), "legalsim.asgi:application"], env)


PARALLEL = ("-n", "auto", "--dist", "load")
"""pytest-xdist: a worker per core, each with its own test database and Redis database. Tests
are dealt in collection order, so each worker runs pytest-django's order too: the tests that
flush the database (and with it the rows migrations made, the rubrics) after all the others."""


def test() -> None:
    ensure_venv("requirements-dev.txt")
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")
    options = sys.argv[2:]
    parallel = () if any(option.startswith(("-n", "--numprocesses")) for option in options) else PARALLEL
    run(PYTHON, "-m", "pytest", *parallel, *options)


if __name__ == "__main__":
    commands = {"up": up, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    try:
        commands[sys.argv[1]]()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
