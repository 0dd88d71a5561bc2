"""The LLM judge: the rubric through the ``openai`` client (legalworld.txt 4.2, D.3).

A reply that does not parse gets one regeneration with a stricter "JSON only" prompt; if
that fails too, the trajectory is flagged for audit and no score of it is stored, so it
stays out of every aggregate. Transport failures are retried by ``LLMClient`` as usual.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from annotation.rubric import RubricDefinition
from trials.agents.llm import LLMCall, LLMClient

STRICT = "Return JSON only: no prose, no Markdown, nothing before or after the JSON object."


@dataclass(frozen=True)
class Judgment:
    scores: dict[str, tuple[int, str]] | None
    problem: str
    reply: str
    tokens: int


def judge_messages(rubric: RubricDefinition, trajectory: dict, *, strict: bool) -> list[dict[str, str]]:
    items = [
        {"id": item["id"], "title": item["title"], "description": item.get("description", "")}
        for group in rubric.data["groups"]
        for row in group["rows"]
        for item in row["items"]
    ]
    schema = '{"scores": {"ITEM_ID": {"score": INTEGER, "reason": "one or two sentences"}, ...}}'
    system = (
        "You are an expert evaluator of simulated litigation. Read the whole trajectory stage by stage and "
        f"score every rubric item with an integer from {rubric.scale_min} to {rubric.scale_max}.\n"
        f"Items: {json.dumps(items, ensure_ascii=False)}\n"
        f"Anchors: {json.dumps(rubric.data.get('anchors', {}), ensure_ascii=False)}\n"
        f"Answer with {schema}" + (f"\n{STRICT}" if strict else "")
    )
    stages = []
    for stage in trajectory["stages"]:
        lines = [f"## {stage['stage']}"]
        lines += [
            f"[{turn['seq']}] {turn['speaker']} ({turn['role']}, {turn['phase']}): {turn['text']}"
            for turn in stage["turns"]
        ]
        lines += [f"### {artifact['title']}\n{artifact['text']}" for artifact in stage["artifacts"]]
        stages.append("\n".join(lines))
    user = f"# {trajectory['title']}\n\n" + "\n\n".join(stages) + (f"\n\n{STRICT}" if strict else "")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse_scores(text: str, rubric: RubricDefinition) -> dict[str, tuple[int, str]]:
    """Every item scored with an integer on the scale, or ValueError naming what is wrong."""
    start, end = text.find("{"), text.rfind("}")
    data = json.loads(text[start : end + 1]) if start >= 0 else json.loads(text)
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
    reply, tokens, problem = "", 0, ""
    for strict in (False, True):
        result, _ = client.complete(LLMCall(model, judge_messages(rubric, trajectory, strict=strict), temperature=0.0))
        reply, tokens = result.text, tokens + result.prompt_tokens + result.completion_tokens
        try:
            return Judgment(parse_scores(reply, rubric), "", reply, tokens)
        except (ValueError, KeyError, TypeError) as error:
            problem = f"reply does not follow the rubric's JSON ({type(error).__name__}: {error})"
    return Judgment(None, problem, reply, tokens)
