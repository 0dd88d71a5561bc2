#!/usr/bin/env python
"""Websocket load: N concurrent live trials against daphne, beside a raw echo-server floor.

    .venv/bin/python benchmarks/ws_load.py [--trials 100] [--seconds 20] [--tokens-per-s 40]

Each trial plays the first-instance trial of a demo case with scripted agents emitting tokens
at a fixed pace and one human seat (plaintiff counsel) answering over the JSON protocol from
this process. Latency is token emission (the server's ``ts`` on each ``turn.delta``) to
receipt here, on one machine's clock. The floor is a bare ``websockets`` server pushing
timestamped frames at the same per-connection rate to the same number of clients.
Runs on the embedded defaults (a scratch SQLite file, in-memory channel layer) unless
DATABASE_URL / REDIS_URL are set.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare(trials: int) -> list[tuple[int, str]]:
    """Create the trials and a logged-in session per human; returns (trial id, session key)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from legalsim.roles import Role, role_grant
    from trials.live import trial_create
    from trials.models import Case
    from trials.services import cases_import

    call_command("migrate", verbosity=0)
    cases_import(paths=[ROOT / "demo" / "cases" / "en-civil-traffic-accident.json"])
    case = Case.objects.get(pk="en-civil-traffic-accident")
    prepared = []
    for index in range(trials):
        user = get_user_model().objects.create_user(f"load{index}")
        role_grant(user, Role.STUDENT)
        session = SessionStore()
        session.update(
            {
                "_auth_user_id": str(user.pk),
                "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                "_auth_user_hash": user.get_session_auth_hash(),
            }
        )
        session.create()
        trial = trial_create(case=case, humans={"plaintiff_lawyer": user}, stages=["FIT"])
        prepared.append((trial.pk, session.session_key))
    return prepared


async def play(port: int, trial_id: int, session_key: str, deadline: float, stats: dict) -> None:
    headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{port}"}
    answered: set[int] = set()
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/trials/{trial_id}/", additional_headers=headers
        ) as socket_:
            while time.time() < deadline:
                try:
                    raw = await asyncio.wait_for(socket_.recv(), timeout=max(0.1, deadline - time.time()))
                except TimeoutError:
                    break
                frame = json.loads(raw)
                stats["frames"] += 1
                if frame["type"] == "turn.delta":
                    stats["latency"].append(time.time() - frame["ts"])
                elif frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer" and frame["seq"] not in answered:
                    answered.add(frame["seq"])
                    await socket_.send(
                        json.dumps(
                            {"type": "say", "text": "Counsel submits.", "client_id": f"{trial_id}-{stats['frames']}"}
                        )
                    )
                elif frame["type"] == "error":
                    stats["errors"] += 1
                    print(f"  error frame in trial {trial_id}: {frame['code']}: {frame['message']}")
                elif frame["type"] == "end":
                    break
    except (OSError, websockets.WebSocketException):
        stats["errors"] += 1


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


async def measure(port: int, prepared: list, seconds: float, rate: float) -> None:
    app = {"frames": 0, "latency": [], "errors": 0}
    deadline = time.time() + seconds
    await asyncio.gather(*(play(port, trial_id, key, deadline, app) for trial_id, key in prepared))
    floor = {"frames": 0, "latency": [], "errors": 0}
    stop, floor_port = asyncio.Event(), free_port()
    server = asyncio.create_task(floor_server(floor_port, rate, stop))
    await asyncio.sleep(0.3)
    deadline = time.time() + seconds
    await asyncio.gather(*(floor_client(floor_port, deadline, floor) for _ in prepared))
    stop.set()
    await server
    print(f"ws_load: {len(prepared)} concurrent trials, {rate:g} tokens/s per trial, {seconds:g} s each")
    report("LegalSim (daphne)", app, seconds)
    report("floor (raw websockets)", floor, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description="Websocket latency under N concurrent live trials.")
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--tokens-per-s", type=float, default=40)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="legalsim-wsload-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/load.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    os.environ["LEGALSIM_SCRIPTED_TOKENS_PER_S"] = str(args.tokens_per_s)
    prepared = prepare(args.trials)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "legalsim.asgi:application"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        asyncio.run(measure(port, prepared, args.seconds, args.tokens_per_s))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
