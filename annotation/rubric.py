"""Rubrics as data (the rubric-file contract, docs/design.md section 4): parsing and validation.

A rubric has groups (a family such as stage authenticity) of rows (what a report table
shows: a stage, a role) of items (what is rated). Unknown keys, such as ``anchors`` in the
shipped ``legalworld16``, are kept.

Languages: the rubric's own texts are in its ``language`` (default ``en``). Any object with
texts a person reads (the rubric, a group, a row, an item, an anchor) may carry an optional
``i18n`` map from a language code to the same fields in that language, e.g.
``{"id": "LC.process_coherence", "title": "Process coherence", "i18n": {"zh": {"title":
"流程连贯性"}}}``. ``RubricDefinition.localized(language)`` gives the rubric in a language,
falling back field by field to the rubric's own text; ids, scale and kind never change.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotation.rubric_kind import RUBRIC_KINDS, SCALE, RubricKind
from legalsim.json_input import read_document

RUBRIC_DIR = Path(__file__).resolve().parent / "rubrics"
DEFAULT_RUBRIC = "legalworld16"
BASE_LANGUAGE = "en"
I18N = "i18n"
TRANSLATABLE = {
    "rubric": ("title", "instructions"),
    "group": ("title",),
    "row": ("title",),
    "item": ("title", "description"),
    "anchor": ("text",),
}
"""Where a language map may appear and the fields it may translate."""
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{1,8})*$", re.IGNORECASE)


class RubricError(ValueError):
    """A rubric file that cannot be used; the message names every problem."""


@dataclass(frozen=True)
class RubricRow:
    id: str
    title: str
    group: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class RubricDefinition:
    id: str
    title: str
    scale_min: int
    scale_max: int
    groups: tuple[tuple[str, str], ...]
    rows: tuple[RubricRow, ...]
    data: dict[str, Any]
    kind: RubricKind = SCALE

    @property
    def item_ids(self) -> tuple[str, ...]:
        return tuple(item for row in self.rows for item in row.items)

    def rows_of(self, group: str) -> tuple[RubricRow, ...]:
        return tuple(row for row in self.rows if row.group == group)

    @property
    def language(self) -> str:
        return str(self.data.get("language") or BASE_LANGUAGE)

    @property
    def languages(self) -> tuple[str, ...]:
        """The rubric's own language, then every language some text is translated into."""
        found = dict.fromkeys([self.language.lower()])
        for node, _kind in _translatable_nodes(self.data):
            if isinstance(node.get(I18N), dict):
                found.update(dict.fromkeys(str(code).lower() for code in node[I18N]))
        return tuple(found)

    def without_items(self, items: Collection[str]) -> RubricDefinition:
        """The rubric with ``items`` left out (a row left with none goes too): what is asked
        about a trajectory lacking some stages."""
        if not items:
            return self
        data = copy.deepcopy(self.data)
        for group in data["groups"]:
            for row in group["rows"]:
                row["items"] = [item for item in row["items"] if item["id"] not in items]
            group["rows"] = [row for row in group["rows"] if row["items"]]
        return rubric_parse(data)

    def localized(self, language: str | None) -> RubricDefinition:
        """The rubric with its texts in ``language`` (a Django language code such as
        ``zh-hans`` or a plain ``zh``) where a translation exists, its own text elsewhere;
        without the ``i18n`` maps, so a prompt or a page gets one language only."""
        return rubric_parse(rubric_localize(self.data, language))


def _language_key(translations: dict, language: str | None) -> str | None:
    """The key of ``translations`` for ``language``: the code itself, then its primary
    subtag (``zh-hans`` -> ``zh``), case-insensitively."""
    if not language:
        return None
    wanted = language.lower().replace("_", "-")
    keys = {str(key).lower(): key for key in translations}
    for candidate in (wanted, wanted.split("-", 1)[0]):
        if candidate in keys:
            return keys[candidate]
    primary = wanted.split("-", 1)[0]
    return next((key for lowered, key in keys.items() if lowered.split("-", 1)[0] == primary), None)


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _translatable_nodes(data: Any):
    """(object, kind) of every object of a rubric document that may carry an ``i18n`` map."""
    if not isinstance(data, dict):
        return
    yield data, "rubric"
    for group in filter(lambda node: isinstance(node, dict), _list(data.get("groups"))):
        yield group, "group"
        for row in filter(lambda node: isinstance(node, dict), _list(group.get("rows"))):
            yield row, "row"
            yield from ((item, "item") for item in _list(row.get("items")) if isinstance(item, dict))
    anchors = data.get("anchors")
    for entries in anchors.values() if isinstance(anchors, dict) else []:
        yield from ((anchor, "anchor") for anchor in _list(entries) if isinstance(anchor, dict))


def rubric_localize(data: dict[str, Any], language: str | None) -> dict[str, Any]:
    """A copy of a rubric document in ``language`` (see the module's docstring)."""
    localized = copy.deepcopy(data)
    base = str(data.get("language") or BASE_LANGUAGE)
    chosen, wanted_is_base = base, _language_key({base: None}, language) is not None
    for node, kind in _translatable_nodes(localized):
        translations = node.pop(I18N, None)
        if not isinstance(translations, dict) or wanted_is_base:
            continue
        key = _language_key(translations, language)
        if key is None or not isinstance(translations[key], dict):
            continue
        chosen = str(key)
        for field_name in TRANSLATABLE[kind]:
            text = translations[key].get(field_name)
            if isinstance(text, str) and text.strip():
                node[field_name] = text
    localized["language"] = chosen
    return localized


def _i18n_problems(node: dict[str, Any], where: str, kind: str, base: str) -> list[str]:
    translations = node.get(I18N)
    if translations is None:
        return []
    at = f"{where}.{I18N}" if where else I18N
    if not isinstance(translations, dict):
        return [f"{at}: must be an object from language codes to translated fields"]
    problems = []
    fields = TRANSLATABLE[kind]
    for code, texts in translations.items():
        if not LANGUAGE_CODE.match(str(code)):
            problems.append(f"{at}.{code}: is not a language code (such as zh or en)")
        elif str(code).lower() == base.lower():
            problems.append(f"{at}.{code}: is the rubric's own language ({base}); translate into another one")
        elif not isinstance(texts, dict):
            problems.append(f"{at}.{code}: must be an object with {', '.join(fields)}")
        else:
            for field_name, text in texts.items():
                if field_name not in fields:
                    problems.append(f"{at}.{code}.{field_name}: cannot be translated here (only {', '.join(fields)})")
                elif not _text(text):
                    problems.append(f"{at}.{code}.{field_name}: must be a non-empty string")
    return problems


def _languages_problems(data: dict[str, Any]) -> list[str]:
    """Every problem of the rubric's ``language`` and ``i18n`` maps, each with its place."""
    base = data.get("language", BASE_LANGUAGE)
    if not isinstance(base, str) or not LANGUAGE_CODE.match(base):
        return ['language: must be a language code such as "en" or "zh"']
    problems = _i18n_problems(data, "", "rubric", base)
    for g_index, group in enumerate(_list(data.get("groups"))):
        if not isinstance(group, dict):
            continue
        problems += _i18n_problems(group, f"groups[{g_index}]", "group", base)
        for r_index, row in enumerate(_list(group.get("rows"))):
            if not isinstance(row, dict):
                continue
            problems += _i18n_problems(row, f"groups[{g_index}].rows[{r_index}]", "row", base)
            for i_index, item in enumerate(_list(row.get("items"))):
                if isinstance(item, dict):
                    where = f"groups[{g_index}].rows[{r_index}].items[{i_index}]"
                    problems += _i18n_problems(item, where, "item", base)
    anchors = data.get("anchors")
    for group_id, entries in anchors.items() if isinstance(anchors, dict) else []:
        for a_index, anchor in enumerate(_list(entries)):
            if isinstance(anchor, dict):
                problems += _i18n_problems(anchor, f"anchors.{group_id}[{a_index}]", "anchor", base)
    return problems


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def rubric_parse(data: Any) -> RubricDefinition:
    """Validate a rubric document and return its definition, or raise ``RubricError``."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise RubricError("rubric: must be a JSON object")
    for key, limit in (("id", 100), ("title", 300)):
        if not _text(data.get(key)):
            problems.append(f"{key}: is required and must be a non-empty string")
        elif len(data[key]) > limit:
            problems.append(f"{key}: must be at most {limit} characters")
    problems += _languages_problems(data)
    kind_name = data.get("kind", SCALE.name)
    kind = RUBRIC_KINDS.get(kind_name) if isinstance(kind_name, str) else None
    if kind is None:
        problems.append(f"kind: must be {' or '.join(map(repr, RUBRIC_KINDS))}")
    scale_problem = (kind or SCALE).scale_problem(data.get("scale"))
    if scale_problem:
        problems.append(scale_problem)
    groups, rows, seen = [], [], set()
    if not isinstance(data.get("groups"), list) or not data["groups"]:
        problems.append("groups: must be a non-empty list")
    for g_index, group in enumerate(data.get("groups") or []):
        where = f"groups[{g_index}]"
        if not isinstance(group, dict) or not _text(group.get("id")) or not isinstance(group.get("rows"), list):
            problems.append(f"{where}: needs an id and a list of rows")
            continue
        groups.append((group["id"], str(group.get("title") or group["id"])))
        for r_index, row in enumerate(group["rows"]):
            row_where = f"{where}.rows[{r_index}]"
            if (
                not isinstance(row, dict)
                or not _text(row.get("id"))
                or not isinstance(row.get("items"), list)
                or not row["items"]
            ):
                problems.append(f"{row_where}: needs an id and a non-empty list of items")
                continue
            item_ids = []
            for i_index, item in enumerate(row["items"]):
                item_id = item.get("id") if isinstance(item, dict) else None
                if not _text(item_id):
                    problems.append(f"{row_where}.items[{i_index}]: needs an id")
                elif len(item_id) > 100:
                    problems.append(f"{row_where}.items[{i_index}]: an id must be at most 100 characters")
                elif item_id in seen:
                    problems.append(f"{row_where}.items[{i_index}]: duplicate item id {item_id!r}")
                else:
                    seen.add(item_id)
                    item_ids.append(item_id)
            rows.append(RubricRow(row["id"], str(row.get("title") or row["id"]), group["id"], tuple(item_ids)))
    if problems:
        raise RubricError("; ".join(problems))
    scale = kind.scale_of(data.get("scale"))
    return RubricDefinition(
        id=data["id"],
        title=data["title"],
        scale_min=scale["min"],
        scale_max=scale["max"],
        groups=tuple(groups),
        rows=tuple(rows),
        data=data,
        kind=kind,
    )


def rubric_load(path: Path) -> RubricDefinition:
    data, problems = read_document(path)
    if problems:
        raise RubricError("; ".join(str(problem) for problem in problems))
    try:
        return rubric_parse(data)
    except RubricError as error:
        raise RubricError(f"{path}: {error}") from None
