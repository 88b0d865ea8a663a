"""Every reference to a section of a manual page names a section that page has.

Code comments, tests, benchmarks and the pages themselves cite the manual as
`docs/PAGE.md "Title"` (the folder and the backticks optional; in the manual also
as a link, `[PAGE.md](PAGE.md) "Title"`). A title names a heading of PAGE.md
(`## Title …`, backticks aside) or a paragraph's or list item's bold run-in head
(`**Title.** …`), in full or its part before a comma, colon, full stop,
parenthesis or dash. CHANGELOG.md is history and may name sections that have moved. (Line
numbers in C++ files count after string literals split over lines are joined.)
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEARCHED = ["src", "include", "tests", "bench", "apps", "python", "scripts", "fuzz", "examples",
            "experiments", "docs"]
SUFFIXES = {".cc", ".h", ".py", ".md", ".sh", ".cmake", ".txt"}
# The title may run on to the next line (of a comment: its marker is read as a space).
BREAK = r"[ \t]*\n[ \t]*(?://|#|\*)?[ \t]*"
REFERENCE = re.compile(
    r"(?:docs/)?([A-Za-z0-9_-]+)\.md(?:`|\))?(?: |" + BREAK + r")\"((?:[^\"\n]|" + BREAK + r")+)\"")
HEADING = re.compile(r"^#+\s+(.*?)\s*$")
RUN_IN = re.compile(r"^\s*(?:[*-]\s+)?\*\*(.+?)\*\*", re.MULTILINE)


def titles(page):
    """Headings and bold run-in heads of a page, each without its trailing full stop."""
    text = page.read_text(encoding="utf-8")
    found = [m.group(1) for line in text.splitlines() if (m := HEADING.match(line))]
    found += [m.group(1) for m in RUN_IN.finditer(text)]
    return [t.replace("`", "").rstrip(".").strip() for t in found]


def names(title, cited):
    """True when `cited` is the title, or the part of it before a comma, colon, full stop,
    parenthesis or dash."""
    if title == cited:
        return True
    if not title.startswith(cited):
        return False
    rest = title[len(cited):]
    return rest[0] in ",:.(" or rest.startswith((" (", " —", " –"))


def sources():
    yield ROOT / "README.md"
    for folder in SEARCHED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                yield path


def dangling():
    pages = {p.stem: titles(p) for p in (ROOT / "docs").glob("*.md")}
    pages["README"] = titles(ROOT / "README.md")
    missing, checked = [], 0
    for path in sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix in {".cc", ".h"}:  # C++ string literals: joined, quotes unescaped
            text = re.sub(r"\"[ \t]*\n[ \t]*\"", "", text).replace('\\"', '"')
        for m in REFERENCE.finditer(text):
            page, cited = m.group(1), re.sub(BREAK, " ", m.group(2))
            if page not in pages:
                continue
            checked += 1
            if not any(names(t, cited) for t in pages[page]):
                line = text.count("\n", 0, m.start()) + 1
                missing.append(f"{path.relative_to(ROOT)}:{line}: {page}.md has no \"{cited}\"")
    return missing, checked


def test_every_cited_section_exists():
    missing, checked = dangling()
    assert checked > 1000, f"only {checked} references found: is the pattern still the manual's?"
    assert not missing, "\n".join(missing)


if __name__ == "__main__":
    found, checked = dangling()
    print("\n".join(found) or f"every cited section exists ({checked} references)")
    sys.exit(1 if found else 0)
