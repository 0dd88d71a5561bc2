from __future__ import annotations

import gzip
import json
from pathlib import Path

from django.core.management import call_command

from agents.tools.stard import expansion_build, expansion_write, label_article, label_key, stard_read
from benchmarks.retrieval_stard import measure

SLICE = Path(__file__).parent / "stard_slice"


def test_the_reader_takes_the_split_from_the_released_qrels_files():
    stard = stard_read(SLICE)
    assert sorted(stard.train) == [0, 11]
    assert sorted(stard.dev) == [1, 506, 1212]
    assert [question.query_id for question in stard.split("dev")] == list(stard.dev)


def test_a_question_carries_the_labels_its_qrels_name_in_stards_own_words():
    question = stard_read(SLICE).questions[0]
    assert question.text == "谁可以成为个体工商户？"
    assert question.labels == ("中华人民共和国民法典第五十四条", "个体工商户条例第二条")


def test_the_baseline_stop_words_are_the_released_file_and_src_bm25s_own():
    stopwords = stard_read(SLICE).stopwords
    assert {"的", "吗", "（", "\n"} <= stopwords


def test_a_label_resolves_to_the_corpus_article_it_names_or_to_none():
    assert label_key("中华人民共和国民法典第五十四条") == ("中华人民共和国民法典", 54, "")
    assert label_article("中华人民共和国民法典第五十四条") is not None
    assert label_article("个体工商户条例第二条") is None


def test_a_short_law_name_that_begins_a_longer_one_still_resolves():
    """农村土地承包法 begins 农村土地承包经营纠纷调解仲裁法's name: the exact law is meant."""
    assert label_key("农村土地承包法第十六条") == ("中华人民共和国农村土地承包法", 16, "")


def test_an_article_the_search_does_not_hold_is_not_resolved():
    """The package's database keeps the repealed 农村土地承包法, which its index leaves out."""
    assert label_article("农村土地承包法第十六条") is None
    assert label_article("中华人民共和国劳动合同法第四十七条") is not None


def test_the_expansion_files_articles_under_train_questions_only():
    built = expansion_build(stard_read(SLICE))
    assert built["split"] == "train" and built["questions"] == 2
    assert {"个体", "工商户"} <= set(built["articles"]["中华人民共和国民法典|第五十四条"])
    assert "中华人民共和国农村土地承包法|第十六条" not in built["articles"]
    dev_article = "中华人民共和国民法典|第五十六条"
    assert dev_article not in built["articles"]
    assert not any("谁" in words or "可以" in words for words in built["articles"].values())


def test_the_built_file_is_the_same_bytes_each_time(tmp_path):
    first, second = tmp_path / "a.json.gz", tmp_path / "b.json.gz"
    built = expansion_build(stard_read(SLICE))
    expansion_write(built, first)
    expansion_write(built, second)
    assert first.read_bytes() == second.read_bytes()


def test_the_command_rebuilds_the_expansion_from_the_released_files(tmp_path):
    output = tmp_path / "expansion.json.gz"
    call_command("statute_index_build", str(SLICE), output=output)
    with gzip.open(output, "rt", encoding="utf-8") as file:
        assert "中华人民共和国民法典|第五十四条" in json.load(file)["articles"]


def test_the_benchmark_counts_recall_and_mrr_as_stard_does_over_all_labels_and_those_held():
    question = stard_read(SLICE).questions[0]
    held = label_article(question.labels[0])
    tally = measure([question], lambda text: [1, held])
    assert tally["all"][5] == 0.5 and tally["held"][5] == 1.0
    assert tally["all"]["mrr"] == 0.5
    assert tally["laws"]["个体工商户条例"]["held"] == 0
