"""Every rule clause RULES.md cites has at least one referee test naming it (STYLE.md: "Each rule clause
in ../shared/RULES.md gets at least one referee test that names the clause")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TEST_FILES = ("test_referee_*.py", "test_fusion*.py", "test_rules.py", "test_contract_examples.py")
WORDS = ("basics", "day", "voting", "host sheet", "subtleties", "SHOWTIME", "federation section")


def cited_clauses(rules_md: str) -> set[str]:
    """Clause references in parentheses: "(000 4.10, 6.1.12; 001 voting 7)" → 000 4.10, 000 6.1.12, …"""
    out: set[str] = set()
    for group in re.findall(r"\(([^()]*\b00[0-4]\b[^()]*)\)", rules_md):
        for part in group.split(";"):
            m = re.match(r"\s*(00[0-4])\b\s*(.*)$", part.strip())
            if not m:
                continue
            seed, rest = m.groups()
            out.add(seed)
            for item in (x.strip() for x in rest.split(",")):
                if re.fullmatch(r"00[0-4]", item):
                    out.add(item)
                elif re.fullmatch(r"\d+(\.\d+)*(–\d+(\.\d+)*)?", item) or any(
                    re.fullmatch(rf"{w}( \d+)?", item) for w in WORDS
                ):
                    out.add(f"{seed} {item}")
    return out


def test_parser_reads_the_citation_forms() -> None:
    text = "x (000 4.10, 6.1.12, 8.1.4; 001 voting 7) y (000 3.1–3.2) (002 host sheet) (003 SHOWTIME) (004)"
    text += " clubs (001, 002)"
    assert cited_clauses(text) == {
        "000", "001", "002", "003", "004", "000 4.10", "000 6.1.12", "000 8.1.4", "001 voting 7",
        "000 3.1–3.2", "002 host sheet", "003 SHOWTIME",
    }  # fmt: skip


def named(clause: str, corpus: str) -> bool:
    """A clause is named if its text appears (a range: the range or both ends), or its test-name form
    (``000_4_10``) does."""
    forms = {clause, clause.replace(" ", "_").replace(".", "_").replace("–", "_")}
    if "–" in clause:
        seed, rng = clause.split(" ", 1)
        a, b = rng.split("–")
        if f"{seed} {a}" in corpus and (f"{seed} {b}" in corpus or f", {b}" in corpus):
            return True
    return any(re.search(re.escape(f) + r"(?![\d.])", corpus) for f in forms)


@pytest.mark.shared
def test_every_cited_clause_has_a_test(shared_dir: Path) -> None:
    clauses = cited_clauses((shared_dir / "RULES.md").read_text(encoding="utf-8"))
    assert len(clauses) > 40  # the digest cites many; an empty parse would pass vacuously
    corpus = "\n".join(
        p.read_text(encoding="utf-8")
        for pat in TEST_FILES
        for p in HERE.glob(pat)
        if p.name != Path(__file__).name
    )
    missing = sorted(c for c in clauses if not named(c, corpus))
    assert missing == [], f"clauses without a referee test: {missing}"
