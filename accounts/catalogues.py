"""Message catalogues: the ``.po`` files under ``locale/`` are kept in the repository; their
compiled ``.mo`` files are built from them by Babel (pure Python), so no GNU gettext is
needed to set up or run LegalSim. GNU gettext's ``xgettext`` is needed only to extract
marked strings (``manage.py makemessages``), which a developer or CI runs."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from django.conf import settings


def catalogue_files() -> list[Path]:
    return sorted(path for root in settings.LOCALE_PATHS for path in Path(root).glob("*/LC_MESSAGES/*.po"))


def catalogue_read(path: Path) -> Catalog:
    """A catalogue, with the locale its folder names (``locale/zh_Hans/LC_MESSAGES/django.po``),
    which gives it its plural forms."""
    language = path.parent.parent.name
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    catalogue.locale = language  # an empty "Language:" header would have cleared it
    return catalogue


def catalogues_compile(*, force: bool = False) -> list[Path]:
    """Write the ``.mo`` of every ``.po`` that is newer than it (all with ``force``); the
    ``.mo`` files written. Fuzzy entries are left out, as ``msgfmt`` does."""
    written = []
    for po in catalogue_files():
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with mo.open("wb") as handle:
            write_mo(handle, catalogue_read(po))
        written.append(mo)
    return written


def translations_apply(path: Path, translations: dict[str, str | list[str]]) -> list[str]:
    """Fill the ``msgstr`` of the given ``msgid``s in the catalogue at ``path`` (clearing
    their fuzzy mark); the msgids not found in it. A plural entry is keyed by its singular
    and given a list, one form per plural form of the language (Chinese has one)."""
    catalogue = catalogue_read(path)
    plurals = {message.id[0]: message for message in catalogue if isinstance(message.id, tuple)}
    unknown = []
    for msgid, msgstr in translations.items():
        message = catalogue.get(msgid) or plurals.get(msgid)
        if message is None:
            unknown.append(msgid)
            continue
        if isinstance(message.id, tuple):
            forms = [msgstr] if isinstance(msgstr, str) else list(msgstr)
            message.string = tuple(forms + forms[-1:] * (catalogue.num_plurals - len(forms)))[: catalogue.num_plurals]
        else:
            message.string = msgstr
        message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalogue, width=100)
    return unknown
