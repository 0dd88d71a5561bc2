"""The repository explains itself: no file cites a document that is not in it, and every
relative link between the README and ``docs/`` (and every ``docs/*.md`` a file names) leads
to a file that exists. Papers are cited through docs/sources.md, the design through
docs/design.md."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Built from pieces so that this file does not cite them itself.
OUTSIDE_DOCUMENTS = (
    re.compile(r"\b(?:legalworld|simcourt|maser|agentscourt|legalagentbench)" + re.escape(".txt"), re.IGNORECASE),
    re.compile(r"\b(?:STYLE|DESIGN)" + re.escape(".md") + r"\b"),
    re.compile(re.escape("shared" + "/seeds")),
)
PAPERS = ("LegalWorld", "SimCourt", "MASER", "AgentsCourt", "LegalAgentBench")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
DOCS_MENTION = re.compile(r"(?<![\w/.-])docs/[\w.-]+\.md\b")


@cache
def tracked_text_files() -> tuple[tuple[str, str], ...]:
    """(path, text) of every tracked file that is UTF-8 text, outside any virtualenv."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout: the files checked are git's tracked files")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = []
    for name in sorted(filter(None, listed.decode("utf-8").split("\0"))):
        path = ROOT / name
        if ".venv" in Path(name).parts or not path.is_file():
            continue
        try:
            files.append((name, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue  # binary
    return tuple(files)


def markdown_pages() -> list[str]:
    return [name for name, _ in tracked_text_files() if name == "README.md" or re.fullmatch(r"docs/[^/]+\.md", name)]


def where(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def test_no_file_cites_a_document_outside_the_repository():
    found = [
        f"{name}:{where(text, match.start())}: {match.group(0)}"
        for name, text in tracked_text_files()
        for pattern in OUTSIDE_DOCUMENTS
        for match in pattern.finditer(text)
    ]
    assert not found, "cite docs/sources.md (papers) or docs/design.md (design) instead:\n" + "\n".join(found)


def test_relative_links_of_the_readme_and_docs_lead_to_files_that_exist():
    pages = markdown_pages()
    assert {"README.md", "docs/sources.md", "docs/design.md"} <= set(pages)
    broken = []
    for name in pages:
        text = dict(tracked_text_files())[name]
        for match in MARKDOWN_LINK.finditer(text):
            target = match.group(1).split("#", 1)[0].split("?", 1)[0]
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # an anchor on the same page, or a URL
            if not (ROOT / name).parent.joinpath(target).resolve().exists():
                broken.append(f"{name}:{where(text, match.start())}: {match.group(1)}")
    assert not broken, "links to missing files:\n" + "\n".join(broken)


def test_every_docs_page_a_file_names_exists():
    missing = [
        f"{name}:{where(text, match.start())}: {match.group(0)}"
        for name, text in tracked_text_files()
        for match in DOCS_MENTION.finditer(text)
        if not (ROOT / match.group(0)).is_file()
    ]
    assert not missing, "\n".join(missing)


def test_sources_names_every_paper_with_its_arxiv_record():
    sources = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    for paper in PAPERS:
        assert re.search(rf"^## {paper}$", sources, re.MULTILINE), f"docs/sources.md has no section for {paper}"
        row = next((line for line in sources.splitlines() if line.startswith(f"| **{paper}** |")), "")
        assert re.search(r"https://arxiv\.org/abs/\d{4}\.\d{4,5}", row), (
            f"docs/sources.md gives no arXiv link for {paper}"
        )


MODULE_MAX_LINES = 500


def test_no_module_is_over_500_lines():
    """A module past this has grown two concerns; split it along them (migrations, written by
    Django, are exempt)."""
    long = [
        f"{name}: {text.count(chr(10))} lines"
        for name, text in tracked_text_files()
        if name.endswith(".py") and "/migrations/" not in name and text.count("\n") > MODULE_MAX_LINES
    ]
    assert not long, "split these modules:\n" + "\n".join(long)
