"""Cases, trials and what a trial records: turns, artifacts and memory operations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from court.engine.state import TrialState


class Case(models.Model):
    """A case seed. ``seed`` is the validated case file record, hidden fields included;
    only ``court.engine.visibility`` decides what of it a seat may see."""

    class Procedure(models.TextChoices):
        CIVIL = "civil", _("Civil life cycle")
        CRIMINAL = "criminal", _("Criminal trial")

    id = models.CharField(primary_key=True, max_length=120)
    procedure = models.CharField(max_length=16, choices=Procedure.choices)
    title = models.CharField(max_length=300)
    language = models.CharField(max_length=8)
    cause_of_action = models.CharField(max_length=200)
    seed = models.JSONField()
    source_file = models.CharField(max_length=500, blank=True)
    imported_at = models.DateTimeField(auto_now=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cases_imported",
        help_text="who first uploaded the case (the page or the API); they and admins may replace it there. "
        "Blank for a case imported from the command line",
    )

    class Meta:
        verbose_name = _("case")
        verbose_name_plural = _("cases")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.id}: {self.title}"


class Trial(models.Model):
    class Status(models.TextChoices):
        PREPARING = "preparing", _("Agents are playing the earlier stages")
        RUNNING = "running", _("Running")
        WAITING = "waiting", _("Waiting for a participant")
        PAUSED = "paused", _("Paused after a failure (resumable)")
        FINISHED = "finished", _("Finished")

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="trials")
    procedure = models.CharField(max_length=16)
    target_side = models.CharField(max_length=16)
    backend = models.CharField(max_length=16)
    supervised = models.BooleanField(default=False, help_text="MASER supervisor checks client and lawyer replies")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    state = models.JSONField()
    tokens = models.PositiveIntegerField(default=0)
    tokens_estimated = models.PositiveIntegerField(
        default=0, help_text="the part of tokens estimated because a model server reported no usage"
    )
    target_model = models.CharField(
        max_length=200, blank=True, help_text="the target seat's model, set when a batch compares models"
    )
    skill_notes = models.JSONField(
        default=list, blank=True, help_text="the reflective skill notes the target lawyer was given, as given"
    )
    version = models.PositiveIntegerField(default=0, help_text="raised by every store of the state")
    pause_reason = models.TextField(blank=True)
    first_stage = models.CharField(
        max_length=32,
        blank=True,
        help_text="the stage people start at while agents still play the ones before it; blank once they have",
    )
    live = models.BooleanField(default=False, help_text="played in the room, walked by a driver (not a batch run)")
    driver = models.CharField(max_length=100, blank=True, help_text="the process whose driver holds the lease")
    driver_until = models.DateTimeField(null=True, blank=True, help_text="when the driver's lease runs out")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    course = models.ForeignKey(
        "classroom.Course",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="trials",
        help_text="the course whose instructors may read and oversee the trial (an assignment's attempt)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("trial")
        verbose_name_plural = _("trials")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Trial {self.pk} of {self.case_id}"

    @property
    def engine_state(self) -> TrialState:
        return TrialState.from_dict(self.state)


class Seat(models.Model):
    """Who plays a seat: a user, or an agent of a backend/model."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=32)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    agent_model = models.CharField(max_length=200, blank=True)
    handed_back_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    """The person who played this seat and handed it back to an agent themselves: they keep
    reading the trial through it (an overseer's removal keeps nothing)."""

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [models.UniqueConstraint(fields=["trial", "seat"], name="unique_seat_per_trial")]

    def __str__(self) -> str:
        return f"{self.seat} = {self.holder}"

    @property
    def holder(self) -> str:
        """``human:USERNAME`` or ``agent:MODEL``, as the create_trial contract prints it."""
        return f"human:{self.user.get_username()}" if self.user else f"agent:{self.agent_model}"


class Invitation(models.Model):
    """An invitation of one person to one seat of a trial (``trials.access``): the signed
    link carries its id, so it is used once, and an overseer removing that person from the
    trial withdraws it; the signature still expires it after a week."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="invitations")
    seat = models.CharField(max_length=32)
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True, help_text="when the invitee took the seat with it")
    revoked_at = models.DateTimeField(
        null=True, blank=True, help_text="when an overseer removed the invitee from the trial, unused"
    )

    class Meta:
        ordering = ["trial", "id"]

    def __str__(self) -> str:
        return f"invitation {self.pk}: {self.seat} of trial {self.trial_id}"


class Turn(models.Model):
    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="turns")
    seq = models.PositiveIntegerField()
    stage = models.CharField(max_length=32)
    phase = models.CharField(max_length=32)
    seat = models.CharField(max_length=32)
    role = models.CharField(max_length=32)
    side = models.CharField(max_length=16)
    speaker = models.CharField(max_length=100)
    author = models.CharField(max_length=8)
    act = models.CharField(max_length=64)
    text = models.TextField()
    tokens = models.PositiveIntegerField(default=0)
    client_id = models.CharField(
        max_length=100, blank=True, help_text="the browser's id for a human turn: retries are idempotent"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trial", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["trial", "seq"], name="unique_turn_seq_per_trial"),
            models.UniqueConstraint(
                fields=["trial", "client_id"], condition=~models.Q(client_id=""), name="unique_client_id_per_trial"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.trial_id}#{self.seq} {self.speaker}"


class Artifact(models.Model):
    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="artifacts")
    stage = models.CharField(max_length=32)
    kind = models.CharField(max_length=64)
    title = models.CharField(max_length=300)
    text = models.TextField()
    author_seat = models.CharField(max_length=32)
    side = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trial", "id"]

    def __str__(self) -> str:
        return f"{self.trial_id} {self.kind}"


class MemoryOperation(models.Model):
    """One ``revise``/``expand`` write to a seat's global memory, logged per stage."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="memory_operations")
    stage = models.CharField(max_length=32)
    seat = models.CharField(max_length=32)
    op = models.CharField(max_length=8)
    key = models.CharField(max_length=32)
    value = models.JSONField()

    class Meta:
        ordering = ["trial", "id"]

    def __str__(self) -> str:
        return f"{self.trial_id} {self.seat} {self.op} {self.key}"


class LLMCallRecord(models.Model):
    """One call to a model server: what it cost and how it went (docs/design.md, "One LLM
    client")."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="llm_calls")
    seat = models.CharField(max_length=32)
    stage = models.CharField(max_length=32)
    act = models.CharField(max_length=64)
    model = models.CharField(max_length=200)
    prompt_tokens = models.PositiveIntegerField(default=0)
    cached_tokens = models.PositiveIntegerField(
        default=0, help_text="of the prompt tokens, those the server read from its prompt cache (as it reported them)"
    )
    completion_tokens = models.PositiveIntegerField(default=0)
    cost = models.FloatField(
        null=True,
        blank=True,
        help_text="what the call cost at LEGALSIM_PRICES; empty when no price is set for its model",
    )
    tokens_estimated = models.BooleanField(
        default=False, help_text="the server reported no usage: the token counts are LegalSim's estimate"
    )
    latency_s = models.FloatField(default=0.0)
    attempts = models.PositiveSmallIntegerField(default=1)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trial", "id"]

    def __str__(self) -> str:
        return f"{self.trial_id} {self.seat} {self.model}"


class Batch(models.Model):
    """A batch run of a case split (``simulate_split``): one ``BatchRun`` per case."""

    split = models.CharField(max_length=300, help_text="light, medium, full, or the split file")
    procedure = models.CharField(max_length=16)
    backend = models.CharField(max_length=16)
    target_side = models.CharField(max_length=16, blank=True, help_text="blank: each case's default")
    concurrency = models.PositiveSmallIntegerField()
    personas = models.JSONField(default=dict, help_text="LCPF levels before/after redistribution, for the log")
    target_models = models.JSONField(
        default=list, blank=True, help_text="the target models compared: each case runs once per model"
    )
    supervised = models.BooleanField(default=False, help_text="MASER supervisor on the clients and lawyers")
    strategy = models.BooleanField(
        default=True, help_text="SimCourt's Strategy module on the model seats (off: simulate_split --no-strategy)"
    )
    skill_notes = models.BooleanField(
        default=False, help_text="the target lawyer is given the reflective skill notes of each case's cause"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Batch {self.pk} ({self.split})"


class BatchRun(models.Model):
    """One case of a batch. ``attempt`` is the fencing token of the current claim: a worker
    writes only while its attempt is the row's, so a case never runs twice at once."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENT = "sent", _("Sent to the workers")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        PAUSED = "paused", _("Paused after a failure (resumable)")

    batch = models.ForeignKey(Batch, on_delete=models.CASCADE, related_name="runs")
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="batch_runs")
    seed = models.JSONField(help_text="the case seed as run: personas after redistribution")
    target_model = models.CharField(max_length=200, blank=True, help_text="blank: the settings' target model")
    trial = models.OneToOneField(Trial, null=True, blank=True, on_delete=models.SET_NULL, related_name="batch_run")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    attempt = models.PositiveIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    checkpoint = models.CharField(max_length=32, blank=True, help_text="the last stage finished and stored")
    sent_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["batch", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["batch", "case", "target_model"], name="one_run_per_case_and_model_in_a_batch"
            )
        ]

    def __str__(self) -> str:
        return f"{self.batch_id}/{self.case_id} {self.status}"


class CaseDraft(models.Model):
    """A case being written in the browser (``trials.caselibrary.authoring``): the form as its author typed
    it, valid or not, and the library case it was last published as."""

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="case_drafts")
    fields = models.JSONField(default=dict)
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.SET_NULL, related_name="drafts")
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"draft {self.pk}: {self.title}"

    @property
    def title(self) -> str:
        return self.fields.get("title", "").strip() or "Untitled case"

    @property
    def changed_since_published(self) -> bool:
        return self.published_at is not None and self.updated_at > self.published_at


class SkillNote(models.Model):
    """A Reflective Legal Skill note (LegalWorld section 4.6): a rule the lawyer's model drew
    from a finished trial, given to the target lawyer of later trials of the same cause of
    action that are run with notes. Instructors review, edit and switch them off."""

    cause_of_action = models.CharField(max_length=200, db_index=True)
    language = models.CharField(max_length=8)
    role = models.CharField(max_length=32)
    stages = models.JSONField(help_text="the stage codes the note applies in")
    trigger = models.TextField(help_text="when the rule applies")
    principle = models.TextField(help_text="the procedural correction principle")
    expected_output = models.TextField(help_text="what the lawyer's output must then contain")
    enabled = models.BooleanField(default=True)
    source_trial = models.ForeignKey(
        Trial, null=True, blank=True, on_delete=models.SET_NULL, related_name="reflected_notes"
    )
    source_case = models.CharField(max_length=120, blank=True, help_text="the case reflected on")
    model = models.CharField(max_length=200, blank=True, help_text="the model that wrote the candidate")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["cause_of_action", "id"]

    def __str__(self) -> str:
        return f"Skill note {self.pk} ({self.cause_of_action})"
