"""The debrief of a trial that went to appeal: each outcome says which instance it is about,
the second instance's against the appeal requests, and "Your trial decided" shows the
first-instance orders before what the appeal changed; the articles the court cited come with
their Chinese original marked as such."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from legalsim.roles import Role
from tests.trials.test_debrief import simulated
from tests.users import person
from trials.debrief import _in_english, articles_missed, debrief_for, outcome_moves
from trials.models import Trial

pytestmark = pytest.mark.django_db


@pytest.fixture
def appealed() -> Trial:
    return simulated("en-civil-traffic-accident")


def test_the_outcome_of_each_instance_says_what_it_answers(appealed):
    first, second = outcome_moves(appealed.engine_state, ["plaintiff_lawyer"])
    assert (first.stage, second.stage) == ("FIT", "SIT")
    assert first.outcome.startswith("the claims: ")
    assert second.outcome.startswith("the appeal: ")
    assert "every claim granted" not in second.outcome, "the appeal's requests are not the plaintiff's claims"


def test_your_trial_decided_shows_the_first_instance_orders_then_the_appeal(appealed):
    decided = debrief_for(appealed.engine_state).decided
    assert [item.kind for item in decided] == ["first_instance_judgment", "second_instance_judgment"]
    assert "shall pay the plaintiff" in decided[0].orders
    assert decided[1].orders and decided[1].orders != decided[0].orders, "the appeal's own orders"


def test_the_room_debrief_reads_each_instance_for_the_student(client, appealed):
    student = person("student", Role.STUDENT)
    appealed.seats.filter(seat="plaintiff_lawyer").update(user=student)
    client.force_login(student)
    page = client.get(reverse("trials:trial_room", args=[appealed.pk])).content.decode()
    decided = page.split("Your trial decided", 1)[1].split("What the real court decided", 1)[0]
    assert decided.index("Civil judgment (first instance)") < decided.index("What the appeal changed")
    appeal = debrief_for(appealed.engine_state).decided[1].orders.splitlines()[0]
    assert decided.index("shall pay the plaintiff") < decided.index(escape(appeal))
    assert "The outcome of the first-instance trial, on the claims" in page
    assert "The outcome of the second-instance trial, on the appeal requests" in page
    assert "the appeal: " in page and "every claim granted" not in page


def test_an_english_case_marks_the_chinese_article_text_as_the_original(client, appealed):
    missed = articles_missed(appealed.engine_state, ["plaintiff_lawyer"])
    article = next(item for item in missed if item.citation.endswith("Article 1183"))
    assert article.citation == "Civil Code of the People's Republic of China, Article 1183"
    assert article.source == "《中华人民共和国民法典》第一千一百八十三条" and "精神损害" in article.gist
    student = person("student", Role.STUDENT)
    appealed.seats.filter(seat="plaintiff_lawyer").update(user=student)
    client.force_login(student)
    page = client.get(reverse("trials:trial_room", args=[appealed.pk])).content.decode()
    articles = page.split('id="debrief-articles"', 1)[1]
    assert f'Chinese original, <span lang="zh-Hans">{escape(article.source)}</span>' in articles
    assert f'<q class="muted small article-gist" lang="zh-Hans">{article.gist}</q>' in articles


def test_a_judgment_citation_of_an_english_case_names_the_law_in_english():
    assert (
        _in_english("《中华人民共和国民法典》第1179条") == "Civil Code of the People's Republic of China, Article 1179"
    )
    assert _in_english("《最高人民法院关于审理人身损害赔偿案件适用法律若干问题的解释》第1条").startswith("《")
