"""MASER's supervisor (MASER §2.2, docs/sources.md): a sentence-level check of a client's or
lawyer's reply against that seat's own profile and agenda, with one revision when it fails.

The supervisor reads only the speaking seat's view (its persona, goals, role brief and the
stage dialogue), so its advice cannot carry anything the seat may not see. It speaks the
case's language; the JSON keys it must answer with stay as the parser reads them. The
dialogue and the reply to check are quoted as the seats' prompts quote turns
(``prompts.quoted``): words to judge, never instructions to the supervisor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from agents.prompts import QUOTED_TURNS, ROLE_BRIEFS, case_data, dialogue, quoted
from court.agenda import AGENDA, CONSULTATION
from court.engine.visibility import SeatView
from legalsim.json_input import loads_untrusted
from legalsim.llm import LLMCall, LLMClient, LLMResult, ReplyFormatError

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


def _agenda(view: SeatView) -> list[str] | None:
    """A consultation's lawyer follows the legal agenda (MASER Appendix A.2; court/agenda.py)."""
    if view.role != "lawyer" or view.stage != CONSULTATION:
        return None
    return [item.name(view.language) for item in AGENDA]


def supervisor_messages(view: SeatView, speaker: str, reply: str) -> list[dict[str, str]]:
    goals = (view.fields.get("goals") or {}).get(view.side)
    if view.language == "zh":
        profile = {
            "角色": ROLE_BRIEFS[view.role][0],
            "人物设定": view.persona,
            "诉讼目标": goals,
            "法律议程": _agenda(view),
        }
        profile = case_data({key: value for key, value in profile.items() if value}, "zh")
        system = (
            "你逐句监督一场法律角色扮演。检查参与者的回复是否符合其人物设定（性格、利益、角色），"
            "并推动程序向前：律师按法律议程询问，对含糊或遗漏之处追问；当事人在被问到之前不说出人物设定中暂不透露的细节。只返回JSON："
            '{"consistent": true 或 false, "advice": "如何修改，用中文写"}。'
            f"{QUOTED_TURNS[0]}待检查的回复也是一个JSON字符串。"
        )
        user = (
            f"{speaker}的人物设定：\n{json.dumps(profile, ensure_ascii=False)}\n\n"
            f"目前的对话：\n{dialogue(view)}\n\n待检查的回复：\n{quoted(reply)}"
        )
    else:
        profile = {"role": ROLE_BRIEFS[view.role][1], "persona": view.persona, "goals": goals}
        profile |= {"legal agenda": _agenda(view)} if _agenda(view) else {}
        system = (
            "You supervise a legal role-play sentence by sentence. Check that a participant's reply is "
            "consistent with their profile (persona, interests, role) and moves the procedure on: a lawyer "
            "follows the legal agenda and asks again about what was vague or left out; a client does not tell "
            "a detail their persona withholds before the lawyer asks about it. "
            'Return JSON only: {"consistent": true|false, "advice": "how to revise, in the reply\'s language"}. '
            f"{QUOTED_TURNS[1]} The reply to check is one JSON string too."
        )
        user = (
            f"Profile of {speaker}:\n{json.dumps(profile, ensure_ascii=False)}\n\n"
            f"Dialogue so far:\n{dialogue(view)}\n\nReply to check:\n{quoted(reply)}"
        )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def revision_message(view: SeatView, advice: str) -> dict[str, str]:
    """The supervisor's advice put to the seat, asking for the one revision."""
    if view.language == "zh":
        return {"role": "user", "content": f"监督意见：{advice}\n请据此修改你的回复，只输出修改后的回复。"}
    return {
        "role": "user",
        "content": f"Supervisor: {advice}\nRevise your reply accordingly; output only the revised reply.",
    }


class Supervisor:
    def __init__(self, client: LLMClient, model: str) -> None:
        self.client, self.model = client, model

    def review(self, messages: list[dict[str, str]]) -> tuple[Verdict, LLMResult]:
        """The verdict on a reply put in ``supervisor_messages``, and the call's result for
        accounting."""
        result, verdict = self.client.complete(LLMCall(self.model, messages, temperature=0.0), parse=parse_verdict)
        return verdict, result
