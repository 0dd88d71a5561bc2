"""Reflective Legal Skill notes (LegalWorld section 4.6 and Table 4; docs/sources.md).

After a finished trial the lawyer's model turns the trajectory into a candidate rule; a
candidate is kept only if it names a trigger condition, a role and stage scope, a procedural
correction principle and an expected-output constraint, and does not restate a note of the
same cause already kept. A kept note is an extra skill of the target lawyer in later cases of
the same cause of action, loaded like a skill card while its stage is running.

This module knows nothing of the database: notes travel as plain values, so a trial stores the
notes it was given and a resumed trial prompts with the very same words.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass

from court.engine.visibility import SeatView

NOTE_FIELDS = ("trigger", "role", "stages", "principle", "expected_output")
OVERLAP_LIMIT = 0.5
"""A candidate whose words overlap a kept note of its cause this much (Jaccard) restates it."""


@dataclass(frozen=True)
class SkillNote:
    """One reusable rule, as a trial's prompts carry it."""

    id: int
    role: str
    stages: tuple[str, ...]
    trigger: str
    principle: str
    expected_output: str
    source_case: str = ""

    def applies(self, view: SeatView) -> bool:
        return view.role == self.role and (view.stage in self.stages or "*" in self.stages)

    def render(self, language: str) -> str:
        if language == "zh":
            return (
                f"### 反思技能笔记 {self.id}\n适用情形：{self.trigger}\n"
                f"程序纠正原则：{self.principle}\n产出要求：{self.expected_output}"
            )
        return (
            f"### Reflective skill note {self.id}\nWhen: {self.trigger}\n"
            f"Procedural correction: {self.principle}\nExpected output: {self.expected_output}"
        )

    def as_dict(self) -> dict:
        return asdict(self) | {"stages": list(self.stages)}

    @classmethod
    def from_dict(cls, data: dict) -> SkillNote:
        return cls(**{**data, "stages": tuple(data["stages"])})


def notes_text(view: SeatView, notes: tuple[SkillNote, ...]) -> str:
    """The notes that apply to this seat in this stage, as the system prompt carries them."""
    return "\n\n".join(note.render(view.language) for note in notes if note.applies(view))


@dataclass(frozen=True)
class Candidate:
    """What the model proposed, checked field by field."""

    trigger: str
    role: str
    stages: tuple[str, ...]
    principle: str
    expected_output: str

    def words(self) -> str:
        return f"{self.trigger} {self.principle} {self.expected_output}"


class CandidateRejected(ValueError):
    """Why a candidate is dropped; the message is shown to whoever ran the reflection."""


def candidate_read(text: str, *, roles: tuple[str, ...], stages: tuple[str, ...]) -> Candidate:
    """The candidate in a model's reply: the first JSON object in it, with every field the
    paper requires present and in scope. Raises ``CandidateRejected`` naming what is wrong."""
    found = re.search(r"\{.*\}", text or "", re.DOTALL)
    if found is None:
        raise CandidateRejected("no JSON object in the reply")
    try:
        data = json.loads(found.group(0))
    except json.JSONDecodeError as error:
        raise CandidateRejected(f"the reply's JSON is malformed: {error.msg}") from None
    if not isinstance(data, dict):
        raise CandidateRejected("the reply's JSON is not an object")
    missing = [name for name in NOTE_FIELDS if not data.get(name)]
    if missing:
        raise CandidateRejected(f"missing {', '.join(missing)}")
    scope = data["stages"] if isinstance(data["stages"], list) else [data["stages"]]
    texts = {name: data[name] for name in ("trigger", "role", "principle", "expected_output")}
    if not all(isinstance(value, str) and value.strip() for value in texts.values()):
        raise CandidateRejected("trigger, role, principle and expected_output must be text")
    if data["role"] not in roles:
        raise CandidateRejected(f"role {data['role']!r} is not one of {', '.join(roles)}")
    unknown = [str(stage) for stage in scope if stage not in stages]
    if unknown:
        raise CandidateRejected(f"stage {', '.join(unknown)} is not a stage of this procedure")
    return Candidate(
        trigger=data["trigger"].strip(),
        role=data["role"],
        stages=tuple(scope),
        principle=data["principle"].strip(),
        expected_output=data["expected_output"].strip(),
    )


def overlap(first: str, second: str) -> float:
    """Jaccard overlap of two texts' word sets (English words, Chinese character pairs)."""
    one, other = _words(first), _words(second)
    return len(one & other) / len(one | other) if one | other else 0.0


def _words(text: str) -> set[str]:
    lowered = text.lower()
    words = set(re.findall(r"[a-z0-9]+", lowered))
    for run in re.findall(r"[\u4e00-\u9fff]+", lowered):
        words |= {run[index : index + 2] for index in range(max(len(run) - 1, 1))}
    return words


@dataclass(frozen=True)
class TrajectorySummary:
    """What the lawyer reflects on: only what its seat saw and did, and its scores (numbers
    only: a scorer's reasons may quote the real judgment, which the seat never saw)."""

    materials: str
    actions: tuple[str, ...]
    documents: tuple[str, ...]
    scores: dict[str, float]
    kept_triggers: tuple[str, ...]


def reflection_messages(
    summary: TrajectorySummary, *, language: str, role: str, stages: tuple[str, ...]
) -> list[dict[str, str]]:
    """The post-case reflection prompt of section 4.6: summarise the finished trajectory into
    one reusable rule, answered as a JSON object with the fields ``candidate_read`` checks."""
    zh = language == "zh"
    scores = json.dumps(summary.scores, ensure_ascii=False)
    kept = "\n".join(f"- {trigger}" for trigger in summary.kept_triggers) or ("（无）" if zh else "(none)")
    sections = (
        summary.materials,
        ("# 你的行为\n" if zh else "# Your actions\n") + "\n".join(summary.actions),
        ("# 你提交的文书\n" if zh else "# Documents you filed\n") + "\n\n".join(summary.documents),
        ("# 评分（0-1）\n" if zh else "# Scores (0-1)\n") + scores,
        ("# 本案由已有的技能笔记（不要重复）\n" if zh else "# Notes this cause already has (do not repeat)\n") + kept,
    )
    fields = f'{{"trigger": "...", "role": "{role}", "stages": {json.dumps(list(stages))}, "principle": "...", "expected_output": "..."}}'
    task = (
        "案件已经结束。请回顾以上全过程，总结出一条今后同类案由案件可以复用的程序性规则，只输出一个 JSON 对象："
        f"{fields}。trigger 写明触发条件，stages 从 {', '.join(stages)} 中选择适用阶段，principle 写程序纠正原则，"
        "expected_output 写对产出的要求。"
        if zh
        else "The case is over. Reflect on the whole trajectory above and write one procedural rule that later "
        f"cases of the same cause of action can reuse. Answer with one JSON object only: {fields}. trigger: when "
        f"the rule applies; stages: the stages it applies in, among {', '.join(stages)}; principle: the procedural "
        "correction; expected_output: what the output must then contain."
    )
    system = (
        f"你是本案的律师（{role}），正在做结案复盘。"
        if zh
        else f"You are the {role} of this case, reflecting after it ended."
    )
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": "\n\n".join(sections) + ("\n\n# 任务\n" if zh else "\n\n# Task\n") + task},
    ]
