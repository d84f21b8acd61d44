"""Russian text for the referee's findings and win reasons, for the windows a judge reads in Russian.

The referee writes its findings (violations, facts for review, disagreements) and the win reason in
English: that text is part of the JSON contract (``../shared/CONTRACT.md``) and scripts match on it. The
review window and the record console show them in the judge's language through :func:`to_russian`.

Each English message is written here as its template in the referee's source, with ``{}`` where the
source has a value (``tests/gamelog/test_findings_ru.py`` checks that both lists are the same, so a new or
changed message cannot be left untranslated). The Russian template names each value by position; a
format spec after the position says how to read it (``{0:cand}``: a candidate, ``{1:src}``: who entered
it, ``{0:msg}``: a whole message, translated again). A value no table knows is shown as it was, and a text
no template fits is returned unchanged: nothing the referee said is ever lost in translation.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from functools import cache

# (English template as in the source, Russian template). Order matters only where two could fit one text:
# the first that fits whole wins.
MESSAGES: tuple[tuple[str, str], ...] = (
    # days.py
    (
        "nomination on day 1 (no nominations on the first day)",
        "выставление в первый день (в первый день не выставляют)",
    ),
    ("nomination after the discussion ended", "выставление после окончания обсуждения"),
    ("nomination by seat {}, who has left", "выставление от №{0}, который уже покинул стол"),
    ("nominated seat {}, who has left", "выставлен №{0}, который уже покинул стол"),
    (
        "withdrawal of seat {} (not allowed: the nomination stands)",
        "снятие кандидатуры №{0} (не допускается: выставление в силе)",
    ),
    ("withdraws seat {}, whom he did not nominate", "снимает кандидатуру №{0}, которую не выставлял"),
    (
        "withdrawal outside the speech that made the nomination",
        "снятие кандидатуры не в той речи, где она выставлена",
    ),
    (
        "second nomination (seat {}) on one day; the first stands",
        "второе выставление (№{0}) за один день; в силе первое",
    ),
    ("spoke although silenced by a third foul", "говорил, хотя лишён слова третьим фолом"),
    (
        "vote on {} held although no vote is due ({})",
        "голосование за {0:cand} проведено, хотя голосования быть не должно ({1:reason})",
    ),
    ("day {} opened by seat {}, seat {} opens it", "день {0} открыл №{1}, а открывать должен №{2}"),
    ("{} entered during day {}", "«{0:type}» внесено в день {1}"),
    (
        "hand of seat {} landed in seat {}'s zone during the vote for {} (counted for neither)",
        "рука №{0} легла в зону №{1} во время голосования за {2:cand} (не засчитана никому)",
    ),
    # nights.py
    (
        "a raised hand ({}) in {} as that head moved, read as the head: not a shot",
        "поднятая рука ({0:gesture}) в {1:zone}, когда голова двигалась, принята за голову: не выстрел",
    ),
    (
        "{}; if it was seat {}'s hand, it was a shot at {} — check the video",
        "{0:msg}; если это рука №{1}, то это выстрел в №{2} — проверьте видео",
    ),
    (
        "night {}: a miss as read; with the raise{} taken for a peeking head ({}) counted as shots, "
        "a kill of seat {} — check the video",
        "ночь {0}: по камере промах; если считать выстрелами руки, принятые за голову при подглядывании "
        "({2:whose}), убит №{3} — проверьте видео",
    ),
    ("a red player raised a hand during the shooting", "красный игрок поднял руку во время стрельбы"),
    ("hand raised during the shooting by a red player", "красный игрок поднял руку во время стрельбы"),
    (
        "shot at {} seen by the raised arm, the hand not read (counted)",
        "выстрел в №{0}: видна поднятая рука, кисть не распознана (засчитан)",
    ),
    (
        "shot at {} seen as a {}, not a finger-gun",
        "выстрел в №{0} показан как «{1:gesture}», а не «пистолетом»",
    ),
    (
        "shot at {} seen with low confidence {} (counted)",
        "выстрел в №{0} распознан с низкой уверенностью {1} (засчитан)",
    ),
    ("{} entered a shot by seat {}, who has left", "{0:src} внёс выстрел №{1}, который уже покинул стол"),
    ("{} entered a shot by seat {}, a red player", "{0:src} внёс выстрел №{1}, красного игрока"),
    (
        "night {}: {} shots {}, vision saw {}",
        "ночь {0}: выстрелы по записи {1:src_gen} — {2:shots}, камера видела — {3:shots}",
    ),
    ("shot more than once ({}): a miss", "стрелял больше одного раза ({0}): промах"),
    ("a second {} check in one night (first stands)", "вторая проверка {0:role_gen} за ночь (в силе первая)"),
    ("the {} has left but a check was entered", "{0:role} покинул стол, но проверка внесена"),
    ("shot between two called numbers (a miss)", "выстрел между двумя названными номерами (промах)"),
    # referee.py
    ("night movement: {}", "движение ночью: {0:motion}"),
    ("{} black players dealt, the rules have {}", "роздано чёрных карт: {0}, по правилам: {1}"),
    (
        "head up at night for {} s (peeking? 000 9.1.6 / 10.1)",
        "голова поднята ночью на {0} с (подглядывание? 000 9.1.6 / 10.1)",
    ),
    ("head up at night for {} s", "голова поднята ночью на {0} с"),
    ("{} players at the table", "игроков за столом: {0}"),
    ("void refers to {}, which is not in the bundle", "отмена ссылается на {0}, которого нет в записи игры"),
    (
        "{} names seat {}, which is not at this table",
        "«{0:type}» называет место {1}, которого нет за этим столом",
    ),
    (
        "confirm refers to {}, which is not in the bundle",
        "подтверждение ссылается на {0}, которого нет в записи игры",
    ),
    (
        "host mark {} {} where {} {} was expected",
        "отметка ведущего «{0:phase} {1}», а ожидалась «{2:phase} {3}»",
    ),
    ("{} on night 0 (no checks on the first night)", "{0:type} в нулевую ночь (в первую ночь не проверяют)"),
    (
        "head up on night 0 for {} s (cards dealt? peeking?)",
        "голова поднята в нулевую ночь на {0} с (раздача карт? подглядывание?)",
    ),
    (
        "{} {} marked after the game was decided ({})",
        "«{0:phase} {1}» отмечено после окончания игры ({2:msg})",
    ),
    (
        "shooting on night 0 (first shooting is night 1)",
        "стрельба в нулевую ночь (первая стрельба — в первую ночь)",
    ),
    ("vote call outside a day", "голосование объявлено не днём"),
    ("three misses on three nights in a row (000 11.1)", "три промаха три ночи подряд (000 11.1)"),
    # table.py
    ("foul for a seat that has left", "фол игроку, который уже покинул стол"),
    ("team loss entered but the roles are unknown", "внесено командное поражение, но роли неизвестны"),
    ("disqualification of a seat that has left", "дисквалификация игрока, который уже покинул стол"),
    ("a second best move entered", "внесён второй лучший ход"),
    (
        "best move by a player who was not the first-night victim",
        "лучший ход от игрока, который не был убит в первую ночь",
    ),
    ("every black player has left (001 basics 3)", "все чёрные игроки покинули игру (001 basics 3)"),
    (
        "black and red are equal in number at the table (001 basics 3)",
        "чёрных и красных за столом поровну (001 basics 3)",
    ),
    ("team loss: seat {} ({}) (000 10)", "поражение команды: №{0} ({1:reason}) (000 10)"),
    (
        "team loss: {} foul of seat {} with four at the table (000 10.3)",
        "поражение команды: {0:ordinal} фол №{1} при четырёх за столом (000 10.3)",
    ),
    # votes.py
    (
        "vote for {}: a hand in seat {}'s zone {}, gone after {} s before Спасибо; the host counted {} "
        "without it: not counted as seat {}'s vote (a neighbour's reach?)",
        "голосование за {0:cand}: рука в зоне №{1} {2:shape}, убрана через {3} с до «Спасибо»; ведущий "
        "насчитал {4} без неё: не засчитана как голос №{5} (рука соседа?)",
    ),
    (
        "vote for {}: a hand in seat {}'s zone {}, gone after {} s before Спасибо, and seat {} put a fist "
        "down {} s later: not counted as seat {}'s vote (a neighbour's reach?)",
        "голосование за {0:cand}: рука в зоне №{1} {2:shape}, убрана через {3} с до «Спасибо», а №{4} "
        "положил кулак через {5} с: не засчитана как голос №{6} (рука соседа?)",
    ),
    (
        "hand lifted before the count of {} (vote counts; rule set: {})",
        "рука поднята до подсчёта голосов за {0:cand} (голос засчитан; по правилам: {1:penalty})",
    ),
    ("vote on {} after the vote was decided", "голосование за {0:cand} после того, как исход решён"),
    (
        "{} vote for {} entered before any vote call",
        "{0:src} внёс голос за {1:cand} до объявления голосования",
    ),
    (
        "{} vote for {} entered in the window of {}",
        "{0:src} внёс голос за {1:cand} во время голосования за {2:cand}",
    ),
    (
        "vote for {} placed with or after Спасибо (late)",
        "голос за {0:cand} поставлен вместе со «Спасибо» или позже (опоздал)",
    ),
    (
        "vote for {}: the hand was first seen down {} ms {} Спасибо, within one video frame: the camera "
        "cannot tell whether it was in time ({})",
        "голосование за {0:cand}: рука впервые видна на столе {2:side_pre} {1} мс {2:side} «Спасибо», в "
        "пределах одного кадра: по видео не понять, успел ли игрок (по правилу: {3:ruled})",
    ),
    ("voted for {} {}", "проголосовал за {0:cand} {1:shape}"),
    (
        "vote for {} seen with low confidence {} (counted)",
        "голос за {0:cand} распознан с низкой уверенностью {1} (засчитан)",
    ),
    (
        "vote on {} ({}) is not a step of the procedure",
        "голосование за {0:cand} ({1:round}) — не шаг процедуры",
    ),
    ("{} put to the vote again in the same round", "{0:cand}: повторное голосование в том же круге"),
    ("the vote was not held", "голосование не проведено"),
    ("the {} was not held", "{0:round}: не проведено"),
    ("{} was not put to the vote ({})", "{0:cand}: не поставлен на голосование ({1:round})"),
    ("{} counted {} for {}, vision saw {}", "{0:src} насчитал {1} за {2:cand}, камера видела {3}"),
    (
        "host called round {} for {}; the procedure is at {}",
        "ведущий объявил «{0:round}» за {1:cand}, а по процедуре сейчас «{2:round}»",
    ),
    ("{} voted out of nomination order", "{0:cand}: голосование не в порядке выставления"),
    (
        "no Спасибо mark after the call of {}",
        "нет отметки «Спасибо» после объявления голосования за {0:cand}",
    ),
    ("host announced {} for all leaving, counted {}", "ведущий объявил {0} за подъём всех, насчитано {1}"),
    ("host announced {} for seat {}, counted {}", "ведущий объявил {0} за №{1}, насчитано {2}"),
    (
        "tied player voted in the {} (not allowed)",
        "игрок, на котором разделились голоса, голосовал ({0:round}) — не допускается",
    ),
    ("{} vote by seat {}, who has left the table", "{0:src}: голос №{1}, который уже покинул стол"),
    (
        "second vote in one round (already voted for {})",
        "второй голос в одном круге (уже голосовал за {0:cand})",
    ),
)

_SRC = {
    "host": "ведущий",
    "judge": "судья",
    "vision": "камера",
    "audio": "звук",
    "announced": "объявлено",
    "none": "нет",
}
_SRC_GEN = {"host": "ведущего", "judge": "судьи", "vision": "камеры", "audio": "звука"}
_ROUND = {"main": "основное голосование", "revote": "переголосование", "all": "голосование за подъём всех"}
_GESTURE = {
    "point": "указательный палец",
    "gun": "пистолет",
    "palm": "ладонь",
    "fist": "кулак",
    "thumb": "большой палец",
    "thumb_up": "большой палец вверх",
    "other": "другая форма",
    "hand": "рука",
}
GESTURES = tuple(_GESTURE)  # the hand shapes this module names in Russian
_SHAPE = {
    "with a palm, not a fist": "ладонью, а не кулаком",
    "with a pointing finger, not a fist": "указательным пальцем, а не кулаком",
    "with a finger-gun, not a fist": "«пистолетом», а не кулаком",
}
_TYPE = {
    "roles": "раздача ролей",
    "night": "ночь",
    "day": "день",
    "speech": "речь",
    "speech_end": "конец речи",
    "nominate": "выставление",
    "withdraw": "снятие кандидатуры",
    "vote_call": "объявление голосования",
    "vote_stop": "«Спасибо»",
    "vote_count": "подсчёт голосов",
    "vote": "голос",
    "shot_call": "номер при стрельбе",
    "shot": "выстрел",
    "don_check": "проверка дона",
    "sheriff_check": "проверка шерифа",
    "don check": "проверка дона",
    "sheriff check": "проверка шерифа",
    "best_move": "лучший ход",
    "foul": "фол",
    "disqualify": "дисквалификация",
    "team_loss": "поражение команды",
    "hand_down": "рука на столе",
    "hand_up": "рука со стола",
    "shot_raise": "поднятая рука",
    "head_up": "поднятая голова",
    "night_motion": "движение ночью",
    "proposed_window": "предложенное окно",
    "speech_onset": "начало речи",
    "void": "отмена",
    "confirm": "подтверждение",
    "protest": "протест",
    "decision": "решение",
}
_MOTION = {
    "mask": "снял маску",
    "touch": "прикосновение",
    "gesture": "жест",
    "raise_at_peek": "рука у подглядывающего",
}
_PHASE = {"night": "ночь", "day": "день", "pre": "до игры"}
_ROLE = {"Don": "дон", "Sheriff": "шериф"}
_ROLE_GEN = {"Don": "дона", "Sheriff": "шерифа"}
_PENALTY = {"removal": "удаление", "a remark": "замечание", "a foul": "фол"}
_REASON = {"no candidates": "нет кандидатов", "no reason given": "причина не указана"}
_TEAM = {"red": "красные", "black": "чёрные"}
_SIDE = {"before": "до", "after": "после"}
_SIDE_PRE = {"before": "за", "after": "через"}
_RULED = {"counted": "засчитан", "late": "опоздал"}


def _cand(v: str) -> str:
    if v in ("all", "all leaving"):
        return "подъём всех"
    m = re.fullmatch(r"(?:seat )?(\d+)", v)
    return f"№{m.group(1)}" if m else v


def _shape(v: str) -> str:
    if v in _SHAPE:
        return _SHAPE[v]
    m = re.fullmatch(r"with a hand shape not read as a fist \((.*)\)", v)
    return f"рукой, не распознанной как кулак ({_GESTURE.get(m.group(1), m.group(1))})" if m else v


def _zone(v: str) -> str:
    m = re.fullmatch(r"seat (\d+)'s head zone", v)
    if m:
        return f"зоне головы №{m.group(1)}"
    return "зоне головы" if v == "a head zone" else v


def _whose(v: str) -> str:
    return re.sub(r"seat (\d+)'s at ([\d.]+) s", r"№\1 на \2 с", v)


def _shots(v: str) -> str:
    return "нет" if v == "none" else v


def _ordinal(v: str) -> str:
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", v)
    return f"{m.group(1)}-й" if m else v


def _table(table: Mapping[str, str]) -> Callable[[str], str]:
    return lambda v: table.get(v.strip("'\""), v)


_READERS: dict[str, Callable[[str], str]] = {
    "": lambda v: v,
    "cand": _cand,
    "shape": _shape,
    "zone": _zone,
    "whose": _whose,
    "shots": _shots,
    "ordinal": _ordinal,
    "msg": lambda v: to_russian(v),
    "src": _table(_SRC),
    "src_gen": _table(_SRC_GEN),
    "round": _table(_ROUND),
    "gesture": _table(_GESTURE),
    "type": _table(_TYPE),
    "motion": _table(_MOTION),
    "phase": _table(_PHASE),
    "role": _table(_ROLE),
    "role_gen": _table(_ROLE_GEN),
    "penalty": _table(_PENALTY),
    "side": _table(_SIDE),
    "side_pre": _table(_SIDE_PRE),
    "ruled": _table(_RULED),
    "reason": _table(_REASON),
    "team": _table(_TEAM),
}


class _Formatter(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        return _READERS[format_spec](str(value))


_FORMAT = _Formatter()


# What a value may look like, where "anything" would let a neighbouring value take part of it.
_SHAPES: dict[str, str] = {"cand": r"seat \d+|all leaving|all|\d+"}


def _pattern(en: str, ru: str) -> re.Pattern[str]:
    specs = {int(name): spec or "" for _, name, spec, _ in string.Formatter().parse(ru) if name}
    parts = en.split("{}")
    out = [re.escape(parts[0])]
    for i, part in enumerate(parts[1:]):
        out.append(f"({_SHAPES.get(specs.get(i, ''), '.*?')})")
        out.append(re.escape(part))
    return re.compile("".join(out), re.DOTALL)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((_pattern(en, ru), ru) for en, ru in MESSAGES)


def to_russian(text: str) -> str:
    """The Russian for one finding or win reason; the text unchanged when no template fits it."""
    for pattern, ru in _patterns():
        m = pattern.fullmatch(text)
        if m is not None:
            return _FORMAT.format(ru, *m.groups())
    return text


def term(kind: str, value: str, lang: str) -> str:
    """One value of the referee's JSON (``kind`` as in the templates: ``round``, ``src``, ``type``,
    ``reason``, ``team``, ...) in ``lang``; the value unchanged in English or when no table knows it."""
    if lang != "ru":
        return value
    reader = _READERS.get(kind)
    if reader is None:
        raise ValueError(f"no Russian table for {kind!r}")
    return reader(value)


def localized(text: str, lang: str) -> str:
    """``text`` in ``lang`` (``ru`` or anything else, which keeps the referee's English)."""
    return to_russian(text) if lang == "ru" else text
