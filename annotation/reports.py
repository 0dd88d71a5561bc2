"""Rendering agreement reports (scale and pairwise rubrics) as JSON, CSV, XLSX or a self-contained
HTML page."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import numpy as np
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import get_language, gettext

from annotation.agreement import AgreementResult
from annotation.models import Rubric, Study
from annotation.pairwise import FIGURES as PAIRWISE_FIGURES
from annotation.pairwise import pairwise_report
from annotation.report_notes import notes_shown
from annotation.rubric import RubricDefinition
from annotation.selectors import agreement_build, ratings_frame, reason_bands
from legalsim.spreadsheet import CsvDictWriter, xlsx_append

FORMATS = ("json", "csv", "xlsx", "html")
ROW_FIELDS = ("n_pairs", "human_avg", "llm_avg", "mean_diff", "sd_diff", "mae", "within1_pct")
ITEM_FIELDS = (
    "pearson",
    "spearman",
    "qwk",
    "krippendorff_alpha_interval",
    "icc_1_1",
    "icc_1_k",
    "n_trajectories",
    "n_raters",
)
INTERVAL_FIELDS = (*ROW_FIELDS[1:], *ITEM_FIELDS[:-2])
INTERVAL_COLUMNS = tuple(f"{name}_ci_{end}" for name in INTERVAL_FIELDS for end in ("low", "high"))
HUMAN_FIELDS = ("human_mean", "n_human_scores", "n_human_raters", "n_units_shared", "icc_k")
"""The people's figures of every line, judge or no judge (``agreement._inter_rater``); with
alpha and the ICCs (``ITEM_FIELDS``), which every line now has, not only items. Their columns
follow the older ones, so a reader of the older columns finds them where they were."""
TABLE_COLUMNS = (
    "level",
    "group",
    "id",
    *ROW_FIELDS,
    "n_na",
    *ITEM_FIELDS,
    "subdims",
    *INTERVAL_COLUMNS,
    *HUMAN_FIELDS,
    "human_mean_ci_low",
    "human_mean_ci_high",
)
RETEST_LEVELS = (("test_retest", "overall"), ("test_retest_item", "items"), ("test_retest_rater", "raters"))
"""The test-retest lines of the table (level, key of the report's ``test_retest``); their
figures fill the columns of the same names (``annotation.retest.FIGURES``)."""
VARIANTS = ("without_flagged", "adjudicated")
"""A study report's figures again without its flagged raters and with its adjudicated items
at their resolved scores (``selectors.agreement_build``): their lines follow the others in
the table, their level prefixed (``without_flagged_row``, ``adjudicated_overall``...)."""
ADJUDICATION_COLUMNS = ("trajectory_id", "item", "raw_scores", "adjudicated_score", "reason", "adjudicator")
RELIABILITY_INTERVAL_MIN = 10
"""The fewest trajectories rated by two or more people for which the report pages show the
bootstrap intervals of alpha and the ICCs. The bootstrap resamples trajectories, and from a
handful its intervals say nothing: with two raters ICC(1,k) = 2r / (1 + r) runs to minus
infinity as a resample's ICC(1,1) r nears -1 (three trajectories gave [-58.000, -1.250]). The
figures themselves are shown, and the data files (JSON, CSV, XLSX) keep every interval."""


def _figure_lines(figures: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(level, group, line) of a report's rows, group overalls, overall and items, in order."""
    for group in figures["groups"]:
        for row in group["rows"]:
            yield "row", group["id"], row
        yield "group", group["id"], group["overall"]
    yield "overall", "", figures["overall"]
    for item in figures["items"]:
        yield "item", "", item


def table_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every row of the report flattened into one table: rows, group overalls, overall, items,
    then the test-retest lines and the lines of the variants when there are any."""
    table = [_flat(level, group, line) for level, group, line in _figure_lines(report)]
    retest = report.get("test_retest")
    for level, key in RETEST_LEVELS if retest else ():
        lines = retest[key] if isinstance(retest[key], list) else [retest[key]]
        table.extend(_flat(level, "", line) for line in lines)
    for variant in VARIANTS:
        if report.get(variant):
            table.extend(
                _flat(f"{variant}_{level}", group, line) for level, group, line in _figure_lines(report[variant])
            )
    return table


def adjudication_rows(report: dict[str, Any]) -> list[list[Any]]:
    """The adjudicated items of a study's report, the raters' raw scores beside the resolved one."""
    return [
        [
            entry["trajectory_id"],
            entry["item"],
            "; ".join(f"{rater}={score:g}" for rater, score in entry["scores"].items()),
            entry["adjudicated_score"],
            entry["reason"],
            entry["adjudicator"],
        ]
        for entry in report.get("adjudications") or []
    ]


def _flat(level: str, group: str, row: dict[str, Any]) -> dict[str, Any]:
    flat = {"level": level, "group": group, "id": row["id"]}
    flat |= {key: row.get(key) for key in (*ROW_FIELDS, "n_na", *ITEM_FIELDS, *HUMAN_FIELDS)}
    flat["subdims"] = "; ".join(
        f"{item}={value!r}" for item, value in row.get("subdims", {}).items() if value is not None
    )
    intervals = row.get("ci95") or {}
    for name in (*INTERVAL_FIELDS, "human_mean"):
        interval = intervals.get(name) or (None, None)
        flat[f"{name}_ci_low"], flat[f"{name}_ci_high"] = interval
    return flat


def render_json(result: AgreementResult, rubric: RubricDefinition, reasons: list | None = None) -> bytes:
    return json.dumps(result.report, ensure_ascii=False, indent=2).encode()


def render_csv(result: AgreementResult, rubric: RubricDefinition, reasons: list | None = None) -> bytes:
    buffer = io.StringIO()
    writer = CsvDictWriter(buffer, fieldnames=TABLE_COLUMNS)
    writer.writeheader()
    for row in table_rows(result.report):
        writer.writerow({key: "" if value is None else value for key, value in row.items()})
    return buffer.getvalue().encode()


def render_xlsx(result: AgreementResult, rubric: RubricDefinition, reasons: list | None = None) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "agreement"
    xlsx_append(sheet, list(TABLE_COLUMNS))
    for row in table_rows(result.report):
        xlsx_append(sheet, [row[key] for key in TABLE_COLUMNS])
    notes = workbook.create_sheet("notes")
    if result.report.get("study"):
        xlsx_append(notes, ["study", result.report["study"]])
    xlsx_append(notes, ["rubric", result.report["rubric"]])
    xlsx_append(notes, ["judge", result.report["judge"]])
    for rater in result.report.get("flagged_raters") or []:
        xlsx_append(notes, ["flagged rater", rater])
    for note in result.report["notes"]:
        xlsx_append(notes, ["note", note])
    if result.report.get("adjudications"):
        adjudications = workbook.create_sheet("adjudications")
        xlsx_append(adjudications, list(ADJUDICATION_COLUMNS))
        for row in adjudication_rows(result.report):
            xlsx_append(adjudications, row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def histogram_svg(values: np.ndarray, *, low: float, high: float, title: str) -> str:
    """A bar chart of integer-binned values between ``low`` and ``high``, as inline SVG; the
    page inlines it unescaped, so the one text it embeds, the title, is escaped here."""
    edges = np.arange(np.floor(low) - 0.5, np.ceil(high) + 1.5)
    counts, _ = np.histogram(values, bins=edges)
    width, height, pad = 560, 220, 30
    bar = (width - 2 * pad) / max(len(counts), 1)
    peak = max(int(counts.max()) if counts.size else 0, 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f'<text x="{pad}" y="16" font-size="13">{escape(title)}</text>',
    ]
    for index, count in enumerate(counts):
        bar_height = (height - 2 * pad - 24) * count / peak
        x = pad + index * bar
        y = height - pad - bar_height
        label = int(edges[index] + 0.5)
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar * 0.85:.1f}" height="{bar_height:.1f}" fill="#1d4ed8"><title>{label}: {count}</title></rect>'
        )
        if count:
            parts.append(
                f'<text class="count" x="{x + bar * 0.42:.1f}" y="{y - 4:.1f}" font-size="10" text-anchor="middle">{count}</text>'
            )
        parts.append(
            f'<text x="{x + bar * 0.42:.1f}" y="{height - pad + 14}" font-size="10" text-anchor="middle">{label}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def report_context(
    result: AgreementResult, rubric: RubricDefinition, reasons: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """What the report page shows: Table 1 per group, items, difference and score plots, and
    the human reasons by score band when given."""
    report = result.report
    titles, item_titles = report_titles(rubric)
    dimensions = {}
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        names = list(dict.fromkeys(item.split(".", 1)[-1] for row in rows for item in row.items))
        dimension_titles = {item.split(".", 1)[-1]: item_titles[item] for row in rows for item in row.items}
        dimensions[group_id] = {
            "title": titles[group_id],
            "names": names,
            "titles": [{"id": name, "title": dimension_titles[name]} for name in names],
        }
    groups = []
    for group in report["groups"]:
        names = dimensions[group["id"]]["names"]
        lines = [*group["rows"], group["overall"]]
        groups.append(
            {
                "id": group["id"],
                "title": dimensions[group["id"]]["title"],
                "dimensions": dimensions[group["id"]]["titles"],
                "lines": [
                    {
                        "row": line,
                        "title": titles.get(line["id"], line["id"]),
                        "dims": [_dimension_mean(line, name) for name in names],
                    }
                    for line in lines
                ],
            }
        )
    for band in reasons or []:
        for entry in band["items"]:
            entry["title"] = titles.get(entry["item"], entry["item"])
    span = rubric.scale_max - rubric.scale_min
    shared = shared_trajectories(report)
    return {
        "report": report
        | {"items": [item | {"title": titles.get(item["id"], item["id"])} for item in report["items"]]},
        "retest": _retest_lines(report.get("test_retest"), titles),
        "groups": groups,
        "difference_svg": histogram_svg(
            result.pairs.difference, low=-span, high=span, title=gettext("Human minus LLM, per pair")
        ),
        "human_svg": histogram_svg(
            result.human_scores,
            low=rubric.scale_min,
            high=rubric.scale_max,
            title=gettext("Human scores, every rating"),
        ),
        "llm_svg": histogram_svg(
            result.pairs.llm, low=rubric.scale_min, high=rubric.scale_max, title=gettext("LLM judge scores in pairs")
        ),
        "notes": notes_shown(report["notes"], titles, item_titles),
        "variants": _variant_lines(report, titles),
        "adjudications": [
            entry | {"title": titles.get(entry["item"], entry["item"])} for entry in report.get("adjudications") or []
        ],
        "difference_mean": float(result.pairs.difference.mean()) if result.pairs.difference.size else None,
        "difference_sd": float(result.pairs.difference.std(ddof=1)) if result.pairs.difference.size > 1 else None,
        "reasons": reasons,
        "shared_trajectories": shared,
        "reliability_intervals": shared >= RELIABILITY_INTERVAL_MIN,
        "reliability_interval_min": RELIABILITY_INTERVAL_MIN,
    }


def shared_trajectories(report: dict[str, Any]) -> int:
    """How many trajectories two or more people rated (an item's units are its trajectories)."""
    return max((item.get("n_units_shared") or 0 for item in report["items"]), default=0)


def _variant_lines(report: dict[str, Any], titles: dict[str, str]) -> list[dict[str, Any]]:
    """The report page's comparison of a study's figures: per row, group and overall, the raw
    line beside the line without the flagged raters and the adjudicated one (``None`` where
    the study has no such variant); empty when it has neither."""
    if not any(report.get(variant) for variant in VARIANTS):
        return []
    variants = [
        {(level, line["id"]): line for level, _group, line in _figure_lines(report[variant])}
        if report.get(variant)
        else {}
        for variant in VARIANTS
    ]
    return [
        {"title": titles.get(line["id"], line["id"]), "level": level, "raw": line}
        | {variant: lines.get((level, line["id"])) for variant, lines in zip(VARIANTS, variants, strict=True)}
        for level, _group, line in _figure_lines(report)
        if level != "item"
    ]


def _retest_lines(retest: dict[str, Any] | None, titles: dict[str, str]) -> list[dict[str, Any]]:
    """The test-retest table of a report page: per rater, per item, then overall, titled."""
    if not retest:
        return []
    lines = [line | {"title": line["id"]} for line in retest["raters"]]
    lines += [line | {"title": titles.get(line["id"], line["id"])} for line in retest["items"]]
    return [*lines, retest["overall"] | {"title": gettext("Overall"), "overall": True}]


def report_titles(rubric: RubricDefinition) -> tuple[dict[str, str], dict[str, str]]:
    """What a report page calls its lines, in the interface language: a group, a row, a
    group's overall line (``GROUP.overall``), the overall line and an item (its row and
    title), by id; and the items' own titles. Ids stay the keys of the data."""
    local = rubric.localized(get_language())
    titles = {"overall": gettext("Overall")}
    for group_id, title in local.groups:
        titles[group_id] = title
        titles[f"{group_id}.overall"] = gettext("%(group)s: overall") % {"group": title}
    rows = {row.id: row.title for row in local.rows}
    titles |= rows
    item_titles = {}
    for group in local.data["groups"]:
        for row in group["rows"]:
            for item in row["items"]:
                item_titles[item["id"]] = item["title"]
                titles[item["id"]] = f"{rows[row['id']]} · {item['title']}"
    return titles, item_titles


def _dimension_mean(row: dict[str, Any], dimension: str) -> float | None:
    values = [
        value for item, value in row["subdims"].items() if item.split(".", 1)[-1] == dimension and value is not None
    ]
    return sum(values) / len(values) if values else None


def render_html(result: AgreementResult, rubric: RubricDefinition, reasons: list | None = None) -> bytes:
    return render_to_string("annotation/agreement_report.html", report_context(result, rubric, reasons)).encode()


RENDERERS = {"json": render_json, "csv": render_csv, "xlsx": render_xlsx, "html": render_html}


PAIRWISE_COLUMNS = ("level", "group", "id", "n_answers", *PAIRWISE_FIGURES)
PAIRWISE_TABLE = (
    *PAIRWISE_COLUMNS,
    *(f"{name}_ci_{end}" for name in PAIRWISE_FIGURES for end in ("low", "high")),
)


def pairwise_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every line of a pairwise report (rows, group overalls, overall, items) flattened."""
    lines = [line for group in report["groups"] for line in (*group["rows"], group["overall"])]
    lines += [report["overall"], *report["items"]]
    table = []
    for line in lines:
        flat = {key: line[key] for key in PAIRWISE_COLUMNS}
        for name in PAIRWISE_FIGURES:
            flat[f"{name}_ci_low"], flat[f"{name}_ci_high"] = line["ci95"].get(name) or (None, None)
        table.append(flat)
    return table


def _pairwise_csv(report: dict[str, Any], rubric: RubricDefinition) -> bytes:
    buffer = io.StringIO()
    writer = CsvDictWriter(buffer, fieldnames=PAIRWISE_TABLE)
    writer.writeheader()
    for row in pairwise_rows(report):
        writer.writerow({key: "" if value is None else value for key, value in row.items()})
    return buffer.getvalue().encode()


def _pairwise_xlsx(report: dict[str, Any], rubric: RubricDefinition) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "pairwise"
    xlsx_append(sheet, list(PAIRWISE_TABLE))
    for row in pairwise_rows(report):
        xlsx_append(sheet, [row[key] for key in PAIRWISE_TABLE])
    notes = workbook.create_sheet("notes")
    for key in ("rubric", "judge", "units"):
        xlsx_append(notes, [key, report[key]])
    for note in report["notes"]:
        xlsx_append(notes, ["note", note])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def pairwise_context(report: dict[str, Any], rubric: RubricDefinition) -> dict[str, Any]:
    """SimCourt's Table 3 layout: per group, its items with the majority shares, then the
    agreement figures; item titles from the rubric."""
    titles, item_titles = report_titles(rubric)
    items = {line["id"]: line for line in report["items"]}
    groups = [
        {
            "title": titles[group_id],
            "rows": [
                {"title": titles[row.id], "items": [items[item] | {"title": item_titles[item]} for item in row.items]}
                for row in rubric.rows_of(group_id)
            ],
        }
        for group_id, _title in rubric.groups
    ]
    summary = [line for group in report["groups"] for line in (*group["rows"], group["overall"])]
    summary = [line | {"title": titles.get(line["id"], line["id"])} for line in [*summary, report["overall"]]]
    return {
        "report": report,
        "pairwise_groups": groups,
        "summary": summary,
        "notes": notes_shown(report["notes"], titles, item_titles),
    }


def _pairwise_html(report: dict[str, Any], rubric: RubricDefinition) -> bytes:
    return render_to_string("annotation/pairwise_report.html", pairwise_context(report, rubric)).encode()


PAIRWISE_RENDERERS = {
    "json": lambda report, rubric: json.dumps(report, ensure_ascii=False, indent=2).encode(),
    "csv": _pairwise_csv,
    "xlsx": _pairwise_xlsx,
    "html": _pairwise_html,
}


def report_file(
    *, rubric: Rubric, judge: str | None, study: Study | None, fmt: str, replicates: int
) -> tuple[bytes, dict[str, Any]]:
    """A rubric's (or a study's) report in ``fmt`` and a summary of it: scale rubrics get the
    agreement report, pairwise rubrics the pairwise one. Raises ``AgreementError``."""
    definition = rubric.definition
    if definition.kind.is_pairwise:
        frame = ratings_frame(rubric_id=rubric.pk, study=study)
        report = pairwise_report(rubric=definition, frame=frame, judge=judge, replicates=replicates)
        return PAIRWISE_RENDERERS[fmt](report, definition), {
            "judge": report["judge"],
            "answers": report["overall"]["n_answers"],
        }
    result = agreement_build(rubric=rubric, judge=judge, study=study, replicates=replicates)
    if study is not None:
        result.report["study"] = study.name
    reasons = reason_bands(rubric=rubric, study=study) if fmt == "html" else None
    return RENDERERS[fmt](result, definition, reasons), {
        "judge": result.report["judge"],
        "pairs": result.report["overall"]["n_pairs"],
        "human_scores": result.report["overall"]["n_human_scores"],
    }
