"""MASER's supervisor (MASER §2.2, docs/sources.md): a sentence-level check of a client's or
lawyer's reply against that seat's own profile and agenda, with one revision when it fails.

The supervisor reads only the speaking seat's view (its persona, goals, role brief and the
stage dialogue), so its advice cannot carry anything the seat may not see.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from legalsim.json_input import loads_untrusted
from legalsim.llm import LLMCall, LLMClient, ReplyFormatError
from trials.agents.prompts import ROLE_BRIEFS, dialogue
from trials.engine.visibility import SeatView

SUPERVISED_ROLES = ("client", "lawyer")


@dataclass(frozen=True)
class Verdict:
    consistent: bool
    advice: str


def parse_verdict(text: str) -> Verdict:
    try:
        data = loads_untrusted(text[text.find("{") : text.rfind("}") + 1])
        return Verdict(bool(data["consistent"]), str(data.get("advice", "")))
    except (ValueError, KeyError, TypeError) as error:
        raise ReplyFormatError(f"supervisor verdict is not the JSON asked for ({error})") from None


def supervisor_messages(view: SeatView, speaker: str, reply: str) -> list[dict[str, str]]:
    brief = ROLE_BRIEFS[view.role][0 if view.language == "zh" else 1]
    goals = (view.fields.get("goals") or {}).get(view.side)
    profile = {"role": brief, "persona": view.persona, "goals": goals}
    return [
        {
            "role": "system",
            "content": "You supervise a legal role-play sentence by sentence. Check that a participant's reply is "
            "consistent with their profile (persona, interests, role) and moves the procedure on. "
            'Return JSON only: {"consistent": true|false, "advice": "how to revise, in the reply\'s language"}.',
        },
        {
            "role": "user",
            "content": f"Profile of {speaker}:\n{json.dumps(profile, ensure_ascii=False)}\n\n"
            f"Dialogue so far:\n{dialogue(view)}\n\nReply to check:\n{reply}",
        },
    ]


class Supervisor:
    def __init__(self, client: LLMClient, model: str) -> None:
        self.client, self.model = client, model

    def review(self, view: SeatView, speaker: str, reply: str) -> tuple[Verdict, object]:
        """The verdict, and the call's result for accounting."""
        result, verdict = self.client.complete(
            LLMCall(self.model, supervisor_messages(view, speaker, reply), temperature=0.0), parse=parse_verdict
        )
        return verdict, result
