"""The agent task set, generated from LegalSim's own corpora as LegalAgentBench builds its
tasks ("LegalAgentBench: Evaluating LLM Agents in Legal Domain", arXiv 2412.17259, §3.3.2):
a solution path of tool calls is chosen per task type, an entity of the library fills it,
the path is run and the keywords are taken from the observations the tools returned.
``key`` (the paper's ``key_answer``) must be in the final answer, ``key_middle`` are what the
intermediate steps find. A task whose keywords are not all in its path's observations is
dropped, so every key is exactly what a tool returns. The questions come from templates,
not rewritten by a model (the paper's question rewriting and human check are not done).

``generate_agent_tasks`` writes ``agentbench/data/tasks.json``; docs/agent-tasks.md lists
the types.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agentbench.library import ResearchTools, case_public_record

TASKS_FILE = Path(__file__).resolve().parent / "data" / "tasks.json"
ARTICLE_NUMBER = re.compile(r"第[零〇一二三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?|Article \d+")
SENTENCE_END = re.compile(r"[。；\n]")
CLAUSE_END = re.compile(r"[，：；]")
FACTS_SENTENCE_END = re.compile(r"(?<=。)|(?<=\.)\s+")
KEY_MAX_CHARS = 40
CORPUS_LAW_PREFIX = "中华人民共和国"


@dataclass
class Task:
    id: str
    type: str
    question: str
    answer: str
    key: list[str]
    key_middle: list[str]
    path: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self) | {"hops": len(self.path)}


def article_key(text: str) -> str:
    """The keyword of an article's text: its first sentence, or that sentence's first clause
    when the sentence is longer than ``KEY_MAX_CHARS`` (a trailing colon or comma dropped)."""
    sentence = SENTENCE_END.split(text.strip(), maxsplit=1)[0].strip().rstrip("：，、")
    if len(sentence) <= KEY_MAX_CHARS:
        return sentence
    clause = CLAUSE_END.split(sentence, maxsplit=1)[0].strip()
    return clause if len(clause) >= 6 else sentence[:KEY_MAX_CHARS]


def article_number(citation: str) -> str:
    """第六百七十五条 of a citation (Article 712 of an English one); the citation when neither."""
    found = ARTICLE_NUMBER.search(citation)
    return found.group() if found else citation


def facts_sentence(record: dict[str, Any]) -> str:
    facts = record.get("indictment") or (record.get("first_instance") or {}).get("facts_and_reasons") or ""
    return FACTS_SENTENCE_END.split(facts.strip(), maxsplit=1)[0]


def path_observations(tools: ResearchTools, path: list[str]) -> list[str]:
    """What each call of a solution path (``tool[input]`` steps) returns, as JSON text."""
    return [
        tools.call(name, argument.removesuffix("]")) for name, _, argument in (step.partition("[") for step in path)
    ]


def _readable(record: dict[str, Any], tools: ResearchTools) -> list[tuple[int, str, dict[str, Any]]]:
    """(position, citation, article) of each reference of a case the article lookup reads;
    a citation of an article's sub-article (第一百三十三条之一) is left out, as the lookup
    reads it as the article it extends."""
    read = []
    for position, citation in enumerate(case_public_record(record)["legal_references"]):
        if "之" in citation:
            continue
        result = json.loads(tools.call("check_citations", citation)).get("result") or []
        if result and result[0]["exists"]:
            read.append((position, citation, result[0]))
    return read


def _ordinal(position: int) -> str:
    return f"第{position + 1}个"


def _article_tasks(record: dict, tools: ResearchTools) -> Iterator[Task]:
    for position, citation, article in _readable(record, tools):
        key = article_key(article["text"])
        yield Task(
            id=f"article-{record['id']}-{position + 1}",
            type="article",
            question=f"{citation}是怎么规定的？请给出这一条的第一句。",
            answer=f"{citation}：{key}",
            key=[key],
            key_middle=[],
            path=[f"check_citations[{citation}]"],
        )


def _case_header_tasks(record: dict, tools: ResearchTools) -> Iterator[Task]:
    public = case_public_record(record)
    zh = record["language"] == "zh"
    question = (
        f"{public['title']}由哪家法院审理？案号是什么？"
        if zh
        else f"Which court decided {public['title']}, and what is its case number?"
    )
    yield Task(
        id=f"case_header-{record['id']}",
        type="case_header",
        question=question,
        answer=f"{public['court']} {public['case_number']}",
        key=[public["court"], public["case_number"]],
        key_middle=[],
        path=[f"read_case[{public['title']}]"],
    )
    keys = [article_number(citation) for citation in public["legal_references"]]
    question = (
        f"{public['title']}的判决引用了哪些法条？"
        if zh
        else f"Which statute articles does the judgment in {public['title']} cite?"
    )
    yield Task(
        id=f"case_citations-{record['id']}",
        type="case_citations",
        question=question,
        answer="；".join(public["legal_references"]),
        key=list(dict.fromkeys(keys)),
        key_middle=[],
        path=[f"read_case[{public['title']}]"],
    )


def _precedent_tasks(record: dict, tools: ResearchTools) -> Iterator[Task]:
    public, facts = case_public_record(record), facts_sentence(record)
    zh = record["language"] == "zh"
    found = (json.loads(tools.call("search_cases", facts)).get("result") or {}).get("cases") or []
    if not found or found[0]["id"] != record["id"]:
        return
    ask = f"案例库中有这样一个案件：{facts}" if zh else f"The case library holds a case in which: {facts}"
    yield Task(
        id=f"precedent-{record['id']}",
        type="precedent",
        question=ask + ("请找出这个案件，给出案件名称。" if zh else " Find it and give its title."),
        answer=public["title"],
        key=[public["title"]],
        key_middle=[],
        path=[f"search_cases[{facts}]"],
    )
    yield Task(
        id=f"facts_to_case-{record['id']}",
        type="facts_to_case",
        question=ask
        + ("审理该案的是哪家法院？案号是什么？" if zh else " Which court decided it, and what is its case number?"),
        answer=f"{public['title']}：{public['court']} {public['case_number']}",
        key=[public["court"], public["case_number"]],
        key_middle=[public["title"]],
        path=[f"search_cases[{facts}]", f"read_case[{record['id']}]"],
    )
    for position, citation, article in _readable(record, tools):
        number, key = article_number(citation), article_key(article["text"])
        yield Task(
            id=f"facts_to_article-{record['id']}-{position + 1}",
            type="facts_to_article",
            question=f"{ask}该案判决引用的{_ordinal(position)}法条是哪一条？它的第一句是什么？",
            answer=f"{citation}：{key}",
            key=[number, key],
            key_middle=[public["title"], citation],
            path=[f"search_cases[{facts}]", f"read_case[{record['id']}]", f"check_citations[{citation}]"],
        )


def _case_article_tasks(record: dict, tools: ResearchTools) -> Iterator[Task]:
    title = record["title"]
    for position, citation, article in _readable(record, tools):
        number, key = article_number(citation), article_key(article["text"])
        yield Task(
            id=f"case_article-{record['id']}-{position + 1}",
            type="case_article",
            question=f"{title}的判决引用的{_ordinal(position)}法条是哪一条？它的第一句是什么？",
            answer=f"{citation}：{key}",
            key=[number, key],
            key_middle=[citation],
            path=[f"read_case[{title}]", f"check_citations[{citation}]"],
        )


def _statute_search_tasks(record: dict, tools: ResearchTools) -> Iterator[Task]:
    """A consultation question of the case searched in the statute corpus; the keys are the
    articles found that its reference answer or the case's judgment cites (the law's short
    name and the article's number), and the question is dropped when none is."""
    cited = " ".join(case_public_record(record)["legal_references"])
    for number, consultation in enumerate(record.get("consultation") or [], start=1):
        asked = consultation["question"]
        reference = f"{consultation['reference_answer']} {cited}"
        hits = json.loads(tools.call("search_statutes", asked)).get("result") or []
        keys = []
        for hit in hits:
            short = hit["law"].removeprefix(CORPUS_LAW_PREFIX)
            if hit["article"] in reference and short in reference:
                keys += [short, hit["article"]]
        if not keys:
            continue
        yield Task(
            id=f"statute_search-{record['id']}-{number}",
            type="statute_search",
            question=f"{asked}请找出回答这个问题的法条，给出法律名称和条号。",
            answer="；".join(f"《{keys[at]}》{keys[at + 1]}" for at in range(0, len(keys), 2)),
            key=list(dict.fromkeys(keys)),
            key_middle=[],
            path=[f"search_statutes[{asked}]"],
        )


BUILDERS: tuple[Callable[[dict, ResearchTools], Iterator[Task]], ...] = (
    _article_tasks,
    _statute_search_tasks,
    _case_header_tasks,
    _precedent_tasks,
    _case_article_tasks,
)
CHINESE_ONLY = {_article_tasks, _statute_search_tasks, _case_article_tasks}
"""The statute corpus is Chinese: an English case's citations and questions do not reach it."""


def tasks_build(tools: ResearchTools | None = None) -> list[dict[str, Any]]:
    """Every task of the set whose keys its path's observations hold, in a stable order."""
    tools = tools or ResearchTools.demo()
    tasks: list[Task] = []
    for builder in BUILDERS:
        for record in tools.records:
            if builder in CHINESE_ONLY and record["language"] != "zh":
                continue
            tasks += [task for task in builder(record, tools) if _grounded(task, tools)]
    return [task.as_dict() for task in tasks]


def _grounded(task: Task, tools: ResearchTools) -> bool:
    """Every call of the path succeeded and every keyword is in what one returned."""
    observations = path_observations(tools, task.path)
    if not all(json.loads(observation)["ok"] for observation in observations):
        return False
    text = "\n".join(observations)
    return bool(task.key) and all(keyword and keyword in text for keyword in [*task.key, *task.key_middle])


def tasks_write(path: Path = TASKS_FILE) -> list[dict[str, Any]]:
    tasks = tasks_build()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return tasks
