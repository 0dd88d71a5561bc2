"""Reflective Legal Skill (LegalWorld section 4.6, issue #19 item 6): ``reflect_trials`` asks
the target lawyer's model, through the real openai client and a loopback server, to turn a
finished trial into a rule; complete and new rules become notes of the cause, given to the
target lawyer of later trials run with ``--skill-notes`` and to no other seat."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from legalsim.roles import Role
from scoring.selectors import reflection_gains
from tests.conftest import CIVIL_CASE
from tests.llm_server import default_brain
from tests.users import person
from trials.models import SkillNote, Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db

RULE = {
    "trigger": "the borrower claims a repayment the lender's statement does not show",
    "role": "lawyer",
    "stages": ["FIT"],
    "principle": "ask the court to order the bank statements before the debate instead of arguing the amount",
    "expected_output": "a written application for evidence naming the account and the period",
}
REFLECTION_PROMPTS = ("reflecting after it ended", "结案复盘")
CANARIES = {
    "court_findings": "CANARY-FINDINGS-7731",
    "disposition": "CANARY-DISPOSITION-7731",
    "defendant_bottom_line": "CANARY-BOTTOM-LINE-7731",
}


def answering(reply: str | dict):
    """The loopback model: ``reply`` to a reflection request, the default brain otherwise."""

    def brain(request: dict) -> str | dict:
        if any(marker in request["messages"][0]["content"] for marker in REFLECTION_PROMPTS):
            return reply if isinstance(reply, str) else json.dumps(reply)
        return default_brain(request)

    return brain


def reflection_requests(server) -> list[dict]:
    return [
        request
        for request in server.requests
        if any(marker in request["messages"][0]["content"] for marker in REFLECTION_PROMPTS)
    ]


@pytest.fixture
def case(write_json, civil_seed):
    civil_seed["first_instance"]["court_findings"] += " " + CANARIES["court_findings"]
    civil_seed["first_instance"]["disposition"] += " " + CANARIES["disposition"]
    civil_seed["goals"]["defendant"]["bottom_line"] = CANARIES["defendant_bottom_line"]
    cases_import(paths=[write_json("case.json", civil_seed)])
    return civil_seed


def finished_trial(*extra: str) -> Trial:
    call_command("simulate", CIVIL_CASE["id"], "--backend", "openai", "--until", "FIT", *extra, "--json")
    trial = Trial.objects.latest("pk")
    assert trial.status == Trial.Status.FINISHED
    return trial


def reflect(capsys, *arguments: str) -> str:
    capsys.readouterr()
    call_command("reflect_trials", *arguments)
    return capsys.readouterr().out


def test_a_complete_rule_becomes_a_note_of_the_cause(openai_settings, llm_server, case, capsys):
    llm_server.brain = answering(RULE)
    trial = finished_trial()
    out = reflect(capsys, str(trial.pk))
    note = SkillNote.objects.get()
    assert f"trial {trial.pk}: kept note {note.pk} (lawyer, FIT)" in out
    assert (note.trigger, note.principle, note.expected_output) == (
        RULE["trigger"],
        RULE["principle"],
        RULE["expected_output"],
    )
    assert (note.cause_of_action, note.language, note.source_case, note.source_trial) == (
        CIVIL_CASE["cause_of_action"],
        "en",
        CIVIL_CASE["id"],
        trial,
    )
    assert note.model == "target-model", "the target lawyer's own model reflects"


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ({**RULE, "principle": ""}, "dropped: missing principle"),
        ({key: value for key, value in RULE.items() if key != "trigger"}, "dropped: missing trigger"),
        ({**RULE, "stages": ["FIT", "XYZ"]}, "dropped: stage XYZ is not a stage of this procedure"),
        ({**RULE, "role": "judge"}, "dropped: role 'judge' is not one of lawyer"),
        ("I learned a lot from this case.", "dropped: no JSON object in the reply"),
    ],
)
def test_an_incomplete_rule_is_dropped_with_the_reason(openai_settings, llm_server, case, capsys, reply, why):
    llm_server.brain = answering(reply)
    trial = finished_trial()
    out = reflect(capsys, str(trial.pk))
    assert f"trial {trial.pk}: {why}" in out
    assert "0 of 1 candidate(s) kept" in out
    assert not SkillNote.objects.exists()


def test_a_rule_that_restates_a_note_of_its_cause_is_dropped(openai_settings, llm_server, case, capsys):
    llm_server.brain = answering(RULE)
    first, second = finished_trial(), finished_trial()
    reflect(capsys, str(first.pk))
    kept = SkillNote.objects.get()
    llm_server.brain = answering({**RULE, "trigger": RULE["trigger"].replace("borrower", "debtor")})
    out = reflect(capsys, str(second.pk))
    assert f"trial {second.pk}: dropped: restates note {kept.pk} (overlap 0." in out
    assert SkillNote.objects.count() == 1
    llm_server.brain = answering(
        {
            **RULE,
            "trigger": "the court asks for mediation",
            "principle": "state the bottom line",
            "expected_output": "a short offer",
        }
    )
    assert "kept note" in reflect(capsys, str(second.pk)), "a different rule of the same cause is kept"


def test_the_reflection_sees_only_what_the_lawyer_saw_and_its_scores(
    openai_settings, llm_server, case, capsys, tmp_path
):
    llm_server.brain = answering(RULE)
    trial = finished_trial()
    call_command("score_trials", str(trial.pk), "--out", str(tmp_path / "scores.json"))
    reflect(capsys, str(trial.pk))
    [request] = reflection_requests(llm_server)
    prompt = json.dumps(request["messages"], ensure_ascii=False)
    for field, canary in CANARIES.items():
        assert canary not in prompt, f"{field} reached the reflection prompt"
    assert "Repay the RMB 50,000 principal" in prompt, "the lawyer's own materials are there"
    scores = request["messages"][1]["content"].split("# Scores (0-1)\n")[1].split("\n")[0]
    assert "stage FIT" in json.loads(scores), "the trial's scores are there"
    assert request["model"] == "target-model"


def test_notes_reach_only_the_target_lawyer_of_later_trials_run_with_them(openai_settings, llm_server, case, capsys):
    llm_server.brain = answering(RULE)
    reflect(capsys, str(finished_trial().pk))
    llm_server.requests.clear()
    plain = finished_trial()
    assert plain.skill_notes == []
    assert not any(RULE["principle"] in json.dumps(request) for request in llm_server.requests)

    llm_server.requests.clear()
    given = finished_trial("--skill-notes")
    assert [note["principle"] for note in given.skill_notes] == [RULE["principle"]]
    carrying = [request for request in llm_server.requests if RULE["principle"] in request["messages"][1]["content"]]
    assert carrying, "the target lawyer's prompts carry the note"
    assert {request["model"] for request in carrying} == {"target-model"}
    stages_prompted = {
        request["messages"][1]["content"].split("Dialogue in this stage (")[1][:3] for request in carrying
    }
    assert stages_prompted == {"FIT"}, "only in the stages the note names"


def test_a_note_is_not_given_to_a_trial_of_another_cause(openai_settings, llm_server, case, capsys, write_json):
    llm_server.brain = answering(RULE)
    reflect(capsys, str(finished_trial().pk))
    other = {**CIVIL_CASE, "id": "test-civil-lease", "cause_of_action": "Lease dispute"}
    cases_import(paths=[write_json("other.json", other)])
    call_command("simulate", "test-civil-lease", "--backend", "openai", "--until", "FIT", "--skill-notes", "--json")
    assert Trial.objects.get(case_id="test-civil-lease").skill_notes == []


def test_a_switched_off_note_is_not_given(openai_settings, llm_server, case, capsys):
    llm_server.brain = answering(RULE)
    reflect(capsys, str(finished_trial().pk))
    SkillNote.objects.update(enabled=False)
    assert finished_trial("--skill-notes").skill_notes == []


def test_reflecting_needs_trials_and_notes_need_a_model(openai_settings, case):
    with pytest.raises(CommandError, match="name the trials to reflect on, or give --cause"):
        call_command("reflect_trials")
    with pytest.raises(CommandError, match="no trial 999"):
        call_command("reflect_trials", "999")
    with pytest.raises(CommandError, match="no finished trial of 'Lease dispute' left"):
        call_command("reflect_trials", "--cause", "Lease dispute")
    with pytest.raises(CommandError, match="--skill-notes are given to a model"):
        call_command("simulate", CIVIL_CASE["id"], "--backend", "scripted", "--skill-notes")


def test_cause_reflects_each_baseline_trial_once(openai_settings, llm_server, case, capsys):
    llm_server.brain = answering(RULE)
    baseline = finished_trial()
    out = reflect(capsys, "--cause", CIVIL_CASE["cause_of_action"])
    assert f"trial {baseline.pk}: kept note" in out
    with pytest.raises(CommandError, match="left to reflect on"):
        call_command("reflect_trials", "--cause", CIVIL_CASE["cause_of_action"])


def test_table_4_compares_trials_with_and_without_notes_on_reflected_and_held_out_cases(
    openai_settings, llm_server, case, capsys, write_json, tmp_path, client
):
    """LegalWorld Table 4: base and with-notes overalls per cause, the difference over all
    cases, over the case the note was reflected from (A) and over a held-out case (B)."""
    cases_import(paths=[write_json("b.json", {**CIVIL_CASE, "id": "test-civil-loan-b"})])
    llm_server.brain = answering(RULE)

    def run(case_id: str, *extra: str) -> Trial:
        call_command("simulate", case_id, "--backend", "openai", "--until", "FIT", *extra, "--json")
        return Trial.objects.latest("pk")

    base_a, base_b = run(CIVIL_CASE["id"]), run("test-civil-loan-b")
    reflect(capsys, str(base_a.pk))
    notes_a, notes_b = run(CIVIL_CASE["id"], "--skill-notes"), run("test-civil-loan-b", "--skill-notes")
    call_command("score_trials", "--all", "--out", str(tmp_path / "scores.json"))
    overalls = {base_a: 0.50, base_b: 0.60, notes_a: 0.72, notes_b: 0.64}
    for trial, overall in overalls.items():
        trial.scores.update(overall=overall)

    [row] = reflection_gains(scorer="rule-based")
    assert (row["model"], row["cause"], row["trials"]) == ("agent:target-model", CIVIL_CASE["cause_of_action"], 4)
    assert row["base"] == pytest.approx(0.55) and row["notes"] == pytest.approx(0.68)
    assert row["gain"] == pytest.approx(0.13)
    assert row["gain_reflected"] == pytest.approx(0.22) and row["gain_held_out"] == pytest.approx(0.04)

    client.force_login(person("ines", Role.INSTRUCTOR))
    page = client.get(reverse("scoring:model_profile"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = page[page.index('id="table4"') :].split("</table>")[0]
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", table.split("</tr>")[1])
    assert cells == ["agent:target-model", CIVIL_CASE["cause_of_action"], "4", "5.5", "6.8", "+1.3", "+2.2", "+0.4"]


def test_instructors_edit_and_switch_off_a_note(openai_settings, llm_server, case, capsys, client):
    llm_server.brain = answering(RULE)
    reflect(capsys, str(finished_trial().pk))
    note = SkillNote.objects.get()
    instructor = person("ines", Role.INSTRUCTOR)
    client.force_login(instructor)
    listing = client.get(reverse("trials:skill_notes"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert RULE["principle"] in listing and CIVIL_CASE["cause_of_action"] in listing
    edited = "ask for the bank statements in writing before the hearing"
    response = client.post(
        reverse("trials:skill_note_edit", args=[note.pk]),
        {
            "trigger": RULE["trigger"],
            "principle": edited,
            "expected_output": RULE["expected_output"],
            "stages": ["FIT", "SIT"],
        },
    )
    assert response.status_code == 302
    note.refresh_from_db()
    assert (note.principle, note.stages, note.enabled, note.updated_by) == (edited, ["FIT", "SIT"], False, instructor)
    refused = client.post(reverse("trials:skill_note_edit", args=[note.pk]), {"principle": "", "stages": ["FIT"]})
    assert refused.status_code == 200 and "This field is required." in refused.content.decode()
    client.post(reverse("trials:skill_note_delete", args=[note.pk]))
    assert not SkillNote.objects.exists()
