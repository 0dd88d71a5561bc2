#!/usr/bin/env python3
"""A research agent taking a seat in a LegalSim trial over the REST API and the websocket.

Needs only the standard library and ``websockets``. It obtains a token, creates a trial of a
case with the caller holding one seat (every other seat is an agent), connects to the trial's
websocket with the token, answers every ``await`` frame for its seat with a ``say`` (a
``client_id`` per awaited turn, so a resend after a reconnect is recorded once), prints each
turn as it ends, stops on ``end``, then fetches the transcript over the API.

    python examples/research_client.py --base-url http://127.0.0.1:8000 \\
        --username student --password PASSWORD --case en-civil-traffic-accident \\
        --seat plaintiff_lawyer --stages FIT

Replace ``compose`` with your agent: it gets the ``await`` frame (seat, stage, phase,
prompt, act; ``document`` when the act writes the stage's document) and returns the text.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import websockets


class ApiError(RuntimeError):
    pass


def api(base_url: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> Any:
    """One JSON request to the REST API; an error status raises ``ApiError`` with the body."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(f"{base_url}{path}", data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raise ApiError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}") from None


def compose(frame: dict) -> str:
    """The stand-in agent: a short submission naming the act it answers."""
    return f"As {frame['seat']} in {frame['stage']}/{frame['phase']}: I make my submission ({frame.get('act', 'say')})."


async def play(ws_url: str, token: str, seats: set[str], agent: Callable[[dict], str], out=sys.stdout) -> list[str]:
    """Answer every await for ``seats`` until the trial ends; returns what was said."""
    said: list[str] = []
    answered: set[int] = set()
    async with websockets.connect(ws_url, additional_headers={"Authorization": f"Token {token}"}) as socket:
        async for message in socket:
            frame = json.loads(message)
            kind = frame.get("type")
            if kind == "turn.end":
                print(
                    f"#{frame['seq']} [{frame['stage']}/{frame['phase']}] {frame['speaker']}: {frame['text']}", file=out
                )
            elif kind == "await" and frame.get("seat") in seats and frame.get("seq") not in answered:
                text = agent(frame)
                answered.add(frame["seq"])
                said.append(text)
                say = {"type": "say", "text": text, "client_id": f"{frame['seat']}-{frame['seq']}"}
                if frame.get("act") == "answer_mediation":
                    say["decision"] = "decline"  # a mediation answer states its decision; this agent declines
                await socket.send(json.dumps(say))
            elif kind == "error":
                print(f"server error {frame.get('code')}: {frame.get('message')}", file=out)
            elif kind == "end":
                return said
    return said


def run(
    *,
    base_url: str,
    username: str,
    password: str,
    case: str,
    seat: str,
    stages: list[str] | None = None,
    target_side: str | None = None,
    agent: Callable[[dict], str] = compose,
    out=sys.stdout,
) -> dict:
    """The whole session; returns ``{"trial_id", "said", "transcript"}``."""
    base_url = base_url.rstrip("/")
    token = api(base_url, "POST", "/api/token/", {"username": username, "password": password})["token"]
    body: dict[str, Any] = {"case": case, "seats": [seat], "stages": stages or []}
    if target_side:
        body["target_side"] = target_side
    trial = api(base_url, "POST", "/api/trials/", body, token)
    print(f"trial {trial['id']}: playing {seat}; seats {trial['seats']}", file=out)
    ws_url = base_url.replace("http", "ws", 1) + trial["ws_path"]
    said = asyncio.run(play(ws_url, token, set(trial["my_seats"]), agent, out))
    transcript = api(base_url, "GET", f"/api/trials/{trial['id']}/transcript/", token=token)
    turns = sum(len(stage["turns"]) for stage in transcript["stages"])
    print(f"trial {trial['id']} ended: {len(said)} turns said by this client, {turns} in the transcript", file=out)
    return {"trial_id": trial["id"], "said": said, "transcript": transcript}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--case", required=True, help="case id")
    parser.add_argument("--seat", default="plaintiff_lawyer")
    parser.add_argument("--stages", default="", help="comma-separated stages (e.g. FIT); empty: all")
    parser.add_argument("--target-side", choices=("plaintiff", "defendant"))
    args = parser.parse_args(argv)
    try:
        run(
            base_url=args.base_url,
            username=args.username,
            password=args.password,
            case=args.case,
            seat=args.seat,
            stages=[stage for stage in args.stages.split(",") if stage],
            target_side=args.target_side,
        )
    except ApiError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
