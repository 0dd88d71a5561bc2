"""The rule-based scorer's reasons as a scorecard shows them, in the interface's language.

A stored scorecard keeps its reasons in English (the ``score_trials`` export is data, read by
scripts); a page translates each part of a reason here, the values it quotes (names,
headings, counts) kept as they are. A reason not in the table (an LLM scorer's own words)
is shown as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from trials.message_tables import MessageTable

REASON_MESSAGES = MessageTable(
    (r"nothing was said or written for this item", _("nothing was said or written for this item")),
    (r"covers (?P<found>\d+) of (?P<total>\d+) reference terms", _("covers %(found)s of %(total)s reference terms")),
    (
        r"cites (?P<cited>\d+) of (?P<total>\d+) reference articles",
        _("cites %(cited)s of %(total)s reference articles"),
    ),
    (r"no legal content of this case", _("no legal content of this case")),
    (
        r"little of this case \((?P<case>\d+) case terms, (?P<others>\d+) others\): counted at (?P<share>\d+)%",
        _("little of this case (%(case)s case terms, %(others)s others): counted at %(share)s%%"),
    ),
    (
        r"capped at the mean of the document's content fields",
        _("capped at the mean of the document's content fields"),
    ),
    (
        r"(?P<repeated>\d+) of (?P<said>\d+) sentences repeat what was already said",
        _("%(repeated)s of %(said)s sentences repeat what was already said"),
    ),
    (r"names none of this case's parties", _("names none of this case's parties")),
    (r"does not name (?P<name>.+) as appellant", _("does not name %(name)s as appellant")),
    (r"does not name (?P<name>.+) as appellee", _("does not name %(name)s as appellee")),
    (r"names (?P<name>.+) as appellant", _("names %(name)s as appellant")),
    (r"names (?P<name>.+) as appellee", _("names %(name)s as appellee")),
    (r"does not name (?P<name>.+)", _("does not name %(name)s")),
    (r"names (?P<name>.+)", _("names %(name)s")),
    (r"(?P<present>\d+) of (?P<total>\d+) standard sections", _("%(present)s of %(total)s standard sections")),
    (r"missing (?P<headings>.+)", _("missing %(headings)s")),
    (r"no statement here", _("no statement here")),
    (r"conducted", _("conducted")),
    (r"not conducted: the hearing went past it", _("not conducted: the hearing went past it")),
    (r"announced an outcome before the pronouncement", _("announced an outcome before the pronouncement")),
    (r"no outcome announced before the judgment", _("no outcome announced before the judgment")),
    (
        r"questions out of turn: (?P<plaintiff>\d+) to the (?:plaintiff|prosecution), (?P<defendant>\d+) to the defendant",
        _("questions out of turn: %(plaintiff)s to one side, %(defendant)s to the other"),
    ),
    (r"probation as the real court", _("probation as the real court decided")),
    (r"probation unlike the real court", _("probation unlike the real court's decision")),
    (r"none read against (?P<real>[\d.]+)", _("no sentence read, against %(real)s")),
    (r"(?P<given>[\d.]+) against (?P<real>[\d.]+)", _("%(given)s against %(real)s")),
)
APPEAL_REQUESTS = re.compile(r"requests (?P<given>\w+) against (?P<real>\w+)")
"""The appeal-request slot's reason: the action a document asks for, and the real one."""
ACTION_NAMES = {
    "remand": _("a remand for retrial"),
    "reverse": _("the judgment reversed"),
    "vary": _("the judgment varied"),
    "affirm": _("the judgment affirmed"),
    "none": _("nothing recognisable"),
}
ELEMENT_SCORES = re.compile(r"[a-z_]+ [\d.]+(?:, [a-z_]+ [\d.]+)*")
"""A judgment alignment's reason: its elements and their scores (``verdict 6.7, entity 5.0``)."""


def reason_shown(reason: str, element_name: Callable[[str], str]) -> str:
    """``reason`` in the interface's language, part by part (parts are joined by "; "), the
    alignment elements a reason lists named by ``element_name``."""
    return "; ".join(_part_shown(part, element_name) for part in reason.split("; ")) if reason else reason


def _part_shown(part: str, element_name: Callable[[str], str]) -> str:
    requests = APPEAL_REQUESTS.fullmatch(part)
    if requests and {requests["given"], requests["real"]} <= ACTION_NAMES.keys():
        names = {key: str(ACTION_NAMES[value]) for key, value in requests.groupdict().items()}
        return gettext("asks for %(given)s; the real appeal asks for %(real)s") % names
    if ELEMENT_SCORES.fullmatch(part):
        pairs = (pair.rsplit(" ", 1) for pair in part.split(", "))
        return ", ".join(f"{element_name(element)} {value}" for element, value in pairs)
    return REASON_MESSAGES.shown(part)
