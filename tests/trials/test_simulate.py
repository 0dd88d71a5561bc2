from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from court.legaltext.sentences import sentence_extract
from tests.conftest import DEMO_CASES, demo_case_seeds
from trials.models import Artifact, Case, MemoryOperation, Trial, Turn
from trials.services import cases_import

pytestmark = pytest.mark.django_db

CIVIL_ARTIFACTS = {
    "LC": ["consultation_record"],
    "CD": ["complaint"],
    "DD": ["defence"],
    "FIT": ["first_instance_judgment"],
    "AD-Det": ["appeal_determination"],
    "AD": ["appeal"],
    "AR": ["appeal_response"],
    "SIT": ["second_instance_judgment"],
}
CRIMINAL_STAGES = ["preparation", "investigation", "evidence", "debate", "final_statement", "judgment"]


@pytest.fixture
def demo_library():
    report = cases_import(paths=[DEMO_CASES])
    assert not report.problems, [str(problem) for problem in report.problems]
    return report.imported


def simulate_json(capsys, *args: str) -> dict:
    call_command("simulate", *args, "--json")
    return json.loads(capsys.readouterr().out)


def test_demo_library_has_the_promised_breadth(demo_library):
    seeds = demo_case_seeds()
    assert len(seeds) >= 8
    civil = [seed for seed in seeds if seed["procedure"] == "civil"]
    assert len(civil) >= 5 and len(seeds) - len(civil) >= 2
    assert sum(seed["language"] == "en" for seed in seeds) >= 2
    for seed in civil:
        first, second = seed["first_instance"], seed["second_instance"]
        sides = {item["side"] for item in first["evidence"]}
        assert sides == {"plaintiff", "defendant"}, seed["id"]
        assert first["court_findings"] and first["legal_references"] and first["disposition"], seed["id"]
        assert second["appeal_requests"] and second["final_disposition"], seed["id"]
        assert seed["personas"] and all(item["reference_answer"] for item in seed["consultation"]), seed["id"]


@pytest.mark.parametrize("target_side", ["plaintiff", "defendant"])
def test_simulate_runs_every_civil_demo_case_through_all_six_sub_scenarios(demo_library, capsys, target_side):
    for case in Case.objects.filter(procedure="civil"):
        result = simulate_json(capsys, case.pk, "--target-side", target_side)
        appellant = case.seed["second_instance"]["appellant_side"]
        drafting = "CD" if target_side == "plaintiff" else "DD"
        appeal = "AD" if target_side == appellant else "AR"
        stages = [stage["stage"] for stage in result["stages"]]
        assert stages == ["LC", drafting, "FIT", "AD-Det", appeal, "SIT"], case.pk
        for stage in result["stages"]:
            assert stage["artifacts"] == CIVIL_ARTIFACTS[stage["stage"]], (case.pk, stage)
            assert stage["turns"] > 0 or stage["stage"] == "AD-Det"
        trial = Trial.objects.get(pk=result["trial_id"])
        assert result["trajectory_id"] == trial.trajectory.id
        assert result["tokens"] == trial.tokens > 0
        assert Turn.objects.filter(trial=trial).count() == sum(stage["turns"] for stage in result["stages"])


def test_simulate_runs_every_criminal_demo_case_to_a_judgment(demo_library, capsys):
    for case in Case.objects.filter(procedure="criminal"):
        result = simulate_json(capsys, case.pk)
        assert [stage["stage"] for stage in result["stages"]] == CRIMINAL_STAGES
        assert result["stages"][-1]["artifacts"] == ["criminal_judgment", "trial_record"]
        judgment = Artifact.objects.get(trial_id=result["trial_id"], kind="criminal_judgment")
        recommended = case.seed["sentencing_recommendation"]["imprisonment_months"]
        sentenced = sentence_extract(judgment.text, case.language).imprisonment_months
        assert 0 < sentenced <= recommended, "the agents' defence argues its mitigation, which the court credits"


def test_simulated_judgment_has_the_standard_sections_and_states_the_claims(demo_library):
    from trials.services import trial_simulate

    case = Case.objects.filter(procedure="civil", language="zh").first()
    trial = trial_simulate(case=case, backend="scripted")
    judgment = trial.artifacts.get(kind="first_instance_judgment").text
    for section in ("一、当事人", "二、诉讼请求", "三、本院查明", "四、本院认为", "五、法律依据", "判决如下"):
        assert section in judgment
    for claim in case.seed["first_instance"]["claims"]:
        assert claim in judgment
    complaint_or_defence = trial.artifacts.get(kind="complaint").text
    assert case.seed["first_instance"]["claims"][0] in complaint_or_defence


def test_memory_is_written_per_stage_by_clients_and_lawyers_only(demo_library):
    from trials.services import trial_simulate

    trial = trial_simulate(case=Case.objects.filter(procedure="civil").first(), backend="scripted")
    writers = set(MemoryOperation.objects.filter(trial=trial).values_list("seat", flat=True))
    assert writers == {"plaintiff_client", "defendant_client", "plaintiff_lawyer", "defendant_lawyer"}
    stages = set(MemoryOperation.objects.filter(trial=trial, seat="plaintiff_lawyer").values_list("stage", flat=True))
    assert {"LC", "CD", "FIT", "SIT"} <= stages
    assert set(MemoryOperation.objects.filter(trial=trial).values_list("op", flat=True)) <= {"revise", "expand"}


def test_scripted_backend_is_deterministic(demo_library, capsys):
    case_id = demo_library[0]
    first = simulate_json(capsys, case_id)
    second = simulate_json(capsys, case_id)
    texts = [
        list(Turn.objects.filter(trial_id=result["trial_id"]).values_list("text", flat=True))
        for result in (first, second)
    ]
    assert texts[0] == texts[1] and first["tokens"] == second["tokens"]


def test_until_and_unknown_case_are_handled(demo_library, capsys):
    civil = Case.objects.filter(procedure="civil").first()
    result = simulate_json(capsys, civil.pk, "--until", "FIT")
    assert [stage["stage"] for stage in result["stages"]] == ["LC", "CD", "FIT"]
    with pytest.raises(CommandError, match="no case 'nope'"):
        call_command("simulate", "nope")
    with pytest.raises(CommandError, match="--until must be one of"):
        call_command("simulate", civil.pk, "--until", "SUPREME")


def test_export_writes_files_that_follow_the_trajectory_contract(demo_library, capsys, tmp_path):
    results = [simulate_json(capsys, case_id) for case_id in demo_library]
    call_command("export_trajectories", "--out", str(tmp_path))
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == len(results)
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {"id", "case_id", "procedure", "language", "title", "stages", "meta"}
        assert path.name == f"{data['id']}.json"
        seqs = []
        for stage in data["stages"]:
            assert set(stage) == {"stage", "turns", "artifacts"}
            for turn in stage["turns"]:
                assert set(turn) == {"seq", "phase", "role", "side", "speaker", "author", "text"}
                assert turn["author"] == "agent" and turn["text"]
                seqs.append(turn["seq"])
            for artifact in stage["artifacts"]:
                assert set(artifact) == {"kind", "title", "text"} and artifact["text"]
        assert seqs == list(range(1, len(seqs) + 1))


def test_trajectories_are_immutable(demo_library):
    from annotation.models import ImmutableError
    from trials.services import trial_simulate

    trajectory = trial_simulate(case=Case.objects.first(), backend="scripted").trajectory
    trajectory.title = "edited"
    with pytest.raises(ImmutableError):
        trajectory.save()


def test_an_unconfigured_llm_backend_is_a_clear_error_not_a_traceback(demo_library, settings):
    settings.OPENAI_BASE_URL = ""
    with pytest.raises(CommandError, match="OPENAI_BASE_URL is not set"):
        call_command("simulate", demo_library[0], "--backend", "openai")
    assert not Trial.objects.exists()
