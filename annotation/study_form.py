"""The instructor's study set-up form (``annotation.setup_views``): what ``study_create`` takes,
picked in the browser, and the study's instructions and deadline. Each field is checked by the
command's own checks (``annotation.study_setup``), every problem is shown beside its field,
and nothing is stored until there is none."""

from __future__ import annotations

from collections.abc import Iterable

from django import forms
from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from annotation.models import Rubric, Trajectory
from annotation.rubric_kind import PAIRWISE, SCALE, Pair
from annotation.study_setup import (
    MAX_ID,
    StudyCreated,
    k_problems,
    listed_units,
    name_problems,
    raters_found,
    rubric_found,
    rubric_stage_problems,
    study_store,
)
from annotation.trajectory_access import trajectories_refused
from legalsim.json_input import shown
from legalsim.roles import User

MODES = (
    (SCALE.mode, gettext_lazy("Pointwise: each trajectory scored on its own")),
    (PAIRWISE.mode, gettext_lazy("Pairwise: two trajectories of one case compared")),
)
INSTRUCTIONS_MAX = 10_000


class StudySetupForm(forms.Form):
    """``trajectories`` are the ids ticked in the picker, ``typed_ids`` those typed or pasted
    (one a line); a pairwise study pairs every two chosen trajectories of one case."""

    name = forms.CharField(required=False)
    rubric = forms.ChoiceField()
    mode = forms.ChoiceField(choices=MODES, initial=SCALE.mode)
    trajectories = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    typed_ids = forms.CharField(required=False)
    raters = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    k = forms.IntegerField(initial=2)
    instructions = forms.CharField(required=False, max_length=INSTRUCTIONS_MAX)
    deadline = forms.DateTimeField(required=False)

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        language = get_language()
        self.fields["rubric"].choices = [
            (rubric.pk, f"{rubric.pk} · {rubric.definition.localized(language).title}")
            for rubric in Rubric.objects.all()
        ]

    def clean(self) -> dict:
        data = super().clean()
        data["name"] = (data.get("name") or "").strip()
        self._problems("name", name_problems(data["name"]))
        rubric, problems = rubric_found(data["rubric"]) if "rubric" in data else (None, [])
        self._problems("rubric", problems)
        pairwise = data.get("mode") == PAIRWISE.mode
        if rubric is not None and rubric.definition.kind.is_pairwise != pairwise:
            self.add_error("mode", _mode_problem(rubric, pairwise))
        data["units"] = self._units(pairwise)
        if rubric is not None and data["units"]:
            self._problems("rubric", rubric_stage_problems(rubric, data["units"]))
        raters, problems = raters_found(data.get("raters") or [])
        self._problems("raters", problems)
        if data.get("k") is not None:
            self._problems("k", k_problems(data["k"], len(raters)))
        if data.get("deadline") and data["deadline"] <= timezone.now():
            self.add_error("deadline", _("this moment has passed; give a deadline in the future, or none"))
        data["rubric_object"], data["rater_users"] = rubric, raters
        return data

    def _problems(self, field: str, problems: Iterable[str]) -> None:
        for problem in problems:
            self.add_error(field, problem)

    def _units(self, pairwise: bool) -> list[str]:
        """The chosen trajectories (ticked or typed, each once), or their pairs; a problem
        beside the field for every id that is not stored and for a case left without a pair."""
        picked = [tid.strip() for tid in self.cleaned_data.get("trajectories") or [] if tid.strip()]
        typed = listed_units(self.cleaned_data.get("typed_ids", ""))
        wanted = list(dict.fromkeys([*picked, *(tid for _line, tid in typed)]))
        case_of = dict(Trajectory.objects.filter(pk__in=wanted).values_list("pk", "case_id"))
        for tid in trajectories_refused(case_of, user=self.user):  # not for this person to rate: as if not stored
            del case_of[tid]
        for tid in dict.fromkeys(picked):
            if tid not in case_of:
                self.add_error("trajectories", _("no trajectory %(id)s is stored here") % {"id": shown(tid)})
        for line, tid in typed:
            if tid not in case_of:
                self.add_error(
                    "typed_ids",
                    _("line %(line)d: no trajectory %(id)s is stored here") % {"line": line, "id": shown(tid)},
                )
        if not wanted:
            self.add_error("trajectories", _("choose at least one trajectory: tick it in the list, or type its id"))
        chosen = [tid for tid in wanted if tid in case_of]
        if not pairwise:
            return chosen
        pairs, alone = pairs_of_one_case(chosen, case_of)
        for case_id in alone:
            self.add_error(
                "trajectories",
                _("a pair needs two trajectories of one case; only one of %(case)s is chosen") % {"case": case_id},
            )
        for pair in pairs:
            if len(pair) > MAX_ID:
                self.add_error(
                    "trajectories",
                    _("the pair %(pair)s is longer than %(max)d characters; choose trajectories with shorter ids")
                    % {"pair": shown(pair), "max": MAX_ID},
                )
        return pairs

    def save(self) -> StudyCreated | None:
        """The study, created and planned; ``None`` (with the problem beside the name) when a
        study of that name was created meanwhile."""
        data = self.cleaned_data
        try:
            return study_store(
                name=data["name"],
                rubric=data["rubric_object"],
                units=data["units"],
                raters=data["rater_users"],
                k=data["k"],
                instructions=data["instructions"].strip(),
                deadline=data["deadline"],
                owner=self.user,
            )
        except IntegrityError:
            self._problems("name", name_problems(data["name"]))
            return None


def _mode_problem(rubric: Rubric, pairwise: bool) -> str:
    if pairwise:
        return _("the rubric %(rubric)s scores one trajectory at a time; choose pointwise, or a pairwise rubric") % {
            "rubric": rubric.pk
        }
    return _("the rubric %(rubric)s compares two trajectories; choose pairwise, or a rubric that scores one") % {
        "rubric": rubric.pk
    }


def pairs_of_one_case(trajectory_ids: Iterable[str], case_of: dict[str, str]) -> tuple[list[str], list[str]]:
    """Every two of the trajectories of one case as a pair (``FIRST|SECOND``, ids in order), and
    the cases with a single trajectory, which make no pair."""
    by_case: dict[str, list[str]] = {}
    for tid in trajectory_ids:
        by_case.setdefault(case_of[tid], []).append(tid)
    pairs = [str(pair) for tids in by_case.values() for pair in Pair.every_two(tids)]
    return pairs, [case_id for case_id, tids in by_case.items() if len(tids) == 1]


def created_message(created: StudyCreated) -> str:
    return ngettext(
        "Study %(name)s created, %(planned)d assignment planned.",
        "Study %(name)s created, %(planned)d assignments planned.",
        created.planned,
    ) % {"name": created.study.name, "planned": created.planned}
