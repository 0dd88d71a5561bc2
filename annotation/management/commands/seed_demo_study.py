"""The demo rating study, after ``seed_demo`` (``dev.py up`` runs both): the rater of a fresh
demo has something to rate at once, and the study's agreement report has figures at once.

Two more demo raters, ``rater2`` and ``rater3`` (no password: nobody signs in as them), have
rated every trajectory already. Their scores are read from the trajectory, not drawn at
random: for a stage, the share of its turns that state a figure (a sum, a date, an article)
and the share that repeat an earlier turn word for word; for a role, the share of its turns
that state a figure (a party pressing its case on the facts) and the share of its vocabulary
no other role uses. Each reader weighs them in their own way (``READERS``: ``rater2`` reads
for procedure and is lenient, ``rater3`` reads for substance and is strict), so they agree
where a trajectory is plainly better or worse and differ in between, as two people do. Each
reason says what was counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import BaseCommand
from django.db.models import QuerySet

from annotation.models import Assignment, Rubric, Study, Trajectory
from annotation.rubric import DEFAULT_RUBRIC
from annotation.stages import item_stages, stages_read_for
from annotation.studies import assignment_submit
from annotation.study_setup import raters_found, study_store
from legalsim.roles import Role, role_grant
from trials.management.commands.seed_demo import DEMO_CASES
from trials.models import Case

DEMO_STUDY = "Demo study"
DEMO_STUDY_INSTRUCTIONS = (
    "A demo study: the civil demo cases, each played once by the offline scripted agents. Read a trajectory, "
    "then score every item of the rubric and give a reason for each score."
)
FIGURE = re.compile(r"\d|[〇一二三四五六七八九十百千万]+[元日月年条]")
"""A turn states a figure: a number, or a Chinese sum, date or article in words."""


COHERENT = 9.0
"""Every reader's score for a stage that never repeats itself: its flow shows no fault they count."""


@dataclass(frozen=True)
class Reader:
    """How a demo rater turns what was counted into a score out of 10."""

    username: str
    base: float
    figures: float
    """Points for a stage or role whose every turn states a figure."""
    repeats: float
    """Points off for a stage whose every turn repeats an earlier one."""
    own_words: float
    """Points for a role none of whose words another role uses."""


READERS = (
    Reader("rater2", base=5.5, figures=6.0, repeats=12.0, own_words=6.0),
    Reader("rater3", base=4.0, figures=10.0, repeats=25.0, own_words=9.0),
)


@dataclass(frozen=True)
class Counts:
    """What a reader counts in the turns an item is read on."""

    turns: int
    figures: int
    repeats: int
    own_words: float
    """The share of the role's vocabulary no other role uses (0 for a stage's item)."""


class Command(BaseCommand):
    help = (
        "Create the demo rating study: the first all-agent trajectory of each civil demo case, on the default "
        "rubric, assigned to the demo rater and already rated by the demo raters rater2 and rater3 (run seed_demo "
        "first). Running it again creates nothing twice."
    )

    def handle(self, *args, **options) -> None:
        if Study.objects.filter(name=DEMO_STUDY).exists():
            self.stdout.write(f"study {DEMO_STUDY!r} exists")
            return
        raters, problems = raters_found(["rater"])
        if problems:
            self.stderr.write(f"study {DEMO_STUDY!r} not created: {'; '.join(problems)}")
            return
        readers = [_reader_user(reader.username) for reader in READERS]
        demo_cases = Case.objects.filter(pk__in=[path.stem for path in DEMO_CASES.glob("*.json")])
        units = _first_trajectories(demo_cases.filter(procedure=Case.Procedure.CIVIL))
        created = study_store(
            name=DEMO_STUDY,
            rubric=Rubric.objects.get(pk=DEFAULT_RUBRIC),
            units=units,
            raters=[*raters, *readers],
            k=1 + len(readers),
            instructions=DEMO_STUDY_INSTRUCTIONS,
        )
        rated = sum(_rate_all(created.study, reader) for reader in READERS)
        self.stdout.write(
            f"study {DEMO_STUDY!r}: {len(units)} trajectories, each assigned to 'rater', 'rater2' and 'rater3'; "
            f"{rated} questionnaires of 'rater2' and 'rater3' submitted"
        )


def _reader_user(username: str) -> AbstractBaseUser:
    """A demo rater who rated the study when it was seeded: a rater with no usable password."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    role_grant(user, Role.RATER)
    return user


def _rate_all(study: Study, reader: Reader) -> int:
    """Submit every questionnaire of ``reader`` in the study; how many were submitted."""
    rubric = study.rubric.definition
    user = get_user_model().objects.get(username=reader.username)
    assignments = Assignment.objects.filter(study=study, rater=user).order_by("pk")
    trajectories = Trajectory.objects.in_bulk([assignment.trajectory_id for assignment in assignments])
    for assignment in assignments:
        trajectory = trajectories[assignment.trajectory_id]
        answers = {item: _answer(reader, item, _counts(rubric, item, trajectory)) for item in rubric.item_ids}
        assignment_submit(assignment_id=assignment.pk, rater=user, answers=answers)
    return assignments.count()


def _counts(rubric, item: str, trajectory: Trajectory) -> Counts:
    """What ``item`` is read on: the turns of its stage, or the role's turns across the trial."""
    stages, of_stage = stages_read_for(rubric, item, trajectory)
    turns = [turn for stage in stages for turn in stage["turns"]]
    if of_stage or item not in _role_items(rubric):
        texts = [turn["text"] for turn in turns]
        repeats = sum(1 for index, text in enumerate(texts) if text in texts[:index])
        return Counts(len(texts), sum(1 for text in texts if FIGURE.search(text)), repeats, 0.0)
    role = item.split(".", 1)[0]
    own = [turn["text"] for turn in turns if turn["role"] == role]
    others = [turn["text"] for turn in turns if turn["role"] != role]
    words, other_words = _words(own, trajectory.language), _words(others, trajectory.language)
    share = len(words - other_words) / len(words) if words else 0.0
    return Counts(len(own), sum(1 for text in own if FIGURE.search(text)), 0, share)


def _role_items(rubric) -> set[str]:
    """The items that rate a role (every item that rates no stage)."""
    return set(rubric.item_ids) - set(item_stages(rubric))


def _words(texts: list[str], language: str) -> set[str]:
    """A text's vocabulary: English words of three letters or more, Chinese character pairs."""
    text = " ".join(texts)
    if language == "en":
        return set(re.findall(r"[a-z]{3,}", text.lower()))
    return {text[index : index + 2] for index in range(len(text) - 1) if "\u4e00" <= text[index] <= "\u9fff"}


def _answer(reader: Reader, item: str, counts: Counts) -> dict:
    """A score out of 10 and the reason, saying what was counted: how far the turns state the
    facts (procedural compliance, a role's stance), run on without repeating themselves
    (process coherence), or speak in the role's own words (role distinguishability)."""
    if not counts.turns:
        return {"score": 0, "reason": "Nothing was said here."}
    aspect = item.rsplit(".", 1)[1]
    if aspect == "process_coherence":
        raw = COHERENT - reader.repeats * counts.repeats / counts.turns
        reason = f"{counts.repeats} of {counts.turns} turns repeat an earlier turn word for word."
    elif aspect == "role_distinguishability":
        raw = reader.base + reader.own_words * counts.own_words
        reason = f"{counts.own_words:.0%} of the words in its {counts.turns} turns are its own."
    else:
        raw = reader.base + reader.figures * counts.figures / counts.turns
        reason = f"{counts.figures} of {counts.turns} turns state a figure (a sum, a date, an article)."
    return {"score": max(0, min(10, round(raw))), "reason": reason}


def _first_trajectories(cases: QuerySet[Case]) -> list[str]:
    """Per case, its oldest trajectory of a trial no person played and no course owns."""
    trajectories = (
        Trajectory.objects.filter(case_id__in=cases.values("pk"), trial__course__isnull=True)
        .exclude(trial__seats__user__isnull=False)
        .order_by("case_id", "created_at", "pk")
        .values_list("case_id", "pk")
    )
    first: dict[str, str] = {}
    for case_id, trajectory_id in trajectories:
        first.setdefault(case_id, trajectory_id)
    return list(first.values())
