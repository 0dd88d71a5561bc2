from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from court.agenda import Checklist, checklist
from court.engine.brief import case_brief
from court.engine.machine import stage_participants
from court.engine.objections import GROUNDS, OBJECTING_ROLES, struck_seqs
from court.engine.state import TrialState
from court.engine.visibility import public_header
from court.procedures import procedure_for
from court.procedures.civil import CLOSING_ACTS
from court.procedures.names import ground_name, names_for, seat_name, stage_name
from court.procedures.seats import seat_info
from legalsim.roles import Ability, ability_required, can
from trials.access import (
    BadInvitation,
    InvitationClosed,
    NotSeated,
    case_seats_open,
    handed_back_seats,
    invitation_read,
    seat_invite,
    seats_of,
    trial_overseer,
    trial_read,
    trials_readable,
)
from trials.batches import batch_progress
from trials.debrief import OutcomeMoves, articles_missed, debrief_for, outcome_moves
from trials.live.seating import seat_release, seat_retake, seat_take
from trials.live.services import (
    LiveError,
    seat_view_for,
    transcript_for,
    turns_heard,
)
from trials.models import Batch, Case, Trial
from trials.selectors import case_search, decisions_defaulted, seats_open_to, stage_choices
from trials.services import BackendUnavailable, trial_create
from trials.timeline import timeline_for

ROOM_STRINGS = {
    "speak": _("Speak"),
    "your_turn_as": _("Your turn as %(speaker)s: %(prompt)s"),
    "waiting_for_your_turn": _("Waiting for your turn"),
    "speaking": _("%(speaker)s is speaking · %(phase)s"),
    "your_turn": _("Your turn: %(prompt)s · %(phase)s"),
    "waiting_for": _("Waiting for %(speaker)s: %(prompt)s · %(phase)s"),
    "stage_begins": _("%(stage)s begins"),
    "stage_over": _("%(stage)s is over"),
    "preparing": _("Preparing"),
    "earlier_stages": _("the earlier stages"),
    "agents_playing": _("Agents are playing %(stages)s so that %(first)s starts from a real case file"),
    "stage_of": _("stage %(number)s of %(count)s"),
    "document_filed": _("Document filed: %(title)s"),
    "paused": _("Paused"),
    "judge_paused": _("The presiding judge paused the trial"),
    "instructor_paused": _("An instructor paused the trial"),
    "struck": _("struck by the court’s ruling"),
    "objection_sent": _("Objection raised: the court will rule on it."),
    "objection_sustained": _("Objection sustained: the statement objected to is struck from the record."),
    "objection_overruled": _("Objection overruled: the statement goes on."),
    "objection_refused": _("The court could not hear your objection: %(reason)s"),
    "resumed": _("Resumed"),
    "goes_on": _("The trial goes on"),
    "ended": _("The trial has ended"),
    "live": _("live"),
    "reconnecting": _("reconnecting…"),
    "signed_out": _("You signed out: sign in again to return."),
    "no_seat": _("You no longer hold a seat in this trial."),
    "control_moved": _("%(action)s → %(phase)s"),
    "actions": {
        "pause": _("Paused"),
        "resume": _("Resumed"),
        "advance": _("Next phase"),
        "mediation": _("Mediation offered"),
        "pronounce": _("To the judgment"),
        "question": _("Question asked"),
    },
}
"""What the room's script shows, in the interface's language (``room.js`` reads it from the
page, ``json_script``), ``%(name)s`` filled in by the script; the protocol's ids stay ids."""


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Where signing in lands: the case library, or the rating queue for raters who only rate."""
    if not can(request.user, Ability.PLAY) and can(request.user, Ability.RATE):
        return redirect("annotation:rater_queue")
    return redirect("trials:case_library")


@ability_required(Ability.PLAY)
def case_library(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    procedure = request.GET.get("procedure", "")
    if procedure not in Case.Procedure.values:
        procedure = ""
    context = {
        "cases": case_search(query=query, procedure=procedure),
        "query": query,
        "procedure": procedure,
        "procedures": Case.Procedure.choices,
    }
    template = "trials/_case_list.html" if request.htmx else "trials/case_library.html"
    return render(request, template, context)


@ability_required(Ability.PLAY)
def case_detail(request: HttpRequest, case_id: str) -> HttpResponse:
    """Instructors see the whole case file, the real judgment marked as evaluation-only.
    Anyone else sees what is public before a trial (title, cause of action, parties, the
    procedure) and the brief of the seat(s) they are choosing: what that seat may see at its
    first stage (``case_brief``); the form re-asks for the briefs and the stages those seats
    play (htmx) when the choice changes. The seats offered are ``case_seats_open``: a paired
    assignment's student gets their own; the first is ticked when the page opens."""
    case = get_object_or_404(Case, pk=case_id)
    playable = case_seats_open(case, request.user)
    chosen = [seat for seat in request.GET.getlist("seats") if seat in playable]
    if not request.htmx and not chosen:
        chosen = list(playable[:1])
    choice = {
        "seats": chosen,
        "playable": playable,
        "stage": request.GET.get("stage", "all"),
        "target_side": request.GET.get("target_side"),
    }
    if request.htmx:
        return render(request, "trials/_play_choice.html", _case_context(request, case, choice))
    return render(request, "trials/case_detail.html", _case_context(request, case, choice))


def _case_context(request: HttpRequest, case: Case, choice: dict, errors: dict[str, str] | None = None) -> dict:
    """The case page's context for the ``choice`` of seats (among the ``playable`` ones), stage and side being made, with
    ``errors`` (by field: ``seats``, ``stage``) of a start refused."""
    teacher = can(request.user, Ability.TEACH)
    target_side = choice["target_side"]
    return {
        "case": case,
        "teacher": teacher,
        "seed": case.seed if teacher else None,
        "header": public_header(case.seed),
        "provenance": case.seed.get("provenance"),
        "briefs": [case_brief(case.seed, seat, target_side=target_side) for seat in choice["seats"]],
        "chosen": choice["seats"],
        "chosen_stage": choice["stage"],
        "target_side": target_side,
        "errors": errors or {},
        "trials": _trials_shown(case, request.user),
        "playable_seats": choice["playable"],
        "stages": stage_choices(case.procedure, choice["seats"], target_side),
    }


def _trials_shown(case: Case, user):
    """The trials of the case ``user`` may read (``trials.access``): their own, their
    courses' and (instructors) the research runs; never a classmate's."""
    trials = trials_readable(user=user).filter(case=case).select_related("trajectory").order_by("-created_at")
    if can(user, Ability.TEACH):
        model_use = {
            "llm_calls_count": Count("llm_calls"),
            "cached_tokens": Sum("llm_calls__cached_tokens"),
            "cost": Sum("llm_calls__cost"),
        }
        return trials.annotate(**model_use)[:20]
    return trials[:20]


@ability_required(Ability.PLAY)
@require_POST
def trial_play(request: HttpRequest, case_id: str) -> HttpResponse:
    """The lobby's form: play the chosen seats in the chosen stages; every other seat is an
    agent. A choice that cannot start (no seat, a stage those seats do not play) brings the
    case page back with the reason next to it and the choice kept."""
    case = get_object_or_404(Case, pk=case_id)
    playable = case_seats_open(case, request.user)
    seats = [seat for seat in request.POST.getlist("seats") if seat in playable]
    target_side = request.POST.get("target_side") or None
    choice = {
        "seats": seats,
        "playable": playable,
        "stage": request.POST.get("stage", "all"),
        "target_side": target_side,
    }
    errors = _play_errors(case, choice)
    if errors:
        return render(request, "trials/case_detail.html", _case_context(request, case, choice, errors), status=400)
    try:
        trial = trial_create(
            live=True,
            case=case,
            humans=dict.fromkeys(seats, request.user),
            stages=None if choice["stage"] == "all" else [choice["stage"]],
            target_side=target_side,
            created_by=request.user,
        )
    except (ValueError, BackendUnavailable) as error:
        return _refused(request, str(error))
    return redirect("trials:trial_room", trial_id=trial.pk)


def _play_errors(case: Case, choice: dict) -> dict[str, str]:
    """Why the ``choice`` cannot start a trial, by field."""
    if not choice["seats"]:
        return {"seats": gettext("Choose at least one seat to play: every other seat is an agent.")}
    offered = [option.stage for option in stage_choices(case.procedure, choice["seats"], choice["target_side"])]
    if choice["stage"] not in ["all", *offered]:
        named = stage_name(choice["stage"], case.language)
        return {
            "stage": gettext("The seats you chose do not play “%(stage)s”: choose a stage listed.") % {"stage": named}
        }
    return {}


def _refused(request: HttpRequest, message: str, *, trial_id: int | None = None) -> HttpResponse:
    """A 400 page saying why, with the way back (to the trial, or the case library); the
    message may repeat what was posted (a seat, a username), and the template escapes it."""
    back = reverse("trials:trial_room", args=[trial_id]) if trial_id else ""
    return render(request, "trials/refused.html", {"message": message, "back": back}, status=400)


@ability_required(Ability.PLAY)
def trial_room(request: HttpRequest, trial_id: int) -> HttpResponse:
    """The live room, for the people seated and the trial's overseers (``trials.access``);
    for anyone else the trial does not exist. Overseers may take over seats; a participant
    invites a named classmate to a free seat. Someone who handed their seat back reads the
    trial through it here, with the way to take it back while the trial is played and the
    debrief once it has ended; their page does not follow the trial live."""
    trial, teacher, my_seats = _trial_for_member(request, trial_id, handed_back=True)
    handed_back = [] if teacher or my_seats else handed_back_seats(trial, request.user)
    reading = my_seats or handed_back
    state = trial.engine_state
    open_seats = seats_open_to(trial, my_seats=my_seats, teacher=True) if teacher else []
    context = {
        "trial": trial,
        "turns": turns_heard(trial, None if teacher else reading),
        "struck": struck_seqs(state.turns),
        "artifacts": trial.artifacts.order_by("id") if teacher else [],
        "model_warnings": decisions_defaulted(state) if teacher else [],
        "my_seats": my_seats,
        "handed_back": handed_back,
        "my_sides": sorted({seat_info(trial.procedure, seat).side for seat in my_seats}),
        "seat_views": [seat_view_for(trial, seat) for seat in reading],
        "open_seats": open_seats,
        "invite_seats": seats_open_to(trial, my_seats=my_seats, teacher=False),
        "ws_path": "" if handed_back else f"/ws/trials/{trial.pk}/",
        "question_seats": _questionable_seats(trial) if "judge" in my_seats or teacher else [],
        "language": trial.case.language,
        "names": names_for(trial.procedure, trial.case.language),
        "strings": ROOM_STRINGS,
        "my_seat_names": ", ".join(seat_name(seat, trial.case.language) for seat in my_seats),
        "handed_back_names": ", ".join(seat_name(seat, trial.case.language) for seat in handed_back),
        "current_stage": (state.stage_history or [""])[-1],
        "hearings": [stage.id for stage in procedure_for(trial.procedure).stages if stage.kind == "trial"],
        "closing_acts": sorted(CLOSING_ACTS),
        "objection_grounds": _objection_grounds(trial, my_seats),
        "objection_grace_ms": int(settings.LEGALSIM_OBJECTION_GRACE_S * 1000),
        "debrief": debrief_for(state),
        "outcome_moves": _outcome_moves(trial, reading),
        "articles_missed": articles_missed(state, reading) if state.finished and reading else [],
        "agenda": _agenda(trial, state, reading),
        "timeline": timeline_for(state),
        "stages_played": ", ".join(stage_name(stage, trial.case.language) for stage in state.stage_history),
    }
    return render(request, "trials/room.html", context)


def _agenda(trial: Trial, state: TrialState, my_seats: list[str]) -> Checklist | None:
    """The interview checklist of the consultation a seat of the user's played, unless the
    course assignment it was played for switched it off."""
    if trial.attempts.filter(assignment__interview_checklist=False).exists():
        return None
    return next(filter(None, (checklist(state, seat) for seat in my_seats)), None)


def _outcome_moves(trial: Trial, my_seats: list[str]) -> list[OutcomeMoves]:
    """What moved each judgment, when the scripted court decided it (a model's or a person's
    judgment follows no rule the app can replay)."""
    state = trial.engine_state
    if trial.backend != "scripted" or "judge" in state.human_seats or not my_seats:
        return []
    return outcome_moves(state, my_seats)


def _trial_for_member(
    request: HttpRequest, trial_id: int, *, handed_back: bool = False
) -> tuple[Trial, bool, list[str]]:
    """The trial, whether the user oversees it, and their seats; a 404 for anyone who is
    neither seated nor an overseer (nor, with ``handed_back``, someone who handed a seat of it
    back), whether or not the trial exists."""
    trial = Trial.objects.select_related("case").filter(pk=trial_id).first()
    if trial is None:
        raise Http404("no such trial")
    overseer = trial_overseer(trial, request.user)
    my_seats = seats_of(trial, request.user)
    if not (overseer or my_seats or (handed_back and handed_back_seats(trial, request.user))):
        raise Http404("no such trial")
    return trial, overseer, my_seats


def _objection_grounds(trial: Trial, my_seats: list[str]) -> list[tuple[str, str]]:
    """The grounds a seated counsel objects on, named in the interface's language like the
    rest of the composer (none for others); the record names it in the case's (``objection_text``)."""
    if not any(seat_info(trial.procedure, seat).role in OBJECTING_ROLES for seat in my_seats):
        return []
    language = "zh" if (get_language() or "").startswith("zh") else "en"
    return [(ground, ground_name(ground, language)) for ground in GROUNDS]


def _questionable_seats(trial: Trial) -> list[str]:
    """Who a presiding judge may question: the other participants of the trial's hearings."""
    state = trial.engine_state
    hearings = [stage for stage in procedure_for(trial.procedure).stages if stage.kind == "trial"]
    seats = {seat for stage in hearings for seat in stage_participants(state, stage)} - {"judge", "stenographer"}
    return sorted(seats & set(procedure_for(trial.procedure).seats))


@ability_required(Ability.PLAY)
@require_POST
def trial_leave(request: HttpRequest, trial_id: int) -> HttpResponse:
    """Hand a seat back to an agent (the holder, or an overseer), once confirmed: a post
    without ``confirm`` (the room's second click) is answered with the question. Then back to
    the room, saying so to someone left without a seat in it: there they read the trial so far
    and may take the seat back while it is played (``trial_retake``)."""
    trial, teacher, _ = _trial_for_member(request, trial_id)
    seat = request.POST.get("seat", "")
    if request.POST.get("confirm") != "yes":
        return render(request, "trials/hand_back.html", {"trial": trial, "seat": seat, "language": trial.case.language})
    try:
        seat_release(trial_id=trial_id, seat=seat, user=request.user)
    except Trial.DoesNotExist:
        raise Http404("no such trial") from None
    except LiveError as error:
        return _refused(request, str(error), trial_id=trial_id)
    if not (teacher or seats_of(trial, request.user)):
        messages.success(
            request,
            gettext("%(seat)s is played by an agent now; the trial goes on without you.")
            % {"seat": seat_name(seat, trial.case.language)},
        )
    return redirect("trials:trial_room", trial_id=trial_id)


@ability_required(Ability.PLAY)
@require_POST
def trial_retake(request: HttpRequest, trial_id: int) -> HttpResponse:
    """Take back a seat one handed back, while the trial is played: back in the room, seated
    and live; refused (the room's way back) once the trial has ended or someone holds it."""
    trial, _, _ = _trial_for_member(request, trial_id, handed_back=True)
    seat = request.POST.get("seat", "")
    try:
        seat_retake(trial_id=trial_id, seat=seat, user=request.user)
    except LiveError as error:
        return _refused(request, str(error), trial_id=trial_id)
    messages.success(request, gettext("You play %(seat)s again.") % {"seat": seat_name(seat, trial.case.language)})
    return redirect("trials:trial_room", trial_id=trial_id)


@ability_required(Ability.PLAY)
def trial_transcript(request: HttpRequest, trial_id: int) -> HttpResponse:
    """A printable transcript. Staff read everything; a participant reads what their seats
    may: the dialogue of stages they took part in and the documents their views show."""
    trial, seats = _trial_for_reader(request, trial_id)
    state = trial.engine_state
    return render(
        request,
        "trials/transcript.html",
        {
            "trial": trial,
            "stages": transcript_for(state, seats),
            "finished": state.finished,
            "language": trial.case.language,
        },
    )


def _trial_for_reader(request: HttpRequest, trial_id: int) -> tuple[Trial, list[str] | None]:
    """The trial and the seats the user reads it through (``trial_read``); a 404 for someone
    who may not read it."""
    try:
        return trial_read(trial_id, request.user)
    except NotSeated:
        raise Http404("no such trial") from None


@ability_required(Ability.PLAY)
@require_POST
def trial_join(request: HttpRequest, trial_id: int) -> HttpResponse:
    """An overseer takes (over) a seat; a participant needs an invitation like anyone else."""
    _trial_for_member(request, trial_id)
    try:
        seat_take(trial_id=trial_id, seat=request.POST.get("seat", ""), user=request.user)
    except Trial.DoesNotExist:
        raise Http404("no such trial") from None
    except LiveError as error:
        return _refused(request, str(error), trial_id=trial_id)
    return redirect("trials:trial_room", trial_id=trial_id)


@ability_required(Ability.PLAY)
@require_POST
def trial_invite(request: HttpRequest, trial_id: int) -> HttpResponse:
    """A participant invites a named classmate to a free seat: the page shows the link to send
    them (signed, for that person only, expiring after a week), or why none was made."""
    trial, _, _ = _trial_for_member(request, trial_id)
    seat = request.POST.get("seat", "")
    username = request.POST.get("username", "").strip()
    context = {"trial": trial, "seat": seat, "username": username}
    try:
        token = seat_invite(trial=trial, seat=seat, username=username, by=request.user)
    except BadInvitation as error:
        return _invitation_answer(request, context | {"error": str(error)}, status=400)
    link = request.build_absolute_uri(reverse("trials:trial_invitation", args=[trial.pk, token]))
    return _invitation_answer(request, context | {"link": link})


def _invitation_answer(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    """The room's form (htmx) gets the fragment, a refusal included: htmx swaps only a 2xx
    answer, so it comes as a 200 there; a plain post gets the page, with ``status``."""
    if request.htmx:
        return render(request, "trials/_invitation.html", context)
    return render(request, "trials/invitation_sent.html", context, status=status)


@ability_required(Ability.PLAY)
def trial_invitation(request: HttpRequest, trial_id: int, token: str) -> HttpResponse:
    """The invitee's page: who invited them to which seat, and a button to take it; once the
    link is used or withdrawn, why it no longer seats them. For anyone else, and for a forged
    or expired link, the trial does not exist."""
    trial = Trial.objects.select_related("case").filter(pk=trial_id).first()
    try:
        if trial is None:
            raise BadInvitation("no such trial")
        invitation = invitation_read(token, trial_id=trial_id, user=request.user)
        if request.method == "POST":
            seat_take(trial_id=trial.pk, seat=invitation.seat, user=request.user, invitation=token)
            return redirect("trials:trial_room", trial_id=trial.pk)
    except InvitationClosed as closed:
        context = {"trial": trial, "reason": str(closed), "held": seats_of(trial, request.user)}
        return render(request, "trials/invitation_closed.html", context, status=410)
    except BadInvitation:
        raise Http404("no such trial") from None
    except LiveError as error:
        return _refused(request, str(error))
    return render(
        request,
        "trials/room_join.html",
        {"trial": trial, "seat": invitation.seat, "inviter": invitation.inviter, "held": seats_of(trial, request.user)},
    )


@ability_required(Ability.TEACH)
def batch_list(request: HttpRequest) -> HttpResponse:
    batches = Batch.objects.annotate(run_count=Count("runs"))[:100]
    return render(request, "trials/batches.html", {"batches": batches})


@ability_required(Ability.TEACH)
def batch_page(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = get_object_or_404(Batch, pk=batch_id)
    personas = [
        (dimension, _persona_levels(before), _persona_levels(batch.personas["after"][dimension]))
        for dimension, before in (batch.personas.get("before") or {}).items()
    ]
    return render(request, "trials/batch.html", {**_batch_context(batch), "personas": personas})


@ability_required(Ability.TEACH)
def batch_progress_fragment(request: HttpRequest, batch_id: int) -> HttpResponse:
    """The progress fragment; it stops asking to be polled once every case is done."""
    return render(request, "trials/_batch_progress.html", _batch_context(get_object_or_404(Batch, pk=batch_id)))


PERSONA_LEVELS = {"high": _("high"), "medium": _("medium"), "low": _("low")}


def _persona_levels(counts: dict[str, int]) -> str:
    """One dimension's LCPF levels as ``trials.batches.persona_levels`` counts them, each level
    named in the interface's language."""
    return " ".join(f"{name} {counts.get(level, 0)}" for level, name in PERSONA_LEVELS.items())


def _batch_context(batch: Batch) -> dict:
    return {"batch": batch, "progress": batch_progress(batch), "runs": batch.runs.order_by("id")}
