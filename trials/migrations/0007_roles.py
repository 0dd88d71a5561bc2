"""The four roles as groups (legalsim/roles.py). Accounts made before roles existed keep what
they could do: superusers become admins, staff instructors, everyone else students."""

from django.db import migrations

ROLES = ("student", "rater", "instructor", "admin")


def roles_create(apps, schema_editor) -> None:
    group_model = apps.get_model("auth", "Group")
    user_model = apps.get_model("auth", "User")
    groups = {name: group_model.objects.get_or_create(name=name)[0] for name in ROLES}
    for user in user_model.objects.filter(groups__isnull=True):
        role = "admin" if user.is_superuser else "instructor" if user.is_staff else "student"
        user.groups.add(groups[role])


def roles_delete(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("trials", "0006_trial_score"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(roles_create, roles_delete)]
