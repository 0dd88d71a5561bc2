"""What the scorecards call the rubric's capabilities and scored items (the ids stay in the
stored results): ``FIT.investigation.position_consistency`` is "First-instance trial · Court
investigation · Position consistency", ``CD.claims`` "Drafting the complaint · Claims pleaded".
Stages and phases are named in the case's language, the rest in the interface's."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from court.procedures.names import PHASES, phase_name, stage_name

CAPABILITY_NAMES = {
    "issue_spotting": _("Issue spotting"),
    "party_identification": _("Party identification"),
    "claim_construction": _("Claim construction"),
    "fact_marshalling": _("Fact marshalling"),
    "evidence_marshalling": _("Evidence marshalling"),
    "position_consistency": _("Position consistency"),
    "evidentiary_advocacy": _("Evidentiary advocacy"),
    "legal_reasoning": _("Legal reasoning"),
    "procedural_compliance": _("Procedural compliance"),
    "neutrality": _("Neutrality"),
    "judgment_alignment": _("Judgment alignment"),
    "stance_authenticity": _("Stance authenticity"),
    "disclosure": _("Disclosure"),
    "verdict": _("Verdict"),
    "reasoning": _("Reasoning"),
    "legal_reference": _("Legal reference"),
    "appeal_action": _("Appeal action"),
    "entity": _("Parties named"),
    "structure": _("Structure"),
    "overall": _("Overall"),
    "relationship": _("Legal relationship"),
    "rule": _("Applicable rule"),
    "risk": _("Risk"),
    "advice": _("Advice"),
}
"""The rubric's capabilities, dimensions and alignment elements."""
ITEM_PARTS = {
    "claims": _("Claims or defences pleaded"),
    "facts": _("Facts and reasons"),
    "evidence": _("Evidence identified"),
    "disposition": _("Requested disposition"),
    "reasons": _("Appeal reasons or answers to them"),
    "linkage": _("Linkage to the first-instance judgment"),
    "new_evidence": _("New evidence"),
    "coherence": _("Coherence"),
    "sections": _("Standard sections"),
    "court": _("Court addressed"),
    "party.plaintiff": _("Plaintiff named"),
    "party.defendant": _("Defendant named"),
    "appellate_role": _("Role on appeal"),
    "requests": _("Action requested"),
    "conducted": _("Phase conducted"),
    "no_prejudgment": _("No outcome announced early"),
    "questions_shared": _("Questions shared between the sides"),
    "alignment": _("Judgment alignment"),
    "imprisonment": _("Imprisonment"),
    "fine": _("Fine"),
    "probation": _("Probation"),
}
"""The scorer's own item parts (``scoring.drafting``, ``scoring.roles``)."""
STAGE_PARTS = {
    ("CD", "claims"): _("Claims pleaded"),
    ("DD", "claims"): _("Defences pleaded"),
    ("AD", "reasons"): _("Appeal reasons"),
    ("AR", "reasons"): _("Answers to the appeal reasons"),
}
"""Parts named after the pleading of their stage."""


def capability_name(name: str) -> str:
    """A capability (dimension, alignment element) of the rubric as the scorecards name it."""
    known = CAPABILITY_NAMES.get(name)
    return str(known) if known is not None else name.replace("_", " ").capitalize()


def item_words(item_id: str, language: str) -> list[str]:
    """A scored item's id as names, its stage first: a part followed by others that is a
    phase is the phase (``FIT.evidence.legal_reasoning``), a last one is the item's own
    (``CD.evidence``, the evidence a complaint identifies)."""
    stage, *rest = item_id.split(".")
    words = [stage_name(stage, language)]
    whole: Promise | None = STAGE_PARTS.get((stage, ".".join(rest))) or ITEM_PARTS.get(".".join(rest))
    if whole is not None:
        return [*words, str(whole)]
    for index, part in enumerate(rest):
        if part in PHASES and index < len(rest) - 1:
            words.append(phase_name(part, language))
        elif part[:1] == "q" and part[1:].isdigit():
            words.append(gettext("question %(number)s") % {"number": part[1:]})
        elif part in ITEM_PARTS:
            words.append(str(ITEM_PARTS[part]))
        else:
            words.append(capability_name(part))
    return words


def item_name(item_id: str, language: str) -> str:
    return " · ".join(item_words(item_id, language))


def item_detail(item_id: str, capability: str, language: str) -> list[str]:
    """What tells an item apart from the others of its stage and capability: its id's names
    without the stage, and without the capability when the id ends with it."""
    words = item_words(item_id, language)[1:]
    if item_id.endswith(f".{capability}") and words:
        words = words[:-1]
    return words
