"""The classroom in the language each person chose: a Chinese student's "My assignments" and
feedback, a Chinese instructor's gradebook, in Chinese words with Chinese dates; what the
exports and the database hold stays as it is."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import language_set
from classroom.assignments import assignment_create, assignment_start
from classroom.models import Attempt, Course, TurnComment
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.legalsim.test_languages import ALLOWED_ENGLISH, ENGLISH_WORD, page_text, stored_texts
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_continue

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


@pytest.fixture
def course() -> Course:
    """A Chinese course: liming (who reads Chinese) submitted her attempt two hours late and has
    a comment on it, robert (who reads English) has not started; the second assignment is due
    on 1 June 2031 at 16:30."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    prof = person("prof", Role.INSTRUCTOR)
    course = course_create(slug="minsu", title="民事诉讼实务", instructor=prof, language="zh")
    liming, robert = person("liming", Role.STUDENT), person("robert", Role.STUDENT)
    course_enrol(course=course, usernames=["liming", "robert"])
    language_set(user=prof, language="zh-hans")
    language_set(user=liming, language="zh-hans")
    language_set(user=robert, language="en")
    now = timezone.now()
    case = Case.objects.get(pk=CASE)
    first = assignment_create(
        course=course,
        case=case,
        seats=["plaintiff_lawyer"],
        stages=["LC"],
        opens_at=now - timedelta(days=3),
        due_at=now - timedelta(days=1),
        title="法律咨询练习",
    )
    assignment_create(
        course=course,
        case=case,
        seats=["plaintiff_lawyer"],
        opens_at=now - timedelta(days=1),
        due_at=timezone.make_aware(datetime(2031, 6, 1, 16, 30)),
        title="一审庭审练习",
    )
    attempt = assignment_start(assignment=first, student=liming, now=now - timedelta(days=2))
    trial_continue(trial=attempt.trial)
    Attempt.objects.filter(pk=attempt.pk).update(submitted_at=first.due_at + timedelta(hours=2))
    turn = attempt.trial.engine_state.turns[0]
    TurnComment.objects.create(trial=attempt.trial, seq=turn.seq, author=prof, text="先问清损失情况。")
    return course


def signed_in(username: str) -> Client:
    """A browser asking for English: the language the person chose wins over it."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(person(username))
    return client


def english_words(body: str) -> set[str]:
    """The English words of the interface left on a page (the database's content taken out)."""
    return {word for word in ENGLISH_WORD.findall(page_text(body, stored_texts())) if word not in ALLOWED_ENGLISH}


def test_a_chinese_student_reads_her_assignments_and_feedback_in_chinese_with_chinese_dates(course):
    client = signed_in("liming")
    page = client.get(reverse("classroom:my_assignments")).content.decode()
    assert '<html lang="zh-hans">' in page
    assert "<h1>我的作业</h1>" in page and "原告代理人" in page
    assert "逾期" in page and "未开始" in page and "第 1 次庭审记录" in page
    assert ">2031年6月1日 16:30 UTC</time>" in page, "the due date with its time zone named"
    assert "2031-06-01" not in page.replace('datetime="2031-06-01T16:30:00+00:00"', "")
    assert 'data-status="late"' in page, "the status's value stays the stored one"
    assert not english_words(page)

    feedback = client.get(reverse("classroom:feedback")).content.decode()
    when = timezone.localtime(TurnComment.objects.get().created_at)
    assert f"{when.year}年{when.month}月{when.day}日" in feedback and "先问清损失情况。" in feedback
    assert "第 1 轮发言" in feedback and '<span class="badge">新</span>' in feedback
    assert not english_words(feedback)


def test_a_chinese_instructor_reads_the_gradebook_in_chinese_and_exports_it_unchanged(course):
    client = signed_in("prof")
    page = client.get(reverse("classroom:gradebook", args=[course.slug])).content.decode()
    assert "<h1>成绩册</h1>" in page and "最近一次提交" in page and "保存" in page
    assert "逾期 2 小时 0 分钟" in page and "未开始" in page
    assert "截止时间 <time" in page and ">2031年6月1日 16:30 UTC</time>" in page
    submitted = timezone.localtime(Attempt.objects.get().submitted_at)
    assert re.search(
        f"提交于 <time datetime=[^>]+>{submitted.year}年{submitted.month}月{submitted.day}日 {submitted:%H:%M} UTC</time>",
        page,
    ), "the submission's moment, its time zone named"
    assert not english_words(page)

    saved = client.post(
        reverse("classroom:grade_save", args=[course.slug, course.assignments.first().pk, person("liming").pk]),
        {"grade": "101", "feedback": ""},
        HTTP_HX_REQUEST="true",
    )
    assert "成绩 &#x27;101&#x27;：请填写 0 到 100 之间的数字，或留空" in saved.content.decode()

    export = client.get(reverse("classroom:gradebook_download", args=[course.slug, "csv"]))
    rows = list(csv.DictReader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert {row["status"] for row in rows} == {"late", "not started"}, "the export's columns are a contract"


def test_an_english_student_of_the_same_course_reads_english(course):
    page = signed_in("robert").get(reverse("classroom:my_assignments")).content.decode()
    assert "<h1>My assignments</h1>" in page and "Counsel for the plaintiff" in page and "not started" in page
    assert "June 1, 2031, 4:30 p.m." in page
    assert "年" not in page.replace("民事诉讼实务", "").replace("法律咨询练习", "").replace("一审庭审练习", "")


@pytest.mark.parametrize(
    ("language", "subject", "words"),
    [
        ("zh-hans", "设置你的 LegalSim 密码", "请打开以下链接设置新密码"),
        ("en", "Set your LegalSim password", "Open this link"),
    ],
)
def test_the_password_reset_page_and_email_speak_the_readers_language(language, subject, words, mailoutbox):
    user = person("liming", Role.STUDENT)
    user.email = "liming@example.edu"
    user.save(update_fields=["email"])
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(reverse("password_reset")).content.decode()
    assert "Django" not in page and 'class="topbar"' in page, "the site's own page, not the admin's"
    response = client.post(reverse("password_reset"), {"email": user.email})
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert mail.subject == subject and words in mail.body and "liming" in mail.body
    assert "/accounts/reset/" in mail.body
