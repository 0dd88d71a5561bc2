"""A model's context window respected (issue #46, item 3; docs/llm-servers.md, "Context
windows"): prompts are fitted to the window before they are sent, a prompt that cannot fit
pauses the trial naming the window, and a server's overflow is never retried."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents.prompt_fit import PromptBudget, PromptTooLarge, fitted, prompt_size
from agents.prompts import turn_messages
from court.engine.visibility import SeatView
from tests.conftest import DEMO_CASES
from tests.llm_server import LoopbackLLM
from trials.models import Case, Trial
from trials.services import cases_import, trial_simulate

CASE = "zh-civil-private-lending"
WINDOW = 4096


def simulate(case_id: str = CASE) -> Trial:
    cases_import(paths=[DEMO_CASES / f"{case_id}.json"])
    return trial_simulate(case=Case.objects.get(pk=case_id), backend="openai")


def pause_names_the_window(trial: Trial, window: int) -> bool:
    reason = trial.pause_reason
    return f"{window:,}" in reason and "LEGALSIM_MODEL_CONTEXT" in reason


@pytest.mark.django_db
@pytest.mark.parametrize("told", ["setting", "server"])
def test_a_chinese_life_cycle_against_a_4096_token_window_finishes_or_pauses_naming_the_window(openai_settings, told):
    """The window from LEGALSIM_MODEL_CONTEXT, or from the server's model list as vLLM gives it."""
    models = ("env-model", "target-model")
    with LoopbackLLM(context=WINDOW, report_window=models if told == "server" else ()) as server:
        openai_settings.OPENAI_BASE_URL = server.base_url
        openai_settings.LEGALSIM_MODEL_CONTEXT = {"*": WINDOW} if told == "setting" else {}
        trial = simulate()
    assert trial.status == Trial.Status.FINISHED or pause_names_the_window(trial, WINDOW), trial.pause_reason
    assert trial.status == Trial.Status.FINISHED, "the private-lending case fits a 4,096-token window"
    assert server.overflowed == [], "every prompt was fitted before it was sent"
    assert all(request["max_tokens"] < WINDOW for request in server.requests), "the reply asks for what is left"


@pytest.mark.django_db
def test_a_servers_overflow_pauses_the_trial_once_never_retried(openai_settings):
    """A window set larger than the server's: the server refuses (vLLM's 400); the trial pauses
    at once, saying what to set (a stream that ends early: tests/legalsim/test_llm.py)."""
    with LoopbackLLM(context=2048) as server:
        openai_settings.OPENAI_BASE_URL = server.base_url
        openai_settings.LEGALSIM_MODEL_CONTEXT = {"*": 3000}
        trial = simulate()
    assert trial.status == Trial.Status.PAUSED
    assert len(server.overflowed) == 1, "the prompt the server could not take was sent once"
    assert "context window" in trial.pause_reason and "LEGALSIM_MODEL_CONTEXT" in trial.pause_reason
    assert server.requests[-1] is server.overflowed[0], "nothing was sent after it"


def hearing_view(lines: int, *, text: str = "本方认为借款事实清楚，被告应当还款。" * 20) -> SeatView:
    return SeatView(
        seat="judge",
        role="judge",
        side="court",
        stage="FIT",
        unit="FIT",
        phase="debate",
        procedure="civil",
        language="zh",
        case={"title": "民间借贷纠纷", "cause_of_action": "民间借贷纠纷", "parties": []},
        fields={"claims": {"shared": ["判令被告偿还借款本金人民币50000元"]}},
        dialogue=[
            {
                "seq": seq,
                "phase": "debate",
                "act": "argue",
                "seat": "plaintiff_lawyer",
                "speaker": "原告代理人",
                "text": f"第{seq}段：{text}",
            }
            for seq in range(1, lines + 1)
        ],
    )


def judgment(view: SeatView):
    return lambda budget: turn_messages(
        view, speaker="一审审判长", act="pronounce_judgment", artifact="first_instance_judgment", budget=budget
    )


def test_a_judgments_record_is_summarised_to_fit_keeping_the_claims_and_the_last_line():
    view = hearing_view(30)
    whole, _ = fitted(judgment(view), tools=None, model="local", window=None, max_tokens=1024)
    messages, reply = fitted(judgment(view), tools=None, model="local", window=WINDOW, max_tokens=1024)
    prompt = messages[1]["content"]
    assert prompt_size(whole, None) > WINDOW > prompt_size(messages, None) + reply
    assert "判令被告偿还借款本金人民币50000元" in prompt, "the stage's fields are never cut"
    assert "第30段" in prompt, "the last line said is kept whole"
    assert "第1段" in prompt and "开头" in prompt, "the record before the window is summarised, not dropped first"


def test_a_prompt_that_cannot_fit_names_the_window_its_size_and_what_to_set():
    view = hearing_view(3)
    view.fields["facts"] = {"shared": "借款经过：" + "原告于二〇二三年出借现金。" * 400}
    with pytest.raises(PromptTooLarge) as raised:
        fitted(judgment(view), tools=None, model="local", window=2048, max_tokens=1024)
    message = str(raised.value)
    assert "2,048" in message and "LEGALSIM_MODEL_CONTEXT" in message and "--n_ctx" in message
    assert f"about {raised.value.size:,} tokens" in message


def test_the_dialogue_is_shortened_before_the_memory():
    view = replace(hearing_view(12), memory={"facts": ["原告出借五万元。" * 30]})
    small = turn_messages(view, speaker="一审审判长", act="argue", artifact=None, budget=PromptBudget(dialogue=0))[1][
        "content"
    ]
    assert "原告出借五万元" in small and "第12段" in small and "第11段" not in small
