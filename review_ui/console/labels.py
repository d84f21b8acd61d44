"""Russian and English labels of the record console (same style as :mod:`review_ui.i18n`).

:func:`ctr` looks a key up here first, then in the review window's labels, so shared words are not
repeated. Both languages must define the same keys (a test checks it).
"""

from __future__ import annotations

from review_ui.i18n import LABELS as REVIEW_LABELS
from review_ui.i18n import Language

LABELS: dict[str, dict[str, str]] = {
    "console_title": {"ru": "mafiacam — запись игры", "en": "mafiacam — record console"},
    # keys of the scheme (legend)
    "key_day": {"ru": "День (следующий)", "en": "Day (next)"},
    "key_night": {"ru": "Ночь (следующая)", "en": "Night (next)"},
    "key_speech": {"ru": "Речь игрока (60 с)", "en": "Speech (60 s)"},
    "key_speech_short": {"ru": "Речь 30 с (автокатастрофа)", "en": "Speech 30 s (tie)"},
    "key_speech_end": {"ru": "Конец речи", "en": "Speech ends"},
    "key_nominate": {"ru": "Выставление", "en": "Nomination"},
    "key_withdraw": {"ru": "Отзыв кандидатуры", "en": "Withdrawal"},
    "key_vote_next": {"ru": "Голосование: следующий кандидат", "en": "Vote: next candidate"},
    "key_vote_call": {"ru": "Голосование за игрока", "en": "Vote for a seat"},
    "key_vote_revote": {"ru": "Переголосование за игрока", "en": "Re-vote for a seat"},
    "key_vote_all": {"ru": "Кто за то, чтобы ушли все", "en": "Vote: all leave"},
    "key_vote_stop": {"ru": "«Спасибо»", "en": "“Спасибо” (window closes)"},
    "key_vote": {"ru": "Голос игрока (вручную)", "en": "A seat's vote (by hand)"},
    "key_best_move": {"ru": "Лучший ход: убитый, затем трое", "en": "Best move: victim, then three"},
    "key_don_check": {"ru": "Проверка Дона", "en": "Don's check"},
    "key_sheriff_check": {"ru": "Проверка Шерифа", "en": "Sheriff's check"},
    "key_foul": {"ru": "Фол", "en": "Foul"},
    "key_disqualify": {"ru": "Дисквалификация", "en": "Disqualification"},
    "key_undo": {"ru": "Отменить последнюю отметку", "en": "Undo the last mark"},
    "key_cancel": {"ru": "Отмена ввода", "en": "Cancel typing"},
    "key_secrecy": {"ru": "Скрыть / показать роли", "en": "Hide / show roles"},
    "key_digit_day": {"ru": "Речь игрока №", "en": "Speech of seat #"},
    "key_digit_night": {"ru": "Номер при отстреле", "en": "Number called (shooting)"},
    "key_digit_count": {"ru": "Объявленное число голосов", "en": "Announced count"},
    "key_count_enter": {"ru": "Записать число голосов", "en": "Record the count"},
    # messages
    "msg_refused": {"ru": "Отметка не принята: {error}", "en": "Mark refused: {error}"},
    "msg_cancelled": {"ru": "Ввод отменён", "en": "Typing cancelled"},
    "msg_which_seat": {"ru": "{what}: номер игрока?", "en": "{what}: which seat?"},
    "msg_which_two_seats": {
        "ru": "{what}: кто (номер), затем кого (номер)?",
        "en": "{what}: by whom (seat), then whom (seat)?",
    },
    "msg_count_too_long": {"ru": "Не больше двух цифр", "en": "At most two digits"},
    "msg_count_typed": {"ru": "Голосов: {count} — Enter записывает", "en": "Count: {count} — Enter records"},
    "msg_type_count": {"ru": "Наберите число голосов", "en": "Type the count first"},
    "msg_mark_night0_first": {"ru": "Сначала нулевая ночь (N)", "en": "Mark night 0 first (N)"},
    "msg_no_such_seat": {"ru": "Нет места {seat}", "en": "No seat {seat}"},
    "msg_window_open": {"ru": "Голосование идёт: сначала «Спасибо» (пробел)", "en": "Vote open: Space first"},
    "msg_no_speech": {"ru": "Сейчас никто не говорит", "en": "Nobody is speaking"},
    "msg_no_candidate": {"ru": "Кандидатов больше нет", "en": "No candidate left to call"},
    "msg_no_window": {"ru": "Нет открытого голосования", "en": "No vote is open"},
    "msg_nothing_to_undo": {"ru": "Отменять нечего", "en": "Nothing to undo"},
    "msg_undone": {"ru": "Отменено: {what} ({id})", "en": "Undone: {what} ({id})"},
    "msg_write_failed": {"ru": "НЕ ЗАПИСАНО {id}: {error}", "en": "NOT WRITTEN {id}: {error}"},
    "recorder_notice": {"ru": "Запись: {kind}: {message}", "en": "Recorder: {kind}: {message}"},
    "msg_stopped": {
        "ru": "Запись остановлена: отметки не принимаются",
        "en": "Recording stopped: no more marks",
    },
    "msg_not_recording": {"ru": "Запись ещё не идёт", "en": "Not recording yet"},
    "msg_marked": {"ru": "{id}: {what}", "en": "{id}: {what}"},
    # panels
    "phase_pre": {"ru": "До игры", "en": "Before the game"},
    "phase_day": {"ru": "День {n}", "en": "Day {n}"},
    "phase_night": {"ru": "Ночь {n}", "en": "Night {n}"},
    "phase_count": {"ru": "Подсчёт голосов", "en": "Counting votes"},
    "speaker": {"ru": "Говорит {seat}: {left}", "en": "Seat {seat} speaks: {left}"},
    "no_speaker": {"ru": "—", "en": "—"},
    "alive": {"ru": "В игре", "en": "Alive"},
    "fouls": {"ru": "Фолы", "en": "Fouls"},
    "nominations": {"ru": "Выставлены", "en": "Nominated"},
    "none": {"ru": "нет", "en": "none"},
    "vote_next": {"ru": "Enter: голосование за <b>{seat}</b>", "en": "Enter: vote for <b>{seat}</b>"},
    "live_title": {"ru": "Проверка голосования", "en": "Vote check"},
    "live_host": {"ru": "Ведущий: {count}", "en": "Host: {count}"},
    "live_vision": {"ru": "Камера: {count} ({voters})", "en": "Camera: {count} ({voters})"},
    "live_waiting": {"ru": "Камера: считаю…", "en": "Camera: counting…"},
    "live_unavailable": {"ru": "Камера: нет данных ({reason})", "en": "Camera: no count ({reason})"},
    "live_candidate": {"ru": "Кандидат {cand}", "en": "Candidate {cand}"},
    "live_differs": {"ru": "РАСХОЖДЕНИЕ", "en": "MISMATCH"},
    "live_agrees": {"ru": "совпадает", "en": "agrees"},
    "live_late": {"ru": "поздно: {seats}", "en": "late: {seats}"},
    "reason_no_layout": {"ru": "нет разметки мест", "en": "no zones"},
    "reason_no_frames": {"ru": "нет кадров", "en": "no frames"},
    "reason_no_window": {"ru": "нет окна голосования", "en": "no vote window"},
    "live_odd": {"ru": "не кулак: {seats}", "en": "not a fist: {seats}"},
    "live_onset": {
        "ru": "«Спасибо» сказано за {ms} мс до нажатия: окно закрыто по голосу",
        "en": "«Спасибо» spoken {ms} ms before the key: window closed at the voice",
    },
    "onset_by_energy": {"ru": "по громкости", "en": "by loudness"},
    "onset_by_template": {"ru": "по образцу голоса", "en": "by the host's template"},
    "onset_by_both": {"ru": "громкость и образец совпали", "en": "loudness and template agree"},
    "live_no_onset": {
        "ru": "начало «Спасибо» не найдено: окно закрыто по нажатию",
        "en": "no onset of «Спасибо» found: window closed at the key",
    },
    "legend": {"ru": "Клавиши", "en": "Keys"},
    "log": {"ru": "Отметки", "en": "Marks"},
    "players": {"ru": "Игроки", "en": "Players"},
    "seat": {"ru": "№", "en": "#"},
    "name": {"ru": "Имя", "en": "Name"},
    "role": {"ru": "Роль", "en": "Role"},
    "role_red": {"ru": "мирный", "en": "red"},
    "role_sheriff": {"ru": "шериф", "en": "sheriff"},
    "role_mafia": {"ru": "мафия", "en": "mafia"},
    "role_don": {"ru": "дон", "en": "don"},
    "hidden": {"ru": "скрыто", "en": "hidden"},
    "record_roles": {"ru": "Записать роли", "en": "Record roles"},
    "roles_invalid": {
        "ru": "Роли: нужен один дон, один шериф и мафия",
        "en": "Roles: one don, one sheriff and the mafia",
    },
    "rules": {"ru": "Правила", "en": "Rules"},
    "secrecy": {"ru": "Скрыть роли (F9)", "en": "Hide roles (F9)"},
    "calibrate": {"ru": "Разметка мест", "en": "Seat zones"},
    "calibrate_done": {"ru": "Сохранить разметку", "en": "Save zones"},
    "calibrate_propose": {"ru": "Предложить заново", "en": "Propose again"},
    "calibrate_hint": {
        "ru": "Тяните углы зон или зону целиком. Зоны стола — для голосования.",
        "en": "Drag zone corners or whole zones. Table zones are what the vote check watches.",
    },
    "layout_saved": {"ru": "Разметка сохранена: {path}", "en": "Zones saved: {path}"},
    "layout_error": {"ru": "Разметка не сохранена: {error}", "en": "Zones not saved: {error}"},
    "no_layout": {"ru": "нет разметки", "en": "no zones"},
    "stop": {"ru": "Остановить запись", "en": "Stop recording"},
    "status_starting": {"ru": "Запуск записи…", "en": "Starting the recording…"},
    "status_line": {
        "ru": "{state} · {time} · {fps:.1f} к/с · потеряно {dropped} · {mb:.1f} МБ · {marks} отм. · "
        "UI {lat} мс",
        "en": "{state} · {time} · {fps:.1f} fps · dropped {dropped} · {mb:.1f} MB · {marks} marks · "
        "UI {lat} ms",
    },
    "status_stopped": {"ru": "Запись остановлена: {reason}", "en": "Recording stopped: {reason}"},
    "start_failed": {"ru": "Запись не началась: {error}", "en": "The recording did not start: {error}"},
    "timer_warn": {"ru": "Осталось {s} секунд", "en": "{s} seconds left"},
    "timer_over": {"ru": "Время вышло", "en": "Time is up"},
    # the voice templates step
    "voice_button": {"ru": "Голос ведущего (F8)", "en": "Voice templates (F8)"},
    "voice_title": {"ru": "Голос ведущего: образцы слов", "en": "The host's voice templates"},
    "voice_hint": {
        "ru": "Нажмите «Начать» и произносите каждое слово, когда оно появится, один раз, как в игре. "
        "Запись игры при этом продолжается.",
        "en": "Press Start and say each word once when it appears, as in a game. The recording goes on.",
    },
    "voice_start": {"ru": "Начать", "en": "Start"},
    "voice_repeat": {"ru": "Повторить слово (Enter)", "en": "Repeat the word (Enter)"},
    "voice_close": {"ru": "Закрыть", "en": "Close"},
    "voice_say": {"ru": "Скажите: «{word}»", "en": "Say: «{word}»"},
    "voice_done": {"ru": "Все слова записаны", "en": "All words recorded"},
    "voice_listening": {"ru": "слушаю…", "en": "listening…"},
    "voice_row": {
        "ru": "{word} — {s:.2f} с, пик {db:.0f} дБFS, над шумом {snr:.0f} дБ",
        "en": "{word} — {s:.2f} s, peak {db:.0f} dBFS, {snr:.0f} dB over the room",
    },
    "voice_heard": {"ru": "Записано «{word}» ({s:.2f} с)", "en": "Got «{word}» ({s:.2f} s)"},
    "voice_again": {"ru": "Скажите ещё раз: «Повторить».", "en": "Say it again: press Repeat."},
    "voice_nothing": {"ru": "Слово не услышано.", "en": "No word heard."},
    "voice_too_short": {"ru": "Слишком коротко ({ms} мс).", "en": "Too short ({ms} ms)."},
    "voice_too_long": {
        "ru": "Слишком длинно (больше {max:.1f} с) или шумно.",
        "en": "Too long (over {max:.1f} s) or noisy.",
    },
    "voice_too_quiet": {
        "ru": "Слишком тихо ({db} дБ над шумом): ближе к микрофону.",
        "en": "Too quiet ({db} dB over the room): closer to the microphone.",
    },
    "voice_clipped": {
        "ru": "Перегруз: звук обрезан. Тише или дальше от микрофона.",
        "en": "Clipped: too loud. Softer or farther from the microphone.",
    },
    "voice_saved": {"ru": "Образцы голоса сохранены: {n} слов", "en": "Voice templates saved: {n} words"},
    "voice_save_failed": {"ru": "Образцы не сохранены: {error}", "en": "Templates not saved: {error}"},
    "voice_no_sound": {
        "ru": "Звук не приходит: у записи нет микрофона?",
        "en": "No sound arrives: does the recording have a microphone?",
    },
}


def ctr(language: Language, key: str, **fmt: object) -> str:
    """The label ``key`` in the current language (console labels first, then the review window's)."""
    table = LABELS.get(key) or REVIEW_LABELS[key]
    text = table[language.code]
    return text.format(**fmt) if fmt else text
