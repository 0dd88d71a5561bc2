"""The LLM judge: the rubric through the ``openai`` client (LegalWorld §4.2 and D.3;
docs/sources.md).

A reply that does not parse gets one regeneration with a stricter "JSON only" prompt; if
that fails too, the trajectory is flagged for audit and no score of it is stored, so it
stays out of every aggregate. Transport failures are retried by ``LLMClient`` as usual.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from annotation.rubric import RubricDefinition
from legalsim.json_input import loads_untrusted
from legalsim.llm import LLMCall, LLMClient

STRICT = "Return JSON only: no prose, no Markdown, nothing before or after the JSON object."


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
    stages = []
    for stage in trajectory["stages"]:
        lines = [f"## {stage['stage']}"]
        lines += [
            f"[{turn['seq']}] {turn['speaker']} ({turn['role']}, {turn['phase']}): {turn['text']}"
            for turn in stage["turns"]
        ]
        lines += [f"### {artifact['title']}\n{artifact['text']}" for artifact in stage["artifacts"]]
        stages.append("\n".join(lines))
    return "\n\n".join(stages)


def judge_messages(rubric: RubricDefinition, trajectory: dict, *, strict: bool) -> list[dict[str, str]]:
    schema = '{"scores": {"ITEM_ID": {"score": INTEGER, "reason": "one or two sentences"}, ...}}'
    system = (
        "You are an expert evaluator of simulated litigation. Read the whole trajectory stage by stage and "
        f"score every rubric item with an integer from {rubric.scale_min} to {rubric.scale_max}.\n"
        f"Items: {json.dumps(_items(rubric), ensure_ascii=False)}\n"
        f"Anchors: {json.dumps(rubric.data.get('anchors', {}), ensure_ascii=False)}\n"
        f"Answer with {schema}" + (f"\n{STRICT}" if strict else "")
    )
    user = f"# {trajectory['title']}\n\n" + _transcript(trajectory) + (f"\n\n{STRICT}" if strict else "")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def pair_messages(rubric: RubricDefinition, shown: tuple[dict, dict], *, strict: bool) -> list[dict[str, str]]:
    """The pairwise rubric: two records of one case as A and B (the order chosen by the caller)."""
    schema = '{"answers": {"ITEM_ID": {"preference": "A" | "B" | "draw", "reason": "one or two sentences"}, ...}}'
    system = (
        "You are an expert evaluator of court trials. Two trial records of the same case follow as A and B. "
        "For every aspect say which record's role performs better, or draw if you cannot tell them apart.\n"
        f"Aspects: {json.dumps(_items(rubric), ensure_ascii=False)}\n"
        f"Answer with {schema}" + (f"\n{STRICT}" if strict else "")
    )
    first, second = shown
    user = f"# {first['title']}\n\n# Record A\n\n{_transcript(first)}\n\n# Record B\n\n{_transcript(second)}" + (
        f"\n\n{STRICT}" if strict else ""
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse_preferences(text: str, rubric: RubricDefinition) -> dict[str, tuple[str, str]]:
    """Every item answered A, B or draw, or ValueError naming what is wrong."""
    start, end = text.find("{"), text.rfind("}")
    data = loads_untrusted(text[start : end + 1] if start >= 0 else text)
    parsed = {}
    for item in rubric.item_ids:
        entry = data["answers"][item]
        if entry["preference"] not in ("A", "B", "draw"):
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
    return _judge(client, model, lambda strict: judge_messages(rubric, trajectory, strict=strict), rubric, parse_scores)


def pair_judge(
    *, client: LLMClient, model: str, rubric: RubricDefinition, unit: str, pair: tuple[dict, dict]
) -> Judgment:
    """A pair of trajectories (first, second) through the pairwise rubric. The judge sees them
    in an order fixed by the unit's hash, so position bias does not always favour one side;
    its answers come back as scores 1 / 0 / -1 for first / draw / second."""
    swapped = hashlib.sha256(unit.encode()).digest()[0] % 2 == 1
    shown = (pair[1], pair[0]) if swapped else pair

    def as_scores(text: str, rubric: RubricDefinition) -> dict[str, tuple[int, str]]:
        preferences = parse_preferences(text, rubric)
        value = {"A": -1 if swapped else 1, "B": 1 if swapped else -1, "draw": 0}
        return {item: (value[answer], reason) for item, (answer, reason) in preferences.items()}

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
