"""``benchmarks/real_data.py`` on STARD's released files (a slice of them, with its licence)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchmarks.real_data import stard

STARD = Path(__file__).resolve().parents[1] / "agents" / "tools" / "stard_slice"


def test_stards_questions_and_split_lines_are_all_read():
    read, refused, rows = stard(STARD)
    assert (read, refused) == (5 + 4 + 10, 0)
    figures = {figure: reproduced for figure, reproduced, _ in rows}
    assert figures["questions read (data/queries.json)"] == "5"
    assert figures["train / dev questions"] == "2 / 3"
    assert figures["qrels lines read: train / dev"] == "4 / 10"


def test_a_qrels_line_naming_an_article_its_question_does_not_list_is_refused(tmp_path):
    copy = shutil.copytree(STARD, tmp_path / "stard")
    dev = copy / "data" / "example" / "qrels.dev.tsv"
    dev.write_text(dev.read_text(encoding="utf-8") + "1\t999999\n", encoding="utf-8")
    read, refused, _ = stard(copy)
    assert (read, refused) == (19, 1)
