"""Words and style of the printed score sheet: Russian and English labels, and the inline stylesheet."""

from __future__ import annotations

from gamelog.findings_ru import to_russian

LANGS = ("ru", "en")

LABELS: dict[str, dict[str, str]] = {
    "ru": {
        "lang": "ru",
        "title": "Протокол игры",
        "title_n": "Протокол игры № {n}",
        "tournament": "Турнир",
        "stage": "Этап",
        "table": "Стол",
        "game_number": "Игра №",
        "date": "Дата",
        "host": "Ведущий",
        "judges": "Судьи",
        "rules": "Правила",
        "seat": "№",
        "player": "Игрок",
        "role": "Роль",
        "fouls": "Фолы",
        "left": "Выбыл",
        "points": "Баллы",
        "role.red": "мирный",
        "role.sheriff": "шериф",
        "role.mafia": "мафия",
        "role.don": "дон",
        "roles_unknown": "Роли не записаны: графа «Роль» и баллы пусты, ответы проверок неизвестны.",
        "left.vote": "заголосован, день {n}",
        "left.vote_all": "заголосован (все), день {n}",
        "left.killed": "убит, ночь {n}",
        "left.fouls": "удалён (4 фола), {phase}",
        "left.disqualified": "дисквалифицирован, {phase}",
        "left.team_loss": "удалён, поражение команды, {phase}",
        "left.removed": "удалён, {phase}",
        "phase.day": "день {n}",
        "phase.night": "ночь {n}",
        "phase.unknown": "когда — не записано",
        "days": "Дни: выставления и голосования",
        "day": "День",
        "vote_round": "Голосование",
        "round.main": "основное",
        "round.revote": "переголосование",
        "round.all": "все покидают?",
        "candidate": "Кандидат",
        "nominated_by": "выставил",
        "votes": "Голосов",
        "voters": "Голосовали",
        "result": "Итог",
        "no_vote": "голосования не было",
        "no_nominations": "выставлений не было",
        "nominations": "Выставлены",
        "leaves": "покидает: {seats}",
        "nobody_leaves": "никто не покидает",
        "all_for": "за: {n}",
        "defaulted_note": "* голос отдан последнему кандидату (не проголосовал сам)",
        "late": "поздно: {seats}",
        "nights": "Ночи: выстрелы и проверки",
        "night": "Ночь",
        "shots": "Выстрелы",
        "kill": "Результат",
        "killed": "убит № {seat}",
        "miss": "промах",
        "don_check": "Проверка дона",
        "sheriff_check": "Проверка шерифа",
        "don.hit": "шериф",
        "don.miss": "не шериф",
        "sheriff.hit": "чёрный",
        "sheriff.miss": "красный",
        "unknown": "?",
        "best_move": "Лучший ход",
        "best_move_text": "№ {seat} назвал: {suspects}",
        "black_named": "чёрных: {n}",
        "winner": "Победа",
        "winner.red": "красные (мирные)",
        "winner.black": "чёрные (мафия)",
        "winner.none": "игра не завершена",
        "reason": "причина",
        "protest": "Протест",
        "protest_by": "подал № ____ ",
        "decision": "Решение судьи",
        "judge_signature": "Подпись судьи",
        "host_signature": "Подпись ведущего",
        "chain_head": "Голова хэш-цепочки архива",
        "chain.none": "не запечатан (нет манифеста)",
        "chain.unsealed": "архив ещё не запечатан: голова закрепляет журнал событий",
        "chain.unchained": "журнал событий не сцеплен хэшами (введён вручную?) — выполните "
        "«mafiacam verify --seal» и распечатайте лист заново",
        "chain.broken": "ЦЕПОЧКА НЕ СХОДИТСЯ — этот лист не закрепляет архив",
        "scoring": "Баллы по таблице «{name}»: победа красных {red_win}, победа чёрных {black_win}, "
        "поражение {loss}",
        "scoring_dq": ", дисквалификация {dq}",
        "footer": "mafiacam · цифровой архив игры закреплён хэшем выше",
    },
    "en": {
        "lang": "en",
        "title": "Game record",
        "title_n": "Game record no. {n}",
        "tournament": "Tournament",
        "stage": "Stage",
        "table": "Table",
        "game_number": "Game no.",
        "date": "Date",
        "host": "Host",
        "judges": "Judges",
        "rules": "Rules",
        "seat": "No.",
        "player": "Player",
        "role": "Role",
        "fouls": "Fouls",
        "left": "Left the game",
        "points": "Points",
        "role.red": "red",
        "role.sheriff": "sheriff",
        "role.mafia": "mafia",
        "role.don": "don",
        "roles_unknown": "Roles were not recorded: the Role column and points are blank, "
        "check answers unknown.",
        "left.vote": "voted out, day {n}",
        "left.vote_all": "voted out (all), day {n}",
        "left.killed": "killed, night {n}",
        "left.fouls": "removed (4 fouls), {phase}",
        "left.disqualified": "disqualified, {phase}",
        "left.team_loss": "removed, team loses, {phase}",
        "left.removed": "removed, {phase}",
        "phase.day": "day {n}",
        "phase.night": "night {n}",
        "phase.unknown": "when: not recorded",
        "days": "Days: nominations and votes",
        "day": "Day",
        "vote_round": "Vote",
        "round.main": "main",
        "round.revote": "re-vote",
        "round.all": "all leave?",
        "candidate": "Candidate",
        "nominated_by": "by",
        "votes": "Votes",
        "voters": "Voters",
        "result": "Result",
        "no_vote": "no vote",
        "no_nominations": "no nominations",
        "nominations": "Nominated",
        "leaves": "leaves: {seats}",
        "nobody_leaves": "nobody leaves",
        "all_for": "for: {n}",
        "defaulted_note": "* vote given to the last candidate (did not vote)",
        "late": "late: {seats}",
        "nights": "Nights: shots and checks",
        "night": "Night",
        "shots": "Shots",
        "kill": "Outcome",
        "killed": "no. {seat} killed",
        "miss": "miss",
        "don_check": "Don's check",
        "sheriff_check": "Sheriff's check",
        "don.hit": "sheriff",
        "don.miss": "not sheriff",
        "sheriff.hit": "black",
        "sheriff.miss": "red",
        "unknown": "?",
        "best_move": "Best move",
        "best_move_text": "no. {seat} named: {suspects}",
        "black_named": "black: {n}",
        "winner": "Winner",
        "winner.red": "red (town)",
        "winner.black": "black (mafia)",
        "winner.none": "game not finished",
        "reason": "reason",
        "protest": "Protest",
        "protest_by": "by no. ____ ",
        "decision": "Judge's decision",
        "judge_signature": "Judge's signature",
        "host_signature": "Host's signature",
        "chain_head": "Archive hash-chain head",
        "chain.none": "not sealed (no manifest)",
        "chain.unsealed": "the archive is not sealed yet: the head anchors the event log",
        "chain.unchained": "the event log is not hash-chained (entered by hand?) — run "
        "“mafiacam verify --seal” and print the sheet again",
        "chain.broken": "THE HASH CHAIN DOES NOT VERIFY — this sheet does not anchor the archive",
        "scoring": "Points by the “{name}” table: red win {red_win}, black win {black_win}, loss {loss}",
        "scoring_dq": ", disqualification {dq}",
        "footer": "mafiacam · the digital game archive is anchored by the hash above",
    },
}

# The referee's reasons are English with a rule clause; on a Russian sheet the known phrases are
# translated and the clause kept. Anything not listed prints as the referee wrote it.
REASONS_RU: dict[str, str] = {
    "every black player has left": "все чёрные игроки покинули игру",
    "black and red are equal in number at the table": "чёрных и красных за столом поровну",
    "three misses on three nights in a row": "три промаха три ночи подряд",
    "team loss: ": "поражение команды: ",
    " foul of seat ": " фол игрока № ",
    "with four at the table": "при четырёх за столом",
    "no reason given": "причина не указана",
    "no candidates": "нет кандидатов",
    "disqualified": "дисквалифицирован",
    "4th foul": "4-й фол",
}


def localize_reason(text: str, lang: str) -> str:
    if lang != "ru":
        return text
    whole = to_russian(text)
    if whole != text:
        return whole
    for en, ru in REASONS_RU.items():
        text = text.replace(en, ru)
    return text


# One A4 page for a 10-player game: small type, tight tables, no page breaks inside sections.
CSS = """
@page { size: A4; margin: 9mm 10mm; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { padding: 0 0.8mm; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 8.4pt; color: #000;
  line-height: 1.25; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
h1 { font-size: 13pt; margin: 0 0 1.5mm 0; }
h2 { font-size: 9.2pt; margin: 2.6mm 0 1mm 0; }
table { border-collapse: collapse; width: 100%; page-break-inside: avoid; }
th, td { border: 0.3mm solid #000; padding: 0.5mm 1.2mm; vertical-align: middle; text-align: left; }
th { background: #e4e4e4; font-weight: bold; }
.head td { border: none; padding: 0.2mm 1.5mm 0.2mm 0; }
.head .k { color: #444; white-space: nowrap; }
.head .v { font-weight: bold; border-bottom: 0.2mm solid #888; min-width: 22mm; }
.num { text-align: center; width: 8mm; }
.players td { height: 6mm; }
.players .name { width: 42mm; }
.players .role { width: 18mm; }
.players .fouls { width: 20mm; white-space: nowrap; }
.players .pts { width: 13mm; text-align: center; font-weight: bold; }
.black { background: #d2d2d2; font-weight: bold; }
.mark { display: inline-block; width: 3.4mm; height: 3.4mm; border: 0.25mm solid #000; margin-right: 0.6mm;
  text-align: center; line-height: 3.1mm; font-size: 7pt; vertical-align: middle; }
.votes td { height: 5mm; }
.votes .day { width: 10mm; text-align: center; font-weight: bold; }
.votes .rnd { width: 25mm; }
.votes .cnt { width: 12mm; text-align: center; font-weight: bold; }
.votes .res { width: 34mm; }
.nights td { height: 5mm; }
.note { font-size: 7.2pt; color: #333; margin: 0.6mm 0 0 0; }
.sig td.line { border-bottom: 0.25mm solid #000; height: 6.5mm; }
.sig td { border: none; padding: 1mm 2mm 0 0; }
.result { font-size: 10pt; margin: 2mm 0 0 0; }
.chain { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 8pt;
  word-break: break-all; }
.footer { margin-top: 2mm; font-size: 7pt; color: #444; }
/* Long games: more vote and night rows than the page holds at the normal size. */
body.dense { font-size: 7.6pt; }
.dense h1 { font-size: 11.5pt; }
.dense h2 { margin: 1.6mm 0 0.6mm 0; }
.dense th, .dense td { padding: 0.2mm 1mm; }
.dense .players td { height: 4.8mm; }
.dense .votes td, .dense .nights td { height: 3.9mm; }
.dense .sig td.line { height: 5.5mm; }
.dense .result { font-size: 9pt; margin-top: 1mm; }
body.denser { font-size: 6.8pt; }
.denser .players td { height: 4.2mm; }
.denser .votes td, .denser .nights td { height: 3.3mm; }
.denser .mark { width: 2.8mm; height: 2.8mm; line-height: 2.5mm; }
"""

# Vote and night rows (with the seat rows of a 10-player game) that fit one page at each density.
DENSE_ROWS = 20
DENSER_ROWS = 32
