"""Writes of the arena: a comparison from finished trajectories in one step, raters' votes,
the LLM judge's votes in both orders."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import IntegrityError, transaction

from annotation.judge import pair_messages, parse_preferences
from annotation.models import Rubric, Trajectory
from arena.configurations import masked, names_of, pairs_of, played_of
from arena.models import Comparison, Configuration, Contest, Vote
from legalsim.llm import LLMCall, LLMClient
from trials.models import Batch

ANSWERS = ("A", "B", "tie", "both_bad")
SIGNING_SALT = "arena.shown"


class ArenaError(ValueError):
    """Bad input, said plainly; nothing was stored."""


def batch_trajectory_ids(batch: Batch) -> list[str]:
    return list(Trajectory.objects.filter(trial__batch_run__batch=batch).values_list("pk", flat=True))


def comparison_create(
    *,
    name: str,
    rubric_id: str,
    trajectory_ids: Iterable[str],
    raters: Iterable[AbstractBaseUser] = (),
    owner: AbstractBaseUser | None = None,
    batch: Batch | None = None,
    configurations: Iterable[str] | None = None,
    uniform_share: float = 0.2,
) -> Comparison:
    """A comparison of the configurations the trajectories were played with: every two
    configurations on each case and seat make a pair. ``configurations`` keeps only the
    configurations of those names."""
    rubric = Rubric.objects.filter(pk=rubric_id).first()
    if rubric is None or not rubric.definition.kind.is_pairwise:
        raise ArenaError(f"rubric {rubric_id!r} is not a pairwise rubric here")
    if Comparison.objects.filter(name=name).exists():
        raise ArenaError(f"a comparison named {name!r} exists already")
    played = played_of(list(Trajectory.objects.filter(pk__in=set(trajectory_ids)).select_related("trial")))
    names = names_of([one.settings for one in played])
    if configurations is not None:
        wanted = set(configurations)
        unknown = sorted(wanted - set(names.values()))
        if unknown:
            raise ArenaError(f"no configuration named {', '.join(map(repr, unknown))} among these trajectories")
        played = [one for one in played if names[one.settings] in wanted]
    if len({names[one.settings] for one in played}) < 2:
        raise ArenaError("a comparison needs trajectories of at least two configurations")
    pairs = pairs_of(played, names)
    if not pairs:
        raise ArenaError("no two configurations played the same case and seat: there is no pair to compare")
    return _stored(name, rubric, owner, batch, uniform_share, raters, played, names, pairs)


@transaction.atomic
def _stored(name, rubric, owner, batch, uniform_share, raters, played, names, pairs) -> Comparison:
    comparison = Comparison.objects.create(
        name=name, rubric=rubric, owner=owner, batch=batch, uniform_share=uniform_share
    )
    comparison.raters.set(list(raters))
    stored = {}
    for settings, label in names.items():
        members = [one.trajectory_id for one in played if one.settings == settings]
        if members:
            stored[label] = Configuration.objects.create(
                comparison=comparison, name=label, settings=dict(settings), trajectory_ids=members
            )
    Contest.objects.bulk_create(
        Contest(
            comparison=comparison,
            case_id=case_id,
            seat=seat,
            first=stored[names[first.settings]],
            second=stored[names[second.settings]],
            first_trajectory=first.trajectory_id,
            second_trajectory=second.trajectory_id,
        )
        for case_id, seat, first, second in pairs
    )
    return comparison


def shown_token(contest: Contest, first_shown_as_a: bool) -> str:
    """What a vote form carries for the order it showed: signed, so it cannot be forged."""
    return signing.dumps({"contest": contest.pk, "a": first_shown_as_a}, salt=SIGNING_SALT)


def shown_read(token: str, contest: Contest) -> bool:
    try:
        shown = signing.loads(token, salt=SIGNING_SALT)
    except signing.BadSignature as error:
        raise ArenaError("the form's order of A and B is not one this site gave: reload the pair") from error
    if shown.get("contest") != contest.pk:
        raise ArenaError("the form's order of A and B belongs to another pair: reload the pair")
    return bool(shown["a"])


def outcome_of(answer: str, *, first_shown_as_a: bool) -> str:
    if answer == "tie":
        return Vote.Outcome.TIE
    if answer == "both_bad":
        return Vote.Outcome.BOTH_BAD
    return Vote.Outcome.FIRST if (answer == "A") == first_shown_as_a else Vote.Outcome.SECOND


def votes_submit(
    *, comparison: Comparison, contest_id: int, rater: AbstractBaseUser, token: str, answers: dict[str, str]
) -> list[Vote]:
    """A rater's answers on every item of one pair, stored together or not at all."""
    contest = Contest.objects.filter(comparison=comparison, pk=contest_id).first()
    if contest is None:
        raise ArenaError(f"pair #{contest_id} is not a pair of this comparison")
    if not comparison.raters.filter(pk=rater.pk).exists():
        raise ArenaError("you are not a rater of this comparison")
    first_shown_as_a = shown_read(token, contest)
    items = comparison.rubric.definition.item_ids
    problems = [f"{item}: choose A, B, tie or both bad" for item in items if answers.get(item) not in ANSWERS]
    problems += [f"{item}: not an item of the rubric" for item in sorted(set(answers) - set(items))]
    if problems:
        raise ArenaError("; ".join(problems))
    try:
        with transaction.atomic():
            return Vote.objects.bulk_create(
                Vote(
                    contest=contest,
                    item=item,
                    source=Vote.Source.HUMAN,
                    rater=rater,
                    first_shown_as_a=first_shown_as_a,
                    outcome=outcome_of(answers[item], first_shown_as_a=first_shown_as_a),
                )
                for item in items
            )
    except IntegrityError as error:
        raise ArenaError(f"you have already voted on pair #{contest_id}: a vote is given once") from error


def judge_run(
    *, comparison: Comparison, model: str, client: LLMClient, progress: Callable[[int, int], None] | None = None
) -> int:
    """The LLM judge votes on every pair in both orders (its earlier votes replaced); returns
    the number of orders it could not answer in the rubric's shape."""
    definition = comparison.rubric.definition
    contests = list(comparison.contests.all())
    ids = {tid for contest in contests for tid in (contest.first_trajectory, contest.second_trajectory)}
    records = {t.pk: t.as_contract() for t in Trajectory.objects.filter(pk__in=ids)}
    models = [str(configuration.settings.get("model", "")) for configuration in comparison.configurations.all()]
    unusable = 0
    for index, contest in enumerate(contests, 1):
        first, second = (records.get(contest.first_trajectory), records.get(contest.second_trajectory))
        if first is None or second is None:
            unusable += 2
            continue
        for first_shown_as_a in (True, False):
            shown = (first, second) if first_shown_as_a else (second, first)
            answers = _judge_answers(client, model, definition, tuple(masked(r, models) for r in shown))
            if answers is None:
                unusable += 1
                continue
            _judge_store(contest, model, first_shown_as_a, answers)
        if progress is not None:
            progress(index, len(contests))
    return unusable


def _judge_answers(client: LLMClient, model: str, definition, shown: tuple[dict, dict]) -> dict | None:
    for strict in (False, True):
        result, _ = client.complete(LLMCall(model, pair_messages(definition, shown, strict=strict), temperature=0.0))
        try:
            return parse_preferences(result.text, definition)
        except (ValueError, KeyError, TypeError):
            continue
    return None


@transaction.atomic
def _judge_store(contest: Contest, model: str, first_shown_as_a: bool, answers: dict) -> None:
    Vote.objects.filter(
        contest=contest, source=Vote.Source.LLM, judge=model, first_shown_as_a=first_shown_as_a
    ).delete()
    Vote.objects.bulk_create(
        Vote(
            contest=contest,
            item=item,
            source=Vote.Source.LLM,
            judge=model,
            first_shown_as_a=first_shown_as_a,
            outcome=outcome_of("tie" if answer == "draw" else answer, first_shown_as_a=first_shown_as_a),
            reason=reason,
        )
        for item, (answer, reason) in answers.items()
    )
