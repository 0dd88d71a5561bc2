"""Counsel asked for advice in the mediation phase is asked to advise on mediation, not to
sum up a consultation, in the room's prompt and in an agent's task alike."""

from __future__ import annotations

from agents.act_titles import act_title
from court.procedures.names import act_name


def test_counsel_in_mediation_is_asked_to_advise_on_mediation():
    assert act_name("summarise_advice", "en", "mediation") == "Advise your client on mediation"
    assert act_name("summarise_advice", "zh", "mediation") == "就是否调解向当事人提出意见"
    assert act_title("summarise_advice", "mediation")[1] == "advise your client whether to accept mediation, and why"


def test_the_consultation_still_asks_for_a_summary_of_the_advice():
    assert act_name("summarise_advice", "en", "advice") == "Summarise your advice"
    assert act_name("summarise_advice", "zh") == "总结法律意见"
    assert act_title("summarise_advice", "advice")[1] == "summarise your advice and the next steps"
    assert act_title("no_such_act") is None
