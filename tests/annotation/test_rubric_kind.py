"""The kinds of rubric and the pair a pairwise rubric rates (issue #34 item 4): a pair keeps
its stored text, every answer counts for the trajectory preferred whichever order it was seen
in, and a rubric file keeps its ``kind`` as written."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotation.judge import pair_judge
from annotation.rubric import RUBRIC_DIR, RubricError, rubric_load, rubric_parse
from annotation.rubric_kind import PAIRWISE, RUBRIC_KINDS, SCALE, Pair
from legalsim.llm import LLMClient

SIMCOURT = rubric_load(RUBRIC_DIR / "simcourt30.json")
LEGALWORLD = rubric_load(RUBRIC_DIR / "legalworld16.json")
IDS = st.text(min_size=1, max_size=40).filter(lambda text: Pair.SEPARATOR not in text)


@given(IDS, IDS)
def test_a_pair_reads_back_from_the_text_it_is_stored_as(first, second):
    pair = Pair(first, second)
    assert Pair.parse(str(pair)) == pair
    assert str(pair) == f"{first}|{second}", "the stored text, ratings files included, is FIRST|SECOND"


@pytest.mark.parametrize("text", ["solo", "a|", "|b", "a|b|c", ""])
def test_text_that_is_not_two_ids_is_no_pair(text):
    assert Pair.parse(text) is None
    assert PAIRWISE.unit(text) is None and PAIRWISE.trajectory_ids(text) == ()
    assert SCALE.unit(text) == text, "a scale rubric rates the trajectory the text names"


def test_chosen_trajectories_pair_every_two_once_in_id_order():
    assert [str(pair) for pair in Pair.every_two(["t3", "t1", "t2", "t1"])] == ["t1|t2", "t1|t3", "t2|t3"]


@pytest.mark.parametrize(
    ("shown_first", "answer", "stored"),
    [("t1", "A", 1), ("t1", "B", -1), ("t2", "A", -1), ("t2", "B", 1), ("t2", "draw", 0)],
)
def test_an_answer_counts_for_the_trajectory_preferred_whichever_was_shown_as_a(shown_first, answer, stored):
    pair = Pair("t1", "t2")
    assert PAIRWISE.stored_score(answer, unit=str(pair), shown_first=shown_first) == stored
    shown_a, _shown_b = pair.shown(shown_first)
    assert shown_a == shown_first


def test_a_rubric_file_keeps_its_kind_as_written():
    assert SIMCOURT.kind is PAIRWISE and LEGALWORLD.kind is SCALE
    assert "kind" not in LEGALWORLD.data, "a scale rubric need not say so"
    assert rubric_parse(SIMCOURT.data).data == SIMCOURT.data
    with pytest.raises(RubricError, match="kind: must be 'scale' or 'pairwise'"):
        rubric_parse(SIMCOURT.data | {"kind": "ranking"})
    with pytest.raises(RubricError, match="kind: must be"):
        rubric_parse(SIMCOURT.data | {"kind": ["pairwise"]})
    assert set(RUBRIC_KINDS) == {"scale", "pairwise"}


def test_only_a_scale_rubrics_answers_are_points():
    assert LEGALWORLD.kind.answer_problem("7", low=0, high=10) is None
    assert LEGALWORLD.kind.answer_problem("A", low=0, high=10) == "give an integer from 0 to 10"
    assert SIMCOURT.kind.answer_problem("draw", low=-1, high=1) is None
    assert SIMCOURT.kind.answer_problem("1", low=-1, high=1) == "choose A, B or draw"
    assert SIMCOURT.kind.file_score_problem(0.5) and SIMCOURT.kind.file_score_problem(-1) is None


def test_the_judge_answers_count_for_the_record_it_preferred(db, openai_settings, llm_server):
    """Whichever record the judge reads as A (fixed by the pair's hash), "A" is stored for that one."""
    items = SIMCOURT.item_ids
    llm_server.brain = lambda request: json.dumps(
        {"answers": {item: {"preference": "A", "reason": "clearer"} for item in items}}
    )
    stored = []
    for pair in (Pair("s1", "s2"), Pair("s1", "s3")):
        records = tuple(
            {"title": f"record {tid}", "language": "en", "stages": [{"stage": "debate", "turns": [], "artifacts": []}]}
            for tid in pair.trajectory_ids
        )
        judgment = pair_judge(
            client=LLMClient.from_settings(), model="judge", rubric=SIMCOURT, pair=pair, records=records
        )
        prompt = llm_server.requests[-1]["messages"][1]["content"]
        a_title = f"record {pair.first if pair.judge_sees_first_as_a else pair.second}"
        assert prompt.startswith(f"# {a_title}")
        stored.append({score for score, _reason in judgment.scores.values()})
    assert sorted(map(sorted, stored)) == [[-1], [1]], "the two pairs are shown to the judge in opposite orders"
