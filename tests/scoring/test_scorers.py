"""The two scorers: rule-based coverage by hand, and the LLM scorer through the real openai
client against the loopback chat-completions server."""

from __future__ import annotations

import json

import pytest

from legalsim.llm import LLMClient
from scoring.scorers import STRICT, Criterion, LLMScorer, RuleBasedScorer, ScoringFailed

CRITERION = Criterion(
    "FIT.debate.legal_reasoning",
    "legal reasoning",
    "The defendant must repay the loan under Civil Code Article 675.",
    "Repay the loan now, Civil Code Article 675",
)


def test_rule_based_score_is_term_coverage_averaged_with_article_recall():
    rating = RuleBasedScorer().rate([CRITERION], "en")[CRITERION.id]
    # reference terms {repay, loan, 675} ("defendant", "civil", "code", "article" are what every
    # case says): 3 of 3 covered; the one cited article is cited: 10 * (3/3 + 1) / 2
    assert rating.score == pytest.approx(10.0)
    assert rating.reason == "covers 3 of 3 reference terms; cites 1 of 1 reference articles"


def test_rule_based_coverage_ignores_what_every_case_says():
    generic = Criterion(
        "x", "y", "The defendant shall repay the loan within ten days.", "The defendant shall, within ten days."
    )
    rating = RuleBasedScorer().rate([generic], "en")["x"]
    assert rating.score == 0.0 and rating.reason == "covers 0 of 2 reference terms", "repay and loan"


def test_an_article_cited_without_its_law_is_the_references_law_when_it_cites_one():
    """ "Arts. 712-713" in a statement of a case that applies the Civil Code cites its articles."""
    reference = "Civil Code of the People's Republic of China, Article 712\nCivil Code, Article 713"
    cited = Criterion("x", "y", reference, "The lease may be terminated under Arts. 712-713.")
    assert RuleBasedScorer().rate([cited], "en")["x"].reason.endswith("cites 2 of 2 reference articles")


def test_rule_based_scores_nothing_said_as_zero():
    silent = Criterion("x", "y", "The loan is proved.", "  ")
    assert RuleBasedScorer().rate([silent], "en")["x"].score == 0.0


def scores_for(request: dict, score: int = 7) -> str:
    items = json.loads(request["messages"][-1]["content"].split("\n")[0])
    return json.dumps({"scores": {item["id"]: {"score": score, "reason": "fair"} for item in items}})


def client_for(server) -> LLMClient:
    return LLMClient(base_url=server.base_url, api_key="k", backoff_s=0.0)


def test_llm_scorer_sends_reference_and_candidate_in_one_call(llm_server):
    llm_server.brain = scores_for
    ratings = LLMScorer(client=client_for(llm_server), model="judge-model").rate([CRITERION], "en")
    assert ratings[CRITERION.id].score == 7.0 and ratings[CRITERION.id].reason == "fair"
    (request,) = llm_server.requests
    assert request["model"] == "judge-model"
    assert "Civil Code Article 675" in request["messages"][-1]["content"]


def test_llm_scorer_regenerates_once_with_a_strict_prompt(llm_server):
    llm_server.brain = lambda request: (
        scores_for(request) if STRICT in request["messages"][0]["content"] else "Fine work."
    )
    ratings = LLMScorer(client=client_for(llm_server), model="judge-model").rate([CRITERION], "en")
    assert ratings[CRITERION.id].score == 7.0
    assert len(llm_server.requests) == 2


def test_llm_scorer_fails_loudly_when_the_reply_never_parses(llm_server):
    llm_server.brain = lambda request: scores_for(request, score=11)
    with pytest.raises(ScoringFailed, match="not within 0-10"):
        LLMScorer(client=client_for(llm_server), model="judge-model").rate([CRITERION], "en")
    assert len(llm_server.requests) == 2


def test_llm_scorer_is_told_what_was_already_said_so_repeating_earns_nothing(llm_server):
    llm_server.brain = scores_for
    logicality = Criterion("MILE.1.logicality", "logicality", "Is the IOU enough?", "Keep the IOU.", "Keep the IOU.")
    LLMScorer(client=client_for(llm_server), model="judge-model").rate([CRITERION, logicality], "en")
    (request,) = llm_server.requests
    sent = {item["id"]: item for item in json.loads(request["messages"][-1]["content"])}
    assert sent["MILE.1.logicality"]["already_said"] == "Keep the IOU."
    assert "already_said" not in sent[CRITERION.id]
    assert "repeating it earns nothing" in request["messages"][0]["content"]
