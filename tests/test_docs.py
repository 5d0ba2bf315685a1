"""The README and docs/: a README a newcomer reads in five minutes, every relative link of the
README and docs/ resolving (anchors included), and no file of the repository referring to a
path outside it (a folder beside the checkout, a developer's home or work folder)."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_LIMIT = 12_000  # bytes

#: Markdown links and images: [text](target) — the target up to a space or the closing ")".
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")

#: What points outside the repository. Written in pieces so that this file does not match.
OUTSIDE = [
    re.compile(r"\.\./" + "shared"),  # the folder beside the checkout
    re.compile(r"(?<![\w.-])" + "shared/(?:domain|design|examples|hooks)/"),
    re.compile(r"(?<![\w.-])/" + r"work/"),  # a work folder of a developer's machine
    re.compile(r"(?<![\w.-])/" + r"home/[A-Za-z0-9_.-]+"),  # a home folder (/home/<you> is fine)
    re.compile(r"(?<![\w.-])/" + r"Users/[A-Za-z0-9_.-]+"),
    re.compile(r"(?<![\w.-])/" + r"root/"),
    re.compile(r"(?i)\b[A-Z]:\\" + r"Users\\[A-Za-z0-9_.-]+"),
    re.compile(r"""(["'])\.\.""" + r"""\1\s*/\s*["']\w"""),  # a path joined to the parent folder
]


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def outside_references(text: str) -> list[str]:
    """Every reference of ``text`` to a path outside the repository."""
    return [found.group(0) for pattern in OUTSIDE for found in pattern.finditer(text)]


def tracked_text_files() -> list[Path]:
    """The repository's files (git's list in a checkout, else the tree), text ones only."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
        paths = [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", ".tools", "node_modules", "dist", "__pycache__"}
        paths = [
            path
            for path in ROOT.rglob("*")
            if path.is_file() and not skip & set(path.relative_to(ROOT).parts)
        ]
    texts = []
    for path in paths:
        if not path.is_file():  # deleted in the work tree, not yet in git's index
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        texts.append(path)
    return texts


def links(path: Path) -> list[str]:
    """The link targets of a Markdown file, code blocks and inline code left out."""
    targets, in_code = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
            continue
        if not in_code:
            targets += LINK.findall(re.sub(r"`[^`]*`", "", line))
    return targets


def anchor(heading: str) -> str:
    """The anchor a heading gets (GitHub's rule: lower case, punctuation dropped, spaces to -)."""
    text = re.sub(r"`", "", heading.strip().lower())
    kept = "".join(char for char in text if char in " -_" or unicodedata.category(char)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found, in_code = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"#{1,6}\s+(.*)", line)):
            found.add(anchor(heading[1]))
    return found


def test_the_readme_is_read_in_five_minutes() -> None:
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move details into docs/"


def test_the_readme_gives_the_two_commands_the_demo_and_the_install() -> None:
    text = README.read_text(encoding="utf-8")
    for command in ("./dev serve", "./dev test", "./dev test --all", "./dev demo"):
        assert command in text, command
    assert "```sh linux-install" in text  # run as written by tests/instance/test_linux_install.py
    assert "python3.11 -m venv" in text
    assert "(docs/README.md)" in text  # the index of the rest


def test_the_docs_have_an_index_linking_every_page() -> None:
    index = DOCS / "README.md"
    linked = {(index.parent / target.split("#")[0]).resolve() for target in links(index)}
    pages = {path.resolve() for path in DOCS.rglob("*.md") if path != index}
    assert pages - linked == set(), "docs/README.md does not link these pages"


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    broken = []
    for target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:...
            continue
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        missing = not linked.exists() or not linked.is_relative_to(ROOT)
        if missing or (fragment and linked.suffix == ".md" and fragment not in anchors(linked)):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: broken links {broken}"


def test_no_file_refers_to_a_path_outside_the_repository() -> None:
    found = {
        str(path.relative_to(ROOT)): refs
        for path in tracked_text_files()
        if (refs := outside_references(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize(
    "text",
    [
        "see ../" + "shared" + "/domain/duplicate.md",
        "Specification: ``" + "shared" + "/domain/duplicate.md``.",
        "the document (see /" + "work/shared" + "/domain/movements.md)",
        'SHARED = ROOT / ".' + '." / "shared" / "examples"',
        "Data folder: /" + "home/marie/.local/share/duplitarot",
        "/" + "Users/marie/Library/Application Support/duplitarot",
        "C:\\" + "Users\\marie\\AppData",
    ],
)
def test_a_reference_outside_is_caught(text: str) -> None:
    assert outside_references(text)


@pytest.mark.parametrize(
    "text",
    [
        "docs/domain/duplicate.md",
        "/usr/bin/chromium",
        "/tmp/duplitarot-schema.yml",
        "/home/<you>/.local/share/duplitarot",
        "~/.local/share/duplitarot",
        "/etc/debian_version",
    ],
)
def test_paths_of_the_system_or_the_repository_are_fine(text: str) -> None:
    assert outside_references(text) == []


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("Publication: nobody learns a deal he has still to play", "publication-nobody-learns-"
         "a-deal-he-has-still-to-play"),
        ("`serve`", "serve"),
        ("Installing on the club's laptop (Windows, macOS, Linux)",
         "installing-on-the-clubs-laptop-windows-macos-linux"),
        ("Étuis", "étuis"),
    ],
)  # fmt: skip
def test_a_heading_gets_githubs_anchor(heading: str, expected: str) -> None:
    assert anchor(heading) == expected
