"""Trajectory text is escaped where raters and staff read it."""

from __future__ import annotations

import numpy as np
import pytest
from django.urls import reverse

from annotation.models import Study
from annotation.reports import histogram_svg
from annotation.studies import assignment_new
from legalsim.roles import Role
from tests.trials.test_escaping import PAYLOADS, SCRIPT, escaped, payload_trial
from tests.users import person


@pytest.mark.django_db
def test_the_rater_reads_the_stages_escaped(client, civil_seed):
    rater = person("rater", Role.RATER)
    trajectory = payload_trial(civil_seed).trajectory
    study = Study.objects.create(
        name="s", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=[trajectory.pk]
    )
    assignment = assignment_new(study=study, unit=trajectory.pk, rater=rater)
    client.force_login(rater)
    assert escaped(client.get(reverse("annotation:assignment", args=[assignment.pk])).content.decode())
    stages = [
        client.get(reverse("annotation:assignment_stage", args=[assignment.pk, index])).content.decode()
        for index in range(len(trajectory.stages))
    ]
    assert any(escaped(stage) for stage in stages) and not any(p in stage for p in PAYLOADS for stage in stages)


def test_the_report_histogram_escapes_its_title():
    assert escaped(histogram_svg(np.array([1.0, 2.0]), low=0, high=10, title=SCRIPT))
