"""The criminal sentencing rule reads the prosecution's recommendation as a court reads an
indictment (``agents.scripted.criminal_ruling.recommended``): a range starts at its lower bound,
a fine alone or a life sentence is what is asked for, no recommendation starts at the floor of
the charge's lowest statutory range, and a fine the charge's article requires is imposed even
when nobody named a sum."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from agents.scripted.criminal_ruling import CORRUPTION_FINES, LEAST_FINE, criminal_decision, fine_required
from agents.scripted.record import CriminalRecord, Exhibit
from court.legaltext.sentences import sentence_extract
from court.legaltext.text import article_citations
from tests.trials.caselibrary.test_simcourt_format import simcourt_case, write_release
from trials.models import Case
from trials.services import trial_simulate


def case(charge: str, clause: str) -> CriminalRecord:
    """A Chinese trial whose recommendation only the indictment's words give (as in SimCourt's
    files whose 建议 clause the importer could not read) and whose defendant pleaded."""
    return CriminalRecord(
        language="zh",
        charges=(charge,),
        recommendation={},
        indictment=f"经依法审查查明：被告人某某实施了犯罪。{clause}",
        defendant_info="被告人某某，男。",
        exhibits=(Exhibit("prosecution", "书证：到案经过", "证实案发经过", True),),
        defence_words="我认罪。",
        prosecution_words="",
    )


@pytest.mark.parametrize(
    ("charge", "clause", "penalty", "months", "fine", "why"),
    [
        ("盗窃罪", "建议判处被告人某某一年以上三年以下有期徒刑，并处罚金。", "fixed_term", 12, LEAST_FINE, "a range: its lower bound; 并处罚金 without a sum: the least fine"),
        ("滥伐林木罪", "建议判处被告人某某拘役四至五个月，并处罚金。", "criminal_detention", 4, LEAST_FINE, "四至五个月: the unit written once"),
        ("拒不执行判决、裁定罪", "建议判处被告人某某有期徒刑6-10个月。", "fixed_term", 6, 0, "6-10个月; the charge requires no fine"),
        ("抢劫罪", "", "fixed_term", 36, LEAST_FINE, "no recommendation: the floor of robbery's three years; art. 263 requires a fine"),
        ("故意伤害罪", "", "fixed_term", 6, 0, "no recommendation, a range from zero: the default start; art. 234 has no fine"),
        ("故意毁坏财物罪", "建议判处被告人某某罚金一万元。", "fixed_term", None, 10000, "a fine alone"),
        ("受贿罪", "建议判处有期徒刑一年至三年，并处罚金。", "fixed_term", 12, CORRUPTION_FINES[0][1], "bribery: the first tier's fine floor"),
    ],
)  # fmt: skip
def test_the_recommendation_is_read_from_the_indictment_as_a_court_reads_it(charge, clause, penalty, months, fine, why):
    sentence = criminal_decision(case(charge, clause)).sentence
    assert (sentence["penalty"], sentence["imprisonment_months"], sentence["fine"]) == (penalty, months, fine), why


def test_a_recommended_life_sentence_is_pronounced_as_life():
    decision = criminal_decision(case("故意伤害罪", "建议判处被告人某某无期徒刑，剥夺政治权利终身。"))
    assert decision.sentence["penalty"] == "life_imprisonment"
    assert "无期徒刑" in decision.summary


def test_a_fine_alone_reads_as_a_fine_not_as_an_empty_prison_term():
    assert criminal_decision(case("故意毁坏财物罪", "建议判处被告人某某罚金一万元。")).summary == "罚金人民币10000元"


@pytest.mark.parametrize(
    ("charge", "required"),
    [("盗窃罪", True), ("危险驾驶罪", True), ("受贿罪", True), ("故意伤害罪", False), ("寻衅滋事罪", False)],
)
def test_a_fine_is_required_only_where_the_charges_article_says_so(charge, required):
    """受贿罪 is punished under art. 383 (并处罚金); 寻衅滋事罪's fine is only 可以并处."""
    assert fine_required((charge,)) is required


THEFT = (
    "某某市人民检察院  \n起 诉 书  \n\n被告人杨某，男，1990年1月1日出生。  \n\n经依法审查查明：  \n2017年5月，被告人杨某秘密窃取他人财物，"
    "价值人民币五千元。  \n\n本院认为，被告人杨某的行为触犯了《中华人民共和国刑法》第二百六十四条，应当以盗窃罪追究其刑事责任。"
    "建议判处被告人杨某一年以上三年以下有期徒刑，并处罚金。根据《中华人民共和国刑事诉讼法》第一百七十六条的规定，提起公诉。  \n\n此致  \n某某市人民法院  \n"
)


EVIDENCE = [["1.书证：价格认定结论书，证实被盗财物价值人民币五千元"], []]
"""No defence evidence: nothing proved beyond what the recommendation assumed."""


@pytest.mark.django_db
def test_a_simcourt_case_recommending_a_range_is_sentenced_and_cited_as_a_court_would(tmp_path):
    """Played offline from SimCourt's released layout: the importer reads no recommendation
    from 一年以上三年以下, the court does; the judgment cites theft's article and its fine's,
    not the indictment's procedural article."""
    release = write_release(
        tmp_path, {"1": simcourt_case(prosecution_statement=THEFT, charge=["盗窃罪"], term=9.0, evidence=EVIDENCE)}
    )
    call_command("import_cases", "--format", "simcourt", str(release))
    trial = trial_simulate(case=Case.objects.get(pk="simcourt-1"), target_side="defendant", backend="scripted")
    text = trial.artifacts.get(kind="criminal_judgment").text
    sentence = sentence_extract(text, "zh", "杨某")
    assert (sentence.imprisonment_months, sentence.fine) == (12, LEAST_FINE)
    assert {"刑法#264", "刑法#52", "刑法#53"} <= article_citations(text)
    assert "刑事诉讼法#176" not in article_citations(text)
