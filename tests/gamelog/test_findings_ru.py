"""The Russian text of the referee's findings: every message the referee writes has one, and it reads whole.

The list of messages is read from the referee's own source (the text argument of every ``violation``,
``review``, ``disagree`` and ``win`` call, and every ``what = …`` built for one), so a message added or
reworded there without its Russian fails here.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import gamelog
from gamelog import events as ev
from gamelog.bundle import load_bundle
from gamelog.findings_ru import MESSAGES, localized, term, to_russian
from gamelog.nights import RAISE_AT_PEEK
from gamelog.referee import referee_bundle

CALLS = {"violation": 3, "review": 2, "disagree": 1, "win": 2}
# Latin words a Russian finding may keep: clause references and the vision's own codes in parentheses.
KEPT = {"basics", "federation", "section", "SHOWTIME"}


def _templates(node: ast.expr | None) -> list[str]:
    """The message templates an expression can produce: ``{}`` where the source puts a value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [
            "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)  # type: ignore[misc]
        ]
    if isinstance(node, ast.IfExp):
        return _templates(node.body) + _templates(node.orelse)
    return []


def source_templates() -> set[str]:
    found: set[str] = set()
    root = Path(gamelog.__file__).parent
    for path in sorted(root.glob("*.py")):
        if path.name == "findings_ru.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if _finding(node):
                found.update(_templates(node.args[CALLS[node.func.attr]]))  # type: ignore[attr-defined]
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            inside = list(ast.walk(fn))
            # A ``what`` built first and then handed to a finding, in the same function.
            # A note for a finding (``…_note``) is returned whole, or as its ``what``.
            note = fn.name.endswith("_note")
            if note or any(_finding(n) and _names_what(n.args[CALLS[n.func.attr]]) for n in inside):  # type: ignore[attr-defined]
                for n in inside:
                    assigns = isinstance(n, ast.Assign) and any(_names_what(t) for t in n.targets)
                    if assigns or (note and isinstance(n, ast.Return)):
                        found.update(_templates(n.value))
    return found


def _finding(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in CALLS
        and len(node.args) > CALLS[node.func.attr]
    )


def _names_what(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "what"


def test_every_message_in_the_source_has_its_russian() -> None:
    ours = {en for en, _ in MESSAGES}
    source = source_templates()
    assert len(source) > 60  # the walk itself found the messages
    assert sorted(source - ours) == [], "messages the referee writes with no Russian"
    assert sorted(ours - source) == [], "Russian for messages the referee no longer writes"
    assert len(ours) == len(MESSAGES), "a message listed twice"


SAMPLES = {
    "": "7",
    "cand": "seat 7",
    "src": "host",
    "src_gen": "judge",
    "round": "'revote'",
    "gesture": "point",
    "shape": "with a palm, not a fist",
    "type": "shot",
    "motion": "mask",
    "phase": "night",
    "role": "Don",
    "role_gen": "Sheriff",
    "penalty": "a foul",
    "reason": "no candidates",
    "msg": "vote call outside a day",
    "zone": "seat 9's head zone",
    "whose": "seat 10's at 72.12 s, seat 3's at 73.00 s",
    "shots": "none",
    "ordinal": "4th",
    "side": "before",
    "side_pre": "before",
    "ruled": "late",
}


def _sample(en: str, ru: str) -> tuple[str, list[str]]:
    """A text of the message with a value of the right kind in each place, and the values shown in Russian."""
    specs = {int(name): spec for _, name, spec, _ in string.Formatter().parse(ru) if name}
    parts = en.split("{}")
    values = [SAMPLES[specs[i]] if i in specs else "s" for i in range(len(parts) - 1)]
    text = parts[0] + "".join(v + p for v, p in zip(values, parts[1:], strict=True))
    return text, [v for i, v in enumerate(values) if i in specs]


def latin_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z][A-Za-z'-]+", text)) - KEPT


@pytest.mark.parametrize(("en", "ru"), MESSAGES, ids=[en[:40] for en, _ in MESSAGES])
def test_each_message_reads_whole_in_russian(en: str, ru: str) -> None:
    text, values = _sample(en, ru)
    out = to_russian(text)
    assert out != text
    assert latin_words(out) == set(), out
    assert re.search("[а-яё]", out), out
    # Every number the values carry is still there: seats, times, counts.
    for number in re.findall(r"\d+(?:\.\d+)?", " ".join(values)):
        assert number in out, (number, out)


def test_values_are_read_by_their_kind() -> None:
    assert to_russian("voted for seat 10 with a pointing finger, not a fist") == (
        "проголосовал за №10 указательным пальцем, а не кулаком"
    )
    assert to_russian("voted for all leaving with a hand shape not read as a fist (other)") == (
        "проголосовал за подъём всех рукой, не распознанной как кулак (другая форма)"
    )
    assert to_russian("the Don has left but a check was entered") == "дон покинул стол, но проверка внесена"
    assert to_russian("a second Don check in one night (first stands)").startswith("вторая проверка дона")
    assert to_russian("night 2: host shots 3→5, vision saw none") == (
        "ночь 2: выстрелы по записи ведущего — 3→5, камера видела — нет"
    )


def test_a_message_inside_a_message_is_translated_too() -> None:
    inner = "a raised hand (point) in seat 9's head zone as that head moved, read as the head: not a shot"
    out = to_russian(f"{inner}; if it was seat 10's hand, it was a shot at 3 — check the video")
    assert out.startswith("поднятая рука (указательный палец) в зоне головы №9")
    assert out.endswith("если это рука №10, то это выстрел в №3 — проверьте видео")
    late = to_russian("day 3 marked after the game was decided (every black player has left (001 basics 3))")
    assert late == "«день 3» отмечено после окончания игры (все чёрные игроки покинули игру (001 basics 3))"


def test_unknown_text_and_unknown_values_are_kept() -> None:
    assert to_russian("a message from a newer referee") == "a message from a newer referee"
    # A value no table knows (a new event type) is shown as written, inside the Russian.
    assert to_russian("speech_burst entered during day 2") == "«speech_burst» внесено в день 2"
    # A team loss's reason is the judge's own words: kept.
    assert to_russian("team loss: seat 4 (left the table) (000 10)") == (
        "поражение команды: №4 (left the table) (000 10)"
    )
    assert localized("vote call outside a day", "en") == "vote call outside a day"
    assert localized("vote call outside a day", "ru") == "голосование объявлено не днём"


def test_every_event_type_source_and_round_has_a_russian_name() -> None:
    types = {
        cls.TYPE
        for cls in vars(ev).values()
        if isinstance(cls, type) and issubclass(cls, ev.Event) and getattr(cls, "TYPE", "")
    }
    assert len(types) > 25
    for t in types:
        assert latin_words(to_russian(f"{t} entered during day 1")) == set(), t
    for src in ev.SOURCES:
        assert latin_words(to_russian(f"{src} vote for 3 entered before any vote call")) == set(), src
    for rnd in ev.ROUNDS:
        assert latin_words(to_russian(f"the {rnd} was not held")) == set(), rnd


def test_findings_of_real_games_all_read_in_russian(project_root: Path) -> None:
    """Every finding the referee makes on the project's example games and the sample game has its Russian."""
    seen = 0
    for folder in (
        project_root / "examples" / "full-game",
        project_root / "examples" / "vision-votes",
        project_root / "sample_videos" / "sample_game",
    ):
        state = referee_bundle(load_bundle(folder)).to_json()
        texts = [i["what"] for k in ("violations", "needs_review", "disagreements") for i in state[k]]
        texts += [state["win_reason"]] if state.get("win_reason") else []
        for text in texts:
            seen += 1
            assert latin_words(to_russian(text)) == set(), (folder.name, text)
    assert seen > 0


def test_single_values_of_the_referee_json_have_russian_names() -> None:
    """The words the review panel shows next to the findings: round, source, team, night item kind."""
    for rnd in ev.ROUNDS:
        assert latin_words(term("round", rnd, "ru")) == set(), rnd
    # Every ``source`` a vote round or a night can carry (gamelog/state.py).
    for src in (*ev.SOURCES, "announced", "none"):
        assert latin_words(term("src", src, "ru")) == set(), src
    assert (term("team", "red", "ru"), term("team", "black", "ru")) == ("красные", "чёрные")
    assert term("type", "head_up", "ru") == "поднятая голова"
    # The night list shows night_motion kinds by name too.
    for kind in ("mask", "touch", "gesture", RAISE_AT_PEEK):
        assert latin_words(term("motion", kind, "ru")) == set(), kind
    assert term("reason", "no candidates", "ru") == "нет кандидатов"
    assert term("round", "revote", "en") == "revote"
    assert term("src", "a source from a newer referee", "ru") == "a source from a newer referee"
    with pytest.raises(ValueError, match="no Russian table"):
        term("colour", "red", "ru")
