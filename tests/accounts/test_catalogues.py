"""The message catalogues are complete and in step with the code: every marked string is in
both catalogues, every one has its Chinese translation, and none is left over."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from accounts.catalogues import catalogue_files, catalogue_read, catalogues_compile, translations_apply
from tests.conftest import ROOT

CATALOGUES = {path.parent.parent.name: path for path in catalogue_files()}


def msgids(path: Path) -> set[str]:
    return {message.id for message in catalogue_read(path) if message.id}


def test_both_languages_have_a_catalogue_with_the_same_strings():
    assert set(CATALOGUES) == {"en", "zh_Hans"}
    assert msgids(CATALOGUES["en"]) == msgids(CATALOGUES["zh_Hans"])


def test_every_string_has_a_chinese_translation():
    untranslated = [
        message.id
        for message in catalogue_read(CATALOGUES["zh_Hans"])
        if message.id
        and (
            not message.string
            or message.fuzzy
            or not all(message.string if isinstance(message.string, tuple) else [message.string])
        )
    ]
    assert not untranslated, f"{len(untranslated)} strings lack a Chinese translation: {untranslated[:20]}"


def test_compiling_needs_no_gnu_gettext(tmp_path, settings):
    copy = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", copy, ignore=shutil.ignore_patterns("*.mo"))
    settings.LOCALE_PATHS = [copy]
    written = catalogues_compile()
    assert sorted(path.parent.parent.name for path in written) == ["en", "zh_Hans"]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed (.ci/run installs it)")
def test_the_catalogues_hold_exactly_the_strings_marked_in_the_code(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "staticfiles", "media", "node_modules", "*.mo", "*.sqlite3*"),
    )
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "en",
            "-l",
            "zh_Hans",
            "--add-location=file",
            "-v0",
            "--ignore=tests/*",
            "--ignore=docs/*",
        ],
        cwd=source,
        check=True,
    )
    for language, committed in CATALOGUES.items():
        extracted = msgids(source / "locale" / language / "LC_MESSAGES" / "django.po")
        stale, missing = msgids(committed) - extracted, extracted - msgids(committed)
        assert not missing, (
            f"marked in the code but not in {language}'s catalogue (run catalogues_update): {sorted(map(str, missing))[:20]}"
        )
        assert not stale, f"in {language}'s catalogue but no longer in the code: {sorted(map(str, stale))[:20]}"


def test_translations_fill_plain_and_plural_entries(tmp_path):
    po = tmp_path / "zh_Hans" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Cases"\nmsgstr ""\n\n'
        'msgid "%(n)s file"\nmsgid_plural "%(n)s files"\nmsgstr[0] ""\n',
        encoding="utf-8",
    )
    unknown = translations_apply(po, {"Cases": "案例库", "%(n)s file": ["%(n)s 个文件"], "Nowhere": "无"})
    catalogue = catalogue_read(po)
    assert unknown == ["Nowhere"]
    assert catalogue.get("Cases").string == "案例库"
    assert catalogue.get(("%(n)s file", "%(n)s files")).string == ("%(n)s 个文件",)
