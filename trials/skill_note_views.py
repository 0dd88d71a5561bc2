"""Instructors review the reflective skill notes (``trials.reflection``): every note by cause
of action, each editable, switched off or deleted. A note changed here reaches the trials
created afterwards; a trial keeps the words it was given."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from court.procedures import procedure_for
from court.procedures.names import stage_name
from legalsim.roles import Ability, ability_required
from trials.models import SkillNote


def _stage_choices(note: SkillNote) -> list[tuple[str, str]]:
    """The stages of the note's procedure (the one its stages belong to), named in the
    reader's language."""
    language = "zh" if (get_language() or "").startswith("zh") else "en"
    civil = procedure_for("civil").stage_ids
    stages = civil if set(note.stages) <= set(civil) else procedure_for("criminal").stage_ids
    return [(stage, stage_name(stage, language)) for stage in stages]


class SkillNoteForm(forms.ModelForm):
    stages = forms.MultipleChoiceField(label=_("Stages"), widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = SkillNote
        fields = ("trigger", "principle", "expected_output", "stages", "enabled")
        labels = {
            "trigger": _("When it applies"),
            "principle": _("Procedural correction"),
            "expected_output": _("Expected output"),
            "enabled": _("Given to later trials of this cause"),
        }
        help_texts = {name: "" for name in ("trigger", "principle", "expected_output")}
        widgets = {name: forms.Textarea(attrs={"rows": 3}) for name in ("trigger", "principle", "expected_output")}

    def __init__(self, *args, instance: SkillNote, **kwargs) -> None:
        super().__init__(*args, instance=instance, **kwargs)
        self.fields["stages"].choices = _stage_choices(instance)


@ability_required(Ability.TEACH)
def skill_notes(request: HttpRequest) -> HttpResponse:
    causes: dict[str, list[SkillNote]] = {}
    for note in SkillNote.objects.select_related("source_trial"):
        causes.setdefault(note.cause_of_action, []).append(note)
    return render(request, "trials/skill_notes.html", {"causes": causes})


@ability_required(Ability.TEACH)
def skill_note_edit(request: HttpRequest, note_id: int) -> HttpResponse:
    note = get_object_or_404(SkillNote, pk=note_id)
    form = SkillNoteForm(request.POST or None, instance=note)
    if request.method == "POST" and form.is_valid():
        note = form.save(commit=False)
        note.updated_by = request.user
        note.save()
        messages.success(request, gettext("Skill note %(note)s saved.") % {"note": note.pk})
        return redirect("trials:skill_notes")
    return render(request, "trials/skill_note.html", {"note": note, "form": form})


@require_POST
@ability_required(Ability.TEACH)
def skill_note_delete(request: HttpRequest, note_id: int) -> HttpResponse:
    note = get_object_or_404(SkillNote, pk=note_id)
    note.delete()
    messages.success(request, gettext("Skill note %(note)s deleted.") % {"note": note_id})
    return redirect("trials:skill_notes")
