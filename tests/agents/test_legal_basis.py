"""A judgment cites what decided it (``agents.scripted.legal_basis``): the charge's article and
one article per item of the sentence the court counted, with the right paragraph, and nothing
the indictment cited on the way."""

from __future__ import annotations

import json

import pytest

from agents.scripted.agent import ScriptedAgent
from agents.scripted.criminal_ruling import criminal_decision
from agents.scripted.legal_basis import basis_text, criminal_basis, english_citation
from agents.scripted.record import CriminalRecord, Exhibit
from agents.tools.citations import zh_numeral
from agents.tools.statutes import StatuteHit
from court.engine.machine import trial_start
from court.engine.runner import End, trial_run
from court.legaltext.text import article_citations
from court.procedures import procedure_for
from tests.agents.test_offline_court import LENDING_PLAINTIFF, Student, judgment
from tests.conftest import DEMO_CASES


def driving(defence: str, recommendation: dict, *, produced: bool = True) -> CriminalRecord:
    return CriminalRecord(
        language="zh",
        charges=("危险驾驶罪",),
        recommendation=recommendation,
        indictment="被告人醉酒驾驶机动车，其行为触犯了《中华人民共和国刑法》第一百三十三条之一。",
        defendant_info="被告人某某，男。",
        exhibits=(
            Exhibit("prosecution", "鉴定意见", "血液酒精含量", produced),
            Exhibit("defendant", "到案经过", "主动投案，如实供述", True),
        ),
        defence_words=defence,
        prosecution_words="",
    )


DETENTION = {"penalty": "criminal_detention", "imprisonment_months": 2}
CHARGE = {"刑法#133-1", "刑法#52", "刑法#53"}
"""Dangerous driving's article requires a fine (并处罚金): its articles come with the charge's."""


@pytest.mark.parametrize(
    ("defence", "recommendation", "cited", "why"),
    [
        ("我认罪。", DETENTION, CHARGE | {"刑事诉讼法#201"}, "the charge, and the plea whose recommendation is adopted"),
        ("我认罪，到案后如实供述。", DETENTION | {"fine": 2000}, CHARGE | {"刑法#67", "刑事诉讼法#201"}, "confession and a fine"),
        ("我认罪，主动投案，有固定工作，请求缓刑。", DETENTION | {"probation": 3}, CHARGE | {"刑法#67", "刑法#72", "刑法#73", "刑事诉讼法#201"}, "surrender and probation"),
        ("asdf", DETENTION, CHARGE, "nothing counted: the charge and its fine alone"),
    ],
)  # fmt: skip
def test_the_legal_basis_is_the_charges_article_and_each_counted_items(defence, recommendation, cited, why):
    record = driving(defence, recommendation)
    text = basis_text(criminal_basis(criminal_decision(record), record), zh=True)
    assert article_citations(text) == cited, why


def test_surrender_and_confession_cite_their_own_paragraph_of_article_67():
    surrender = driving("我认罪，主动投案。", DETENTION)
    confession = driving("我认罪，如实供述。", DETENTION)
    assert "第六十七条第一款" in basis_text(criminal_basis(criminal_decision(surrender), surrender), zh=True)
    assert "第六十七条第三款" in basis_text(criminal_basis(criminal_decision(confession), confession), zh=True)


def test_an_acquittal_rests_on_article_200_of_the_criminal_procedure_law_alone():
    record = driving("我认罪。", DETENTION, produced=False)
    assert basis_text(criminal_basis(criminal_decision(record), record), zh=True) == (
        "《中华人民共和国刑事诉讼法》第二百条第三款"
    )


def test_an_english_judgment_cites_the_same_articles_in_english():
    record = driving("I plead guilty and confessed truthfully.", DETENTION | {"fine": 2000})
    text = basis_text(criminal_basis(criminal_decision(record), record), zh=False)
    assert "Criminal Law of the People's Republic of China, Article 133-1" in text
    assert "Article 67, paragraph 3" in text


@pytest.mark.parametrize(
    ("number", "written"),
    [
        (10, "十"),
        (15, "十五"),
        (67, "六十七"),
        (110, "一百一十"),
        (133, "一百三十三"),
        (201, "二百零一"),
        (303, "三百零三"),
        (1087, "一千零八十七"),
        (1183, "一千一百八十三"),
    ],
)
def test_article_numbers_are_written_as_the_statutes_write_them(number, written):
    assert zh_numeral(number) == written


def played_judgment(case_id: str) -> str:
    """The criminal judgment of a demo case played with every seat the scripted agent."""
    case = json.loads((DEMO_CASES / f"{case_id}.json").read_text(encoding="utf-8"))
    state = trial_start(case=case, target_side="defendant", human_seats={}, last_stage=None)
    seats = procedure_for(case["procedure"]).seats
    assert isinstance(trial_run(state, {seat: ScriptedAgent() for seat in seats}), End)
    return state.artifacts_of("criminal_judgment")[-1].text


def test_the_demo_judgment_cites_its_legal_basis_and_not_the_indictments_articles():
    text = played_judgment("zh-criminal-dangerous-driving")
    basis = text.split("法律依据：")[1].split("\n")[0]
    assert "刑法#133-1" in article_citations(basis)
    assert article_citations(text) == article_citations(basis)


def test_a_chinese_basis_names_each_law_once_before_its_articles():
    record = driving("我认罪，如实供述。", DETENTION)
    assert basis_text(criminal_basis(criminal_decision(record), record), zh=True) == (
        "《中华人民共和国刑法》第一百三十三条之一、第六十七条第三款、第五十二条、第五十三条，"
        "《中华人民共和国刑事诉讼法》第二百零一条"
    )


def test_a_civil_judgment_cites_the_article_of_each_claim_it_grants():
    """The demo loan: granted, the overdue interest adds its article (Civil Code art. 676, the
    borrower's duty to pay overdue interest) to the repayment's (art. 675, the duty to repay;
    never art. 670 on interest deducted in advance); dismissed in full, the repayment's article
    and the burden of proof's alone."""
    play = dict(case_id="zh-civil-private-lending", seat="plaintiff_lawyer", target_side="plaintiff", last_stage="FIT")
    argued = judgment(**play, student=Student(LENDING_PLAINTIFF), kind="first_instance_judgment")
    empty = judgment(**play, student=Student(), kind="first_instance_judgment")
    granted, dismissed = (article_citations(text.split("法律依据")[1].split("判决如下")[0]) for text in (argued, empty))
    assert {"民法典#675", "民法典#676", "民事诉讼法#67"} <= granted and "民法典#670" not in granted
    assert "民法典#676" not in dismissed and {"民法典#675", "民事诉讼法#67"} <= dismissed


def test_an_english_fraud_judgment_cites_the_fraud_article():
    basis = played_judgment("en-criminal-telecom-fraud").split("Legal basis: ")[1].split("\n")[0]
    assert basis.startswith("Criminal Law of the People's Republic of China, Article 266")


@pytest.mark.parametrize(
    ("law", "article", "cited"),
    [
        ("中华人民共和国民法典", "第五百七十七条", "Civil Code of the People's Republic of China, Article 577"),
        ("中华人民共和国刑法", "第一百三十三条之一", "Criminal Law of the People's Republic of China, Article 133-1"),
        ("中华人民共和国劳动合同法", "第八十二条", "Labour Contract Law of the People's Republic of China, Article 82"),
        ("最高人民法院关于审理民间借贷案件适用法律若干问题的规定", "第二十五条", None),
    ],
)
def test_an_english_judgment_cites_an_article_by_the_laws_english_title(law, article, cited):
    assert english_citation(StatuteHit(law, article, "", 1.0, "test")) == cited


def test_an_english_civil_judgment_cites_the_civil_code_article_that_decided_it():
    """An English case is searched with the Chinese terms its words are filed under: the lease's
    judgment rests on a Civil Code article, not on the burden of proof alone."""
    text = judgment(
        case_id="en-civil-commercial-lease",
        seat="defendant_lawyer",
        target_side="defendant",
        last_stage="FIT",
        student=Student(),
        kind="first_instance_judgment",
    )
    cited = article_citations(text)
    assert any(key.startswith("civil code#") for key in cited), cited
    assert "Civil Code of the People's Republic of China, Article" in text
