"""The host's keyboard scheme as data: which key does what, and how a key press becomes a token.

Every mark is one or two keystrokes. A *command* key either marks at once (``Space`` = "Спасибо") or
waits for a seat (``F`` then ``4`` = a foul for seat 4); the digit ``0`` is seat 10. Bare digits depend
on the phase: by day they start a seat's speech, at night they are the number the host calls
(``shot_call``), and right after "Спасибо" they type the announced count (``Enter`` records it).

Letters are named by their Latin key. A host whose keyboard is switched to Russian presses the same
physical keys, which Qt reports as Cyrillic letters; :func:`token_for` maps them back (ЙЦУКЕН layout),
so the scheme works in either layout. No Qt here: the window passes ``event.key()`` and ``text()``.
"""

from __future__ import annotations

from dataclasses import dataclass

# Command kinds: "now" marks at once; "seat" waits for one seat; "seats2" waits for a seat and, when no
# speech is running (no nominator known), a second one; "seats4" waits for four (the best move: the
# victim, then the three suspects).
NOW, SEAT, SEATS2, SEATS4 = "now", "seat", "seats2", "seats4"


@dataclass(frozen=True)
class Binding:
    """One command: ``key`` is the token, ``action`` the marker's action, ``label`` an i18n key."""

    key: str
    action: str
    kind: str
    label: str


BINDINGS: tuple[Binding, ...] = (
    Binding("D", "day", NOW, "key_day"),
    Binding("N", "night", NOW, "key_night"),
    Binding("S", "speech", SEAT, "key_speech"),
    Binding("T", "speech_short", SEAT, "key_speech_short"),
    Binding("E", "speech_end", NOW, "key_speech_end"),
    Binding("V", "nominate", SEATS2, "key_nominate"),
    Binding("W", "withdraw", SEATS2, "key_withdraw"),
    Binding("Return", "vote_next", NOW, "key_vote_next"),
    Binding("C", "vote_call", SEAT, "key_vote_call"),
    Binding("R", "vote_revote", SEAT, "key_vote_revote"),
    Binding("A", "vote_all", NOW, "key_vote_all"),
    Binding("Space", "vote_stop", NOW, "key_vote_stop"),
    Binding("Y", "vote", SEAT, "key_vote"),
    Binding("G", "don_check", SEAT, "key_don_check"),
    Binding("H", "sheriff_check", SEAT, "key_sheriff_check"),
    Binding("F", "foul", SEAT, "key_foul"),
    Binding("X", "disqualify", SEAT, "key_disqualify"),
    Binding("B", "best_move", SEATS4, "key_best_move"),
    Binding("Backspace", "undo", NOW, "key_undo"),
    Binding("Escape", "cancel", NOW, "key_cancel"),
    Binding("F9", "secrecy", NOW, "key_secrecy"),
)
BY_KEY: dict[str, Binding] = {b.key: b for b in BINDINGS}

# Bare digits (not bound above): speech by day, shot_call at night, the count after "Спасибо".
DIGIT_ACTIONS = {"day": "speech", "night": "shot_call", "count": "count_digit"}
DIGIT_LABELS = {"day": "key_digit_day", "night": "key_digit_night", "count": "key_digit_count"}

# Russian ЙЦУКЕН letters on the keys of the Latin QWERTY letters.
_CYRILLIC = "ЙЦУКЕНГШЩЗФЫВАПРОЛДЯЧСМИТЬ"
_LATIN = "QWERTYUIOPASDFGHJKLZXCVBNM"
CYRILLIC_TO_LATIN: dict[str, str] = dict(zip(_CYRILLIC, _LATIN, strict=True))

# Qt key codes of the keys the scheme uses that are not letters or digits (Qt.Key values; kept here as
# plain integers so this module stays free of Qt).
QT_SPECIAL: dict[int, str] = {
    0x01000004: "Return",
    0x01000005: "Return",  # Enter on the keypad
    0x20: "Space",
    0x01000003: "Backspace",
    0x01000000: "Escape",
    0x01000038: "F9",
}
QT_UNDO_WITH_CTRL = 0x5A  # Ctrl+Z is undo too


def token_for(key: int, text: str = "", *, ctrl: bool = False) -> str | None:
    """The scheme's token for a key press (``"F"``, ``"7"``, ``"Space"``…), or None for other keys."""
    if ctrl:
        return "Backspace" if key == QT_UNDO_WITH_CTRL else None
    if key in QT_SPECIAL:
        return QT_SPECIAL[key]
    if 0x30 <= key <= 0x39:
        return chr(key)
    if 0x41 <= key <= 0x5A:
        return chr(key)
    ch = text.upper()[:1] if text else (chr(key).upper() if 0 < key < 0x110000 else "")
    if ch in CYRILLIC_TO_LATIN:
        return CYRILLIC_TO_LATIN[ch]
    if ch.isdigit():
        return ch
    return None


def seat_of(token: str) -> int | None:
    """``"1"``…``"9"`` → 1…9, ``"0"`` → 10, anything else → None."""
    if len(token) == 1 and token.isdigit():
        return 10 if token == "0" else int(token)
    return None


def legend(mode: str) -> list[tuple[str, str]]:
    """(keys, label key) pairs for the on-screen legend in ``mode`` (day, night, count, pre)."""
    digit_mode = "night" if mode == "night" else ("count" if mode == "count" else "day")
    rows = [("1…9, 0", DIGIT_LABELS[digit_mode])]
    shown = {
        "count": ("Return", "Y", "Backspace", "Escape"),
        "night": ("D", "N", "G", "H", "F", "X", "S", "E", "B", "Backspace", "Escape", "F9"),
    }.get(mode)
    for b in BINDINGS:
        if shown is None or b.key in shown:
            label = "key_count_enter" if mode == "count" and b.key == "Return" else b.label
            rows.append((_shown_key(b), label))
    return rows


def _shown_key(b: Binding) -> str:
    name = {"Return": "Enter", "Space": "Space", "Backspace": "⌫ / Ctrl+Z", "Escape": "Esc"}.get(b.key, b.key)
    if b.kind == SEAT:
        return f"{name} + #"
    if b.kind == SEATS2:
        return f"{name} + (#) + #"
    if b.kind == SEATS4:
        return f"{name} + # + # # #"
    return name
