"""Usernames that look like another person's are refused (issue #44 item 15): "аdmin" with a
Cyrillic а beside an existing "admin", "Admin", "adrnin", "admin" in full-width letters.

Two names look alike when their keys are equal (``username_key``): the name in Unicode NFKC,
each character replaced by its prototype from Unicode's confusables table (TR39, the data of
the ``confusable-homoglyphs`` package), case folded, and the prototypes applied once more (so a
capital whose homoglyph entry is on the small letter is caught). A name's key is compared with
every existing account's but its own (an exact duplicate is Django's own "already exists").

One check, ``username_confusable``, used by every path that creates an account: the username
field's validators (``username_validator_install``, from ``AccountsConfig.ready``: the admin's
add and change forms, ``createsuperuser``, any ``full_clean``) and the roster check.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs.confusables import confusables_data
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

MARKS = "\u200e\u200f"
"""The direction marks the package puts around right-to-left characters of its table."""


@cache
def _prototypes() -> dict[str, str]:
    """Each character of the table -> its prototype. The table lists each pair both ways; the
    prototype of a pair is the side with more homoglyphs (the centre of its class), a sequence
    of several characters ("rn" for "m"), or the smaller of two equals."""
    pairs = {char: [entry["c"].strip(MARKS) for entry in entries] for char, entries in confusables_data.items()}
    pairs = {char.strip(MARKS): others for char, others in pairs.items()}
    prototypes = {}
    for char, others in pairs.items():
        if len(char) != 1 or len(others) != 1:
            continue
        (other,) = others
        if len(other) > 1 or len(pairs.get(other, ())) > 1 or other < char:
            prototypes[char] = other
    return prototypes


def _fold(text: str) -> str:
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def username_key(name: str) -> str:
    """What a name looks like: equal keys, names a reader cannot tell apart."""
    return _fold(_fold(unicodedata.normalize("NFKC", name)).casefold())


def usernames_confusable(names: Iterable[str]) -> dict[str, str]:
    """Each of ``names`` that looks like an existing account's name, or like a name before it
    in ``names``, but is neither -> the name it looks like. A name that is an account's already
    is that account and is not checked."""
    User = get_user_model()
    taken = set(User.objects.values_list(User.USERNAME_FIELD, flat=True))
    keys: dict[str, str] = {}
    for other in sorted(taken):
        keys.setdefault(username_key(other), other)
    found = {}
    for name in names:
        if name in taken:
            continue
        other = keys.setdefault(username_key(name), name)
        if other != name:
            found[name] = other
    return found


def username_confusable(name: str) -> str | None:
    """The account name that ``name`` looks like but is not, or None."""
    return usernames_confusable([name]).get(name)


@deconstructible
class NotConfusableValidator:
    """The username field's validator: refuses a name that looks like an existing account's."""

    code = "username_confusable"

    def __call__(self, value: str) -> None:
        other = username_confusable(value)
        if other is not None:
            raise ValidationError(
                _("This username looks like the existing account “%(other)s”; choose one that does not."),
                code=self.code,
                params={"other": other},
            )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NotConfusableValidator)


def username_validator_install() -> None:
    """Add the check to the username field's validators (not to its migration state: the list
    Django caches, not the one it deconstructs), once."""
    field = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    if not any(isinstance(validator, NotConfusableValidator) for validator in field.validators):
        field.validators.append(NotConfusableValidator())
