#!/usr/bin/env python
"""Websocket load: N concurrent live trials against daphne, beside a raw echo-server floor.

    .venv/bin/python benchmarks/ws_load.py [--trials 100] [--seconds 20] [--tokens-per-s 40] [--servers 1]

Each trial plays the first-instance trial of a demo case with scripted agents emitting tokens
at a fixed pace and one human seat (plaintiff counsel) answering over the JSON protocol from
this process. Latency is token emission (the server's ``ts`` on each ``turn.delta``) to
receipt here, on one machine's clock. The floor is a bare ``websockets`` server pushing
timestamped frames at the same per-connection rate to the same number of clients.
Runs on the embedded defaults (a scratch SQLite file, in-memory channel layer) unless
DATABASE_URL / REDIS_URL are set. ``--servers N`` starts N daphne processes sharing the
database and Redis (REDIS_URL required; PostgreSQL recommended, SQLite works but serialises
the writers of every process) and spreads the trials' clients over them round-robin; a
trial's driver runs in the process its client connects to.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


CONNECT_S = 120.0
"""The window opens after this long even if some client never had a frame."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare(trials: int) -> list[tuple[int, str]]:
    """Create the trials and a logged-in session per human; returns (trial id, session key)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from legalsim.celery import app
    from legalsim.roles import Role, role_grant
    from trials.models import Case
    from trials.preparation import trial_prepare
    from trials.services import cases_import, trial_create

    app.conf.task_always_eager = True  # no task is sent: the earlier stages are played below
    call_command("migrate", verbosity=0)
    cases_import(paths=[ROOT / "demo" / "cases" / "en-civil-traffic-accident.json"])
    case = Case.objects.get(pk="en-civil-traffic-accident")
    prepared = []
    for index in range(trials):
        user, _ = get_user_model().objects.get_or_create(username=f"load{index}")
        role_grant(user, Role.STUDENT)
        browser = Client()
        browser.force_login(user)
        trial = trial_create(live=True, case=case, humans={"plaintiff_lawyer": user}, stages=["FIT"])
        trial_prepare(trial_id=trial.pk)  # here, as a worker would, before the window opens
        prepared.append((trial.pk, browser.cookies["sessionid"].value))
    return prepared


class Window:
    """The measurement window: it opens once every client has had its first frame, so the
    connection storm (each socket authenticated and replayed from the database) is timed
    apart from the steady state it is followed by."""

    def __init__(self, clients: int, seconds: float) -> None:
        self.waiting, self.seconds = clients, seconds
        self.began = time.time()
        self.start = self.end = math.inf

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.open()

    def open(self) -> None:
        if self.start == math.inf:
            self.start = time.time()
            self.end = self.start + self.seconds

    def timeout(self) -> float:
        return 1.0 if self.end == math.inf else max(0.1, self.end - time.time())


async def play(port: int, trial_id: int, session_key: str, window: Window, stats: dict) -> None:
    headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{port}"}
    answered: set[int] = set()
    ready = False
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/trials/{trial_id}/", additional_headers=headers, open_timeout=60
        ) as socket_:
            while time.time() < window.end:
                try:
                    raw = await asyncio.wait_for(socket_.recv(), timeout=window.timeout())
                except TimeoutError:
                    continue
                frame = json.loads(raw)
                if not ready:
                    ready = True
                    window.ready()
                counted = time.time() >= window.start
                stats["frames"] += counted
                if frame["type"] == "turn.delta" and counted:
                    stats["latency"].append(time.time() - frame["ts"])
                elif frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer" and frame["seq"] not in answered:
                    answered.add(frame["seq"])
                    await socket_.send(
                        json.dumps(
                            {"type": "say", "text": "Counsel submits.", "client_id": f"{trial_id}-{frame['seq']}"}
                        )
                    )
                elif frame["type"] == "error":
                    stats["errors"] += 1
                    print(f"  error frame in trial {trial_id}: {frame['code']}: {frame['message']}")
                elif frame["type"] == "end":
                    break
    except (OSError, websockets.WebSocketException):
        stats["errors"] += 1
    finally:
        if not ready:
            window.ready()


async def floor_server(port: int, rate: float, stop: asyncio.Event) -> None:
    async def push(connection) -> None:
        try:
            while not stop.is_set():
                await connection.send(json.dumps({"type": "turn.delta", "text": "x", "ts": time.time()}))
                await asyncio.sleep(1 / rate)
        except websockets.ConnectionClosed:
            return

    async with websockets.serve(push, "127.0.0.1", port):
        await stop.wait()


async def floor_client(port: int, deadline: float, stats: dict) -> None:
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/") as socket_:
            while time.time() < deadline:
                frame = json.loads(await socket_.recv())
                stats["frames"] += 1
                stats["latency"].append(time.time() - frame["ts"])
    except (OSError, websockets.WebSocketException):
        stats["errors"] += 1


def report(label: str, stats: dict, seconds: float) -> None:
    latency = sorted(stats["latency"]) or [0.0]
    p99 = latency[min(len(latency) - 1, int(len(latency) * 0.99))]
    print(
        f"  {label:<22} p50 {1000 * statistics.median(latency):7.2f} ms   p99 {1000 * p99:7.2f} ms   "
        f"{stats['frames'] / seconds:8.0f} frames/s   errors {stats['errors']}"
    )


async def measure(ports: list[int], prepared: list, seconds: float, rate: float) -> None:
    app = {"frames": 0, "latency": [], "errors": 0}
    window = Window(len(prepared), seconds)
    asyncio.get_running_loop().call_later(CONNECT_S, window.open)
    await asyncio.gather(
        *(play(ports[index % len(ports)], trial_id, key, window, app) for index, (trial_id, key) in enumerate(prepared))
    )
    floor = {"frames": 0, "latency": [], "errors": 0}
    stop, floor_port = asyncio.Event(), free_port()
    server = asyncio.create_task(floor_server(floor_port, rate, stop))
    await asyncio.sleep(0.3)
    deadline = time.time() + seconds
    await asyncio.gather(*(floor_client(floor_port, deadline, floor) for _ in prepared))
    stop.set()
    await server
    layer = "Redis" if os.environ.get("REDIS_URL") else "in-memory"
    database = os.environ["DATABASE_URL"].split(":", 1)[0]
    print(
        f"ws_load: {len(prepared)} concurrent trials, {rate:g} tokens/s per trial, {seconds:g} s each; "
        f"{len(ports)} daphne process(es), {layer} channel layer, {database}"
    )
    print(f"  {len(prepared)} sockets connected and replayed in {window.start - window.began:.1f} s (not measured)")
    report(f"LegalSim (daphne x{len(ports)})", app, seconds)
    report("floor (raw websockets)", floor, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description="Websocket latency under N concurrent live trials.")
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--tokens-per-s", type=float, default=40)
    parser.add_argument("--servers", type=int, default=1, help="daphne processes (more than one needs REDIS_URL)")
    args = parser.parse_args()
    if args.servers > 1 and not os.environ.get("REDIS_URL"):
        parser.error("--servers > 1 needs REDIS_URL: the processes share their channel layer through Redis")
    scratch = tempfile.mkdtemp(prefix="legalsim-wsload-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/load.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    os.environ["LEGALSIM_SCRIPTED_TOKENS_PER_S"] = str(args.tokens_per_s)
    # The human seat never objects here: the room streams without the pause a person's
    # chance to object adds after each opposing statement, as the load it measures.
    os.environ["LEGALSIM_OBJECTION_GRACE_S"] = "0"
    prepared = prepare(args.trials)
    ports = [free_port() for _ in range(args.servers)]
    servers = [daphne_start(port) for port in ports]
    try:
        for port in ports:
            port_wait(port)
        asyncio.run(measure(ports, prepared, args.seconds, args.tokens_per_s))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=10)


def daphne_start(port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "legalsim.asgi:application"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def port_wait(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)


if __name__ == "__main__":
    main()
