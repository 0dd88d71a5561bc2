"""The room asks counsel in the mediation phase to advise on mediation."""

from __future__ import annotations

from court.engine.steps import Speak
from trials.protocol import await_frame


def speak(phase: str) -> Speak:
    return Speak(
        seq=40,
        stage="FIT",
        phase=phase,
        seat="plaintiff_lawyer",
        role="lawyer",
        side="plaintiff",
        speaker="Counsel for the plaintiff",
        act="summarise_advice",
    )


def test_counsel_in_mediation_is_asked_to_advise_the_client_on_mediation():
    assert await_frame(speak("mediation"), "en")["prompt"] == "Advise your client on mediation"
    assert await_frame(speak("mediation"), "zh")["prompt"] == "就是否调解向当事人提出意见"
    assert await_frame(speak("advice"), "en")["prompt"] == "Summarise your advice"
