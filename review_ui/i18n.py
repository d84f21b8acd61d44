"""Russian and English labels for the review window, and the current language as a small Qt model.

Labels are looked up by key; a missing key is a bug caught by the tests (both languages must define the
same keys). The language comes from ``MAFIACAM_LANG`` (``ru`` or ``en``), else the saved setting, else the
system locale; the window switches it live and remembers the choice.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QLocale, QObject, QSettings, Signal

from gamelog.findings_ru import GESTURES, term

LANGUAGES = ("ru", "en")
LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}

LABELS: dict[str, dict[str, str]] = {
    "window_title": {"ru": "mafiacam — просмотр", "en": "mafiacam — review"},
    "play": {"ru": "Пуск", "en": "Play"},
    "pause": {"ru": "Пауза", "en": "Pause"},
    "step_back": {"ru": "Кадр назад", "en": "Frame back"},
    "step_forward": {"ru": "Кадр вперёд", "en": "Frame forward"},
    "speed": {"ru": "Скорость", "en": "Speed"},
    "frame": {"ru": "кадр", "en": "frame"},
    "frame_pending": {"ru": "кадр … (индекс строится)", "en": "frame … (indexing)"},
    "reverse": {"ru": "назад", "en": "reverse"},
    "no_video": {"ru": "Нет видео", "en": "No video"},
    "loading": {"ru": "Открываю видео…", "en": "Opening video…"},
    "menu_video": {"ru": "Видео", "en": "Video"},
    "menu_language": {"ru": "Язык", "en": "Language"},
    "menu_help": {"ru": "Справка", "en": "Help"},
    "shortcuts": {"ru": "Клавиши…", "en": "Shortcuts…"},
    "damaged_menu": {"ru": "Повреждённые участки", "en": "Damaged stretches"},
    "damaged_none": {"ru": "Повреждений не найдено", "en": "No damage found"},
    "damaged_status": {"ru": "Повреждённых участков: {n}", "en": "Damaged stretches: {n}"},
    "indexing": {"ru": "Индекс ключевых кадров строится…", "en": "Building the keyframe index…"},
    "panels_placeholder": {
        "ru": "Здесь появятся панели протокола: линия мест, журнал игры, голосования.\n"
        "В этой версии их ещё нет.",
        "en": "The game panels go here: seat timeline, game log, votes.\nThey are not in this version yet.",
    },
    "no_video_in_bundle": {"ru": "В этой игре нет видео", "en": "This game has no video"},
    "video_error": {"ru": "Видео не открывается: {error}", "en": "The video cannot be opened: {error}"},
    "act_play_pause": {"ru": "Пуск / пауза", "en": "Play / pause"},
    "act_step_forward": {"ru": "Кадр вперёд", "en": "Frame forward"},
    "act_step_back": {"ru": "Кадр назад", "en": "Frame back"},
    "act_jump_forward_1s": {"ru": "Вперёд на 1 с", "en": "Forward 1 s"},
    "act_jump_back_1s": {"ru": "Назад на 1 с", "en": "Back 1 s"},
    "act_jump_forward_5s": {"ru": "Вперёд на 5 с", "en": "Forward 5 s"},
    "act_jump_back_5s": {"ru": "Назад на 5 с", "en": "Back 5 s"},
    "act_play_forward": {"ru": "Играть вперёд (быстрее)", "en": "Play forward (faster)"},
    "act_play_backward": {"ru": "Играть назад (быстрее)", "en": "Play backward (faster)"},
    "act_pause": {"ru": "Стоп", "en": "Stop"},
    "act_slower": {"ru": "Медленнее", "en": "Slower"},
    "act_faster": {"ru": "Быстрее", "en": "Faster"},
    "act_speed_normal": {"ru": "Скорость 1×", "en": "Speed 1×"},
    "act_go_start": {"ru": "В начало", "en": "To the start"},
    "act_go_end": {"ru": "В конец", "en": "To the end"},
    "act_zoom_reset": {"ru": "Сбросить увеличение", "en": "Reset zoom"},
    "shortcuts_title": {"ru": "Клавиши", "en": "Shortcuts"},
    "shortcuts_note": {
        "ru": "Колесо мыши — увеличение, перетаскивание — сдвиг, двойной щелчок — весь кадр.\n"
        "Клавиши меняются в настройках (группа shortcuts).",
        "en": "Mouse wheel zooms, dragging pans, a double click shows the whole frame.\n"
        "Keys can be remapped in the settings (group shortcuts).",
    },
    "menu_view": {"ru": "Вид", "en": "View"},
    "lane_host": {"ru": "Ведущий", "en": "Host"},
    "seat_n": {"ru": "Место {n}", "en": "Seat {n}"},
    "focus_hint": {"ru": "Щёлкните место или нажмите его номер", "en": "Click a seat or press its number"},
    "chart_empty": {"ru": "Выберите голосование", "en": "Pick a vote round"},
    "day_n": {"ru": "День {n}", "en": "Day {n}"},
    "night_n": {"ru": "Ночь {n}", "en": "Night {n}"},
    "no_vote": {"ru": "голосования не было", "en": "no vote"},
    "eliminated": {"ru": "Покидает стол: {seats}", "en": "Leaves the table: {seats}"},
    "shots": {"ru": "Выстрелы: {shots}; убит: {killed}", "en": "Shots: {shots}; killed: {killed}"},
    "night_item": {
        "ru": "место {seat}: {kind} {dur:.1f} с (увер. {conf:.2f})",
        "en": "seat {seat}: {kind} {dur:.1f} s (conf {conf:.2f})",
    },
    "needs_review": {"ru": "Проверить", "en": "Needs review"},
    "violations": {"ru": "Нарушения", "en": "Violations"},
    "disagreements": {"ru": "Ведущий и камера расходятся", "en": "Host vs vision"},
    "fouls": {"ru": "Фолы: {fouls}", "en": "Fouls: {fouls}"},
    "winner": {"ru": "Победа: {winner}", "en": "Winner: {winner}"},
    "bad_lines": {"ru": "Нечитаемые строки и проблемы", "en": "Unreadable lines and problems"},
    "round_line": {
        "ru": "{round} → {cand}: {votes} ({src}; ведущий: {ann})",
        "en": "{round} → {cand}: {votes} ({src}; host: {ann})",
    },
    "voters": {"ru": "Голосовали: {seats}", "en": "Voters: {seats}"},
    "late": {"ru": "Опоздали: {seats}", "en": "Late: {seats}"},
    "defaulted": {"ru": "По умолчанию: {seats}", "en": "Defaulted: {seats}"},
    "in_time": {"ru": "до «Спасибо»", "en": "before «Спасибо»"},
    "after_stop": {"ru": "после «Спасибо»", "en": "after «Спасибо»"},
    "vote_window": {"ru": "Голосование", "en": "Vote"},
    "round_main": {"ru": "основное", "en": "main"},
    "round_revote": {"ru": "переголосование", "en": "revote"},
    "round_all": {"ru": "подъём всех", "en": "all"},
    "ms": {"ru": "мс", "en": "ms"},
    # the overlay's tag on a raise taken for a peeking head
    "tag_at_peek": {"ru": "{seat} {shape}? голова {head}", "en": "{seat} {shape}? head {head}"},
    "departed": {"ru": "уже покинул стол", "en": "already left the table"},
    "before_thanks": {"ru": "ДО «Спасибо»", "en": "BEFORE «Спасибо»"},
    "after_thanks": {"ru": "ПОСЛЕ «Спасибо»", "en": "AFTER «Спасибо»"},
    "by_voice": {"ru": "по голосу ведущего", "en": "by the host's voice"},
    "by_key": {"ru": "по нажатию клавиши", "en": "by the keystroke"},
    "act_void": {"ru": "Аннулировать…", "en": "Void…"},
    "act_confirm": {"ru": "Подтвердить…", "en": "Confirm…"},
    "act_move_stop": {"ru": "«Спасибо» сюда…", "en": "Move «Спасибо» here…"},
    "act_judge_vote": {"ru": "Голос судьи…", "en": "Judge's vote…"},
    "pick_round": {"ru": "Встаньте в окно голосования", "en": "Go to a vote window first"},
    "act_decide": {"ru": "Решение…", "en": "Decide…"},
    "judge": {"ru": "Судья", "en": "Judge"},
    "reason": {"ru": "Причина", "en": "Reason"},
    "filed_by": {"ru": "Подал (место)", "en": "Filed by (seat)"},
    "seats": {"ru": "Места", "en": "Seats"},
    "claim": {"ru": "Суть", "en": "Claim"},
    "range": {"ru": "Отрезок", "en": "Range"},
    "file_protest": {"ru": "Подать протест", "en": "File protest"},
    "open": {"ru": "открыт", "en": "open"},
    "decision": {"ru": "Решение", "en": "Decision"},
    "outcome_changes": {"ru": "Итог меняется:", "en": "The outcome changes:"},
    "outcome_same": {"ru": "Итог не меняется.", "en": "The outcome does not change."},
    "before": {"ru": "было", "en": "before"},
    "after": {"ru": "стало", "en": "after"},
    "filed": {"ru": "Протест {id} подан", "en": "Protest {id} filed"},
    "pick_fact": {"ru": "Выберите факт в списке", "en": "Pick a fact in the list"},
    "pick_stop": {
        "ru": "Выберите «Спасибо» (vote_stop) в списке",
        "en": "Pick a «Спасибо» (vote_stop) in the list",
    },
    "pick_protest": {"ru": "Выберите протест", "en": "Pick a protest"},
    "export_clip": {"ru": "Клип", "en": "Clip"},
    "export_copy": {"ru": "Клип без перекодирования", "en": "Lossless clip"},
    "export_report": {"ru": "Отчёт", "en": "Report"},
    "exporting": {"ru": "Сохраняю {path}…", "en": "Writing {path}…"},
    "exported": {"ru": "Сохранено: {path}", "en": "Written: {path}"},
    "tab_game": {"ru": "Игра", "en": "Game"},
    "tab_protests": {"ru": "Протесты", "en": "Protests"},
    "all_kinds": {"ru": "все события", "en": "all events"},
    "all_seats": {"ru": "все места", "en": "all seats"},
    "no_more_events": {"ru": "Дальше событий нет", "en": "No more events"},
    "kind_vote": {"ru": "голоса", "en": "votes"},
    "kind_lift": {"ru": "подъёмы руки", "en": "hand lifts"},
    "kind_shot": {"ru": "выстрелы", "en": "shots"},
    "kind_head_up": {"ru": "ночные движения", "en": "night moves"},
    "kind_foul": {"ru": "фолы", "en": "fouls"},
    "kind_review": {"ru": "проверить", "en": "needs review"},
    "kind_call": {"ru": "вызовы", "en": "calls"},
    "kind_stop": {"ru": "«Спасибо»", "en": "«Спасибо»"},
    "kind_onset": {"ru": "голос ведущего", "en": "host voice"},
    "kind_nominate": {"ru": "выставления", "en": "nominations"},
    "kind_phase": {"ru": "день/ночь", "en": "day/night"},
    "kind_judge": {"ru": "судьи", "en": "judges"},
    "act_focus": {"ru": "Место {n} крупно", "en": "Focus seat {n}"},
    "act_next_event": {"ru": "Следующее событие", "en": "Next event"},
    "act_prev_event": {"ru": "Предыдущее событие", "en": "Previous event"},
    "act_next_vote": {"ru": "Следующее голосование", "en": "Next vote"},
    "act_prev_vote": {"ru": "Предыдущее голосование", "en": "Previous vote"},
    "act_loop_in": {"ru": "Начало петли A", "en": "Loop start A"},
    "act_loop_out": {"ru": "Конец петли B", "en": "Loop end B"},
    "act_loop_clear": {"ru": "Убрать петлю", "en": "Clear the loop"},
    "act_timeline_in": {"ru": "Шкала крупнее", "en": "Timeline zoom in"},
    "act_timeline_out": {"ru": "Шкала мельче", "en": "Timeline zoom out"},
    "act_timeline_all": {"ru": "Вся игра", "en": "Whole game"},
    "layer_zones": {"ru": "Зоны мест", "en": "Seat zones"},
    "layer_hands": {"ru": "Руки (камера)", "en": "Hands (vision)"},
    "layer_window": {"ru": "Окно голосования", "en": "Vote window"},
    "layer_thanks": {"ru": "До / после «Спасибо»", "en": "Before / after «Спасибо»"},
    "voice": {"ru": "голос", "en": "voice"},
    "layer_waveform": {"ru": "Звук", "en": "Sound"},
    "waveform_wait": {"ru": "Звук читается…", "en": "Reading the sound…"},
    "waveform_none": {"ru": "В записи нет звука", "en": "The recording has no sound"},
}


def tr(key: str, lang: str, **fmt: object) -> str:
    text = LABELS[key][lang]
    return text.format(**fmt) if fmt else text


def count_votes(n: int, lang: str) -> str:
    """``n`` votes with the noun agreeing with the number: 1 vote, 2 votes; 1 голос, 3 голоса, 5 голосов."""
    if lang != "ru":
        return f"{n} vote" if n == 1 else f"{n} votes"
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} голос"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} голоса"
    return f"{n} голосов"


def english(key: str) -> str:
    """The English label for ``key``: the labels of an overlay painted without a window (tests, scripts)."""
    return tr(key, "en")


def round_name(labels: Callable[[str], str], name: str) -> str:
    """A vote round's name (``main``, ``revote``, ``all``) through ``labels``; a name with no label as
    written (a round kind from a newer referee)."""
    return labels(f"round_{name}") if f"round_{name}" in LABELS else name


# Hand shapes read by the analyser (the events keep the English names: the contract), in the words the
# referee's Russian findings use for them (one table: gamelog.findings_ru).
LABELS.update({f"shape_{g}": {"ru": term("gesture", g, "ru"), "en": g} for g in GESTURES})


def shape_name(labels: Callable[[str], str], shape: str) -> str:
    """A hand shape read by the analyser (``thumb_up``, ``fist``, ...) through ``labels``; a shape with no
    label as written (one from a newer analyser)."""
    return labels(f"shape_{shape}") if f"shape_{shape}" in LABELS else shape


def initial_language(settings: QSettings | None = None) -> str:
    env = os.environ.get("MAFIACAM_LANG", "").strip().lower()[:2]
    if env in LANGUAGES:
        return env
    if settings is not None:
        saved = str(settings.value("ui/language", "") or "")
        if saved in LANGUAGES:
            return saved
    return "ru" if QLocale.system().name().lower().startswith("ru") else "en"


class Language(QObject):
    """The UI language; widgets connect to ``language_changed`` and relabel themselves."""

    language_changed = Signal(str)

    def __init__(self, lang: str = "en", settings: QSettings | None = None) -> None:
        super().__init__()
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; use one of {LANGUAGES}")
        self._lang = lang
        self._settings = settings

    @property
    def code(self) -> str:
        return self._lang

    def set(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; use one of {LANGUAGES}")
        if lang != self._lang:
            self._lang = lang
            if self._settings is not None:
                self._settings.setValue("ui/language", lang)
            self.language_changed.emit(lang)

    def tr(self, key: str, **fmt: object) -> str:  # type: ignore[override]  # labels, not Qt's translator
        return tr(key, self._lang, **fmt)
