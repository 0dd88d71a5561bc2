"""The LLM judge: the rubric through the ``openai`` client (LegalWorld §4.2 and D.3;
docs/sources.md).

A reply that does not parse gets one regeneration with a stricter "JSON only" prompt; if
that fails too, the trajectory is flagged for audit and no score of it is stored, so it
stays out of every aggregate. Transport failures are retried by ``LLMClient`` as usual.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from agents.prompts import one_line, quoted
from annotation.models import stage_ids_of
from annotation.rubric import RubricDefinition
from annotation.rubric_kind import ANSWERS, Pair
from annotation.stages import items_not_applicable
from legalsim.json_input import loads_untrusted
from legalsim.llm import LLMCall, LLMClient

STRICT = "Return JSON only: no prose, no Markdown, nothing before or after the JSON object."


@dataclass(frozen=True)
class Prompts:
    """The judge's instructions in one language; the JSON it must answer with never changes."""

    score: str
    compare: str
    items: str
    aspects: str
    anchors: str
    answer: str
    reason: str
    record: str
    strict: str


PROMPTS = {
    "en": Prompts(
        score=(
            "You are an expert evaluator of simulated litigation. Read the whole trajectory stage by stage and "
            "score every rubric item with an integer from {low} to {high}."
        ),
        compare=(
            "You are an expert evaluator of court trials. Two trial records of the same case follow as A and B. "
            "For every aspect say which record's role performs better, or draw if you cannot tell them apart."
        ),
        items="Items: ",
        aspects="Aspects: ",
        anchors="Anchors: ",
        answer="Answer with ",
        reason="one or two sentences",
        record="Record",
        strict=STRICT,
    ),
    "zh": Prompts(
        score=(
            "你是模拟诉讼的评测专家。请按阶段通读整条轨迹，并对评分量表的每一项给出 {low} 到 {high} 之间的整数分。"
            "理由请用中文书写。"
        ),
        compare=(
            "你是庭审评测专家。下面是同一案件的两份庭审记录，分别记为 A 和 B。请就每个评价方面判断哪一份记录中的相应角色"
            "表现更好；无法区分优劣时回答 draw（平局）。理由请用中文书写。"
        ),
        items="评分项：",
        aspects="评价方面：",
        anchors="评分锚点：",
        answer="请严格按以下 JSON 格式作答（键名保持英文原样）：",
        reason="一两句话的理由",
        record="记录",
        strict="只返回 JSON：不要任何说明文字，不要 Markdown，JSON 对象前后不得有任何内容。",
    ),
}
"""By the trajectory's language (the case's); a language without prompts gets English."""


def prompts_for(language: str | None) -> tuple[str, Prompts]:
    """The prompt language for a trajectory's ``language`` (``zh``, ``zh-hans``, ``en``...)."""
    primary = (language or "en").lower().split("-", 1)[0]
    return (primary, PROMPTS[primary]) if primary in PROMPTS else ("en", PROMPTS["en"])


@dataclass(frozen=True)
class Judgment:
    scores: dict[str, tuple[int, str]] | None
    problem: str
    reply: str
    tokens: int


def _items(rubric: RubricDefinition) -> list[dict[str, str]]:
    return [
        {"id": item["id"], "title": item["title"], "description": item.get("description", "")}
        for group in rubric.data["groups"]
        for row in group["rows"]
        for item in row["items"]
    ]


def _transcript(trajectory: dict) -> str:
    """The trajectory stage by stage, every turn and document quoted as data (a participant's
    words cannot start a line of the prompt's own: ``agents.prompts.quoted``)."""
    stages = []
    for stage in trajectory["stages"]:
        lines = [f"## {stage['stage']}"]
        lines += [
            f"[{turn['seq']}] {one_line(turn['speaker'])} ({turn['role']}, {turn['phase']}): {quoted(turn['text'])}"
            for turn in stage["turns"]
        ]
        lines += [f"### {one_line(artifact['title'])}\n{quoted(artifact['text'])}" for artifact in stage["artifacts"]]
        stages.append("\n".join(lines))
    return "\n\n".join(stages)


def judge_messages(rubric: RubricDefinition, trajectory: dict, *, strict: bool) -> list[dict[str, str]]:
    """The rubric and the trajectory, with instructions and rubric texts in the trajectory's
    language (a Chinese case is judged in Chinese)."""
    language, text = prompts_for(trajectory.get("language"))
    local = rubric.localized(language)
    schema = f'{{"scores": {{"ITEM_ID": {{"score": INTEGER, "reason": "{text.reason}"}}, ...}}}}'
    lines = [
        text.score.format(low=rubric.scale_min, high=rubric.scale_max),
        text.items + json.dumps(_items(local), ensure_ascii=False),
        text.anchors + json.dumps(local.data.get("anchors", {}), ensure_ascii=False),
        text.answer + schema,
    ]
    system = "\n".join(lines + ([text.strict] if strict else []))
    user = f"# {trajectory['title']}\n\n" + _transcript(trajectory) + (f"\n\n{text.strict}" if strict else "")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def pair_messages(rubric: RubricDefinition, shown: tuple[dict, dict], *, strict: bool) -> list[dict[str, str]]:
    """The pairwise rubric: two records of one case as A and B (the order chosen by the caller),
    in the case's language."""
    first, second = shown
    language, text = prompts_for(first.get("language"))
    local = rubric.localized(language)
    schema = f'{{"answers": {{"ITEM_ID": {{"preference": "A" | "B" | "draw", "reason": "{text.reason}"}}, ...}}}}'
    lines = [text.compare, text.aspects + json.dumps(_items(local), ensure_ascii=False), text.answer + schema]
    system = "\n".join(lines + ([text.strict] if strict else []))
    user = (
        f"# {first['title']}\n\n# {text.record} A\n\n{_transcript(first)}\n\n# {text.record} B\n\n{_transcript(second)}"
        + (f"\n\n{text.strict}" if strict else "")
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse_preferences(text: str, rubric: RubricDefinition) -> dict[str, tuple[str, str]]:
    """Every item answered A, B or draw, or ValueError naming what is wrong."""
    start, end = text.find("{"), text.rfind("}")
    data = loads_untrusted(text[start : end + 1] if start >= 0 else text)
    parsed = {}
    for item in rubric.item_ids:
        entry = data["answers"][item]
        if entry["preference"] not in ANSWERS:
            raise ValueError(f"{item}: preference {entry['preference']!r} is not A, B or draw")
        parsed[item] = (entry["preference"], str(entry.get("reason", "")))
    return parsed


def parse_scores(text: str, rubric: RubricDefinition) -> dict[str, tuple[int, str]]:
    """Every item scored with an integer on the scale, or ValueError naming what is wrong."""
    start, end = text.find("{"), text.rfind("}")
    data = loads_untrusted(text[start : end + 1] if start >= 0 else text)
    scores = data["scores"]
    parsed = {}
    for item in rubric.item_ids:
        entry = scores[item]
        score = entry["score"]
        if isinstance(score, bool) or not isinstance(score, int) or not rubric.scale_min <= score <= rubric.scale_max:
            raise ValueError(f"{item}: score {score!r} is not an integer on the scale")
        parsed[item] = (score, str(entry.get("reason", "")))
    return parsed


def trajectory_judge(*, client: LLMClient, model: str, rubric: RubricDefinition, trajectory: dict) -> Judgment:
    """The items of the stages the trajectory lacks are neither asked for nor scored (N/A)."""
    absent = items_not_applicable(rubric, trajectory.get("procedure", ""), stage_ids_of(trajectory.get("stages")))
    asked = rubric.without_items(absent)
    return _judge(client, model, lambda strict: judge_messages(asked, trajectory, strict=strict), asked, parse_scores)


def pair_judge(
    *, client: LLMClient, model: str, rubric: RubricDefinition, pair: Pair, records: tuple[dict, dict]
) -> Judgment:
    """A pair of trajectories through the pairwise rubric, ``records`` in the pair's order.
    The judge sees them in the order ``Pair.judge_sees_first_as_a`` fixes; its answers come
    back as scores 1 / 0 / -1 for first / draw / second."""
    first_is_a = pair.judge_sees_first_as_a
    shown = records if first_is_a else (records[1], records[0])

    def as_scores(text: str, rubric: RubricDefinition) -> dict[str, tuple[int, str]]:
        preferences = parse_preferences(text, rubric)
        return {
            item: (Pair.score(answer, first_is_a=first_is_a), reason) for item, (answer, reason) in preferences.items()
        }

    return _judge(client, model, lambda strict: pair_messages(rubric, shown, strict=strict), rubric, as_scores)


def _judge(client: LLMClient, model: str, messages, rubric: RubricDefinition, parse) -> Judgment:
    reply, tokens, problem = "", 0, ""
    for strict in (False, True):
        result, _ = client.complete(LLMCall(model, messages(strict), temperature=0.0))
        reply, tokens = result.text, tokens + result.prompt_tokens + result.completion_tokens
        try:
            return Judgment(parse(reply, rubric), "", reply, tokens)
        except (ValueError, KeyError, TypeError) as error:
            problem = f"reply does not follow the rubric's JSON ({type(error).__name__}: {error})"
    return Judgment(None, problem, reply, tokens)
