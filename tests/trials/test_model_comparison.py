"""Target models compared in one batch (issue #19 item 4): each case runs once per target
model on the same seed, the environment's model fixed; the model is recorded on the batch,
the run and the trial, and the scores compare them side by side with intervals. A batch may
run with the MASER supervisor (item 5)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from legalsim.roles import Role
from scoring.selectors import model_profile
from tests.conftest import DEMO_CASES
from tests.llm_server import supervisor_approves
from tests.users import person
from trials.models import Batch, Trial
from trials.services import cases_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_in_process")]
CASES = ("zh-civil-private-lending", "en-civil-traffic-accident")


@pytest.fixture
def split_file(tmp_path):
    cases_import(paths=[DEMO_CASES / f"{case_id}.json" for case_id in CASES])
    path = tmp_path / "two.txt"
    path.write_text("\n".join(CASES))
    return path


def test_each_case_runs_once_per_target_model_with_the_environment_fixed(
    openai_settings, llm_server, split_file, capsys, tmp_path
):
    call_command(
        "simulate_split", split=str(split_file), backend="openai", models_target="model-a,model-b", concurrency=2
    )
    assert "target models compared: model-a, model-b" in capsys.readouterr().out
    batch = Batch.objects.get()
    assert batch.target_models == ["model-a", "model-b"]
    runs = sorted((run.case_id, run.target_model, run.trial.target_model) for run in batch.runs.all())
    assert runs == sorted((case_id, model, model) for case_id in CASES for model in ("model-a", "model-b"))
    for trial in Trial.objects.all():
        seats = dict(trial.seats.values_list("seat", "agent_model"))
        assert seats["plaintiff_lawyer"] == trial.target_model
        assert {model for seat, model in seats.items() if seat != "plaintiff_lawyer"} == {"env-model"}
        assert {model for (model,) in trial.llm_calls.filter(seat="plaintiff_lawyer").values_list("model")} == {
            trial.target_model
        }
    assert {request["model"] for request in llm_server.requests} == {"model-a", "model-b", "env-model"}

    out = tmp_path / "scores.json"
    call_command("score_trials", "--all", "--out", str(out))
    scored = json.loads(out.read_text())
    assert sorted(row["target_model"] for row in scored) == ["agent:model-a"] * 2 + ["agent:model-b"] * 2
    rows = {row["model"]: row for row in model_profile(scorer="rule-based")}
    assert set(rows) == {"agent:model-a", "agent:model-b"} and all(row["trials"] == 2 for row in rows.values())
    low, high = rows["agent:model-a"]["overall_interval"]
    assert 0 <= low <= high <= 1


def test_the_model_profile_page_shows_each_model_with_its_interval(
    openai_settings, llm_server, split_file, client, tmp_path
):
    call_command("simulate_split", split=str(split_file), backend="openai", models_target="model-a,model-b")
    call_command("score_trials", "--all", "--out", str(tmp_path / "scores.json"))
    client.force_login(person("ines", Role.INSTRUCTOR))
    page = client.get(reverse("scoring:model_profile"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = page[page.index('id="table3"') :]
    assert table.index("model-a") < table.index("model-b")
    batch = client.get(reverse("trials:batch", args=[Batch.objects.get().pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Target models compared (each case once per model): <code>model-a</code>, <code>model-b</code>" in (
        batch.content.decode()
    )
    overall = r'<td class="overall">\d+\.\d <span class="muted">\(\d+\.\d–\d+\.\d\)</span></td>'
    assert len(re.findall(overall, table)) == 2, "each model's overall out of 10 with its 95 % interval"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "scripted", "models_target": "model-a,model-b"}, "needs --backend openai"),
        ({"backend": "openai", "models_target": " , "}, "at least one model name"),
    ],
)
def test_a_comparison_that_cannot_run_is_refused_before_anything_is_stored(
    openai_settings, split_file, options, message
):
    with pytest.raises(CommandError, match=message):
        call_command("simulate_split", split=str(split_file), **options)
    assert not Batch.objects.exists()


def test_a_supervised_batch_checks_every_client_and_lawyer_reply(openai_settings, llm_server, split_file, capsys):
    llm_server.brain = supervisor_approves
    call_command("simulate_split", split=str(split_file), backend="openai", supervisor=True)
    batch = Batch.objects.get()
    assert batch.supervised and all(run.trial.supervised for run in batch.runs.all())
    for trial in Trial.objects.all():
        checked = set(trial.llm_calls.filter(act__startswith="supervise:").values_list("seat", flat=True))
        assert checked == {"plaintiff_client", "defendant_client", "plaintiff_lawyer", "defendant_lawyer"}


def test_a_supervised_batch_needs_model_agents(split_file):
    with pytest.raises(CommandError, match="--supervisor checks model replies"):
        call_command("simulate_split", split=str(split_file), backend="scripted", supervisor=True)
    assert not Batch.objects.exists()
