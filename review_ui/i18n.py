"""Russian and English labels for the review window, and the current language as a small Qt model.

Labels are looked up by key; a missing key is a bug caught by the tests (both languages must define the
same keys). The language comes from ``MAFIACAM_LANG`` (``ru`` or ``en``), else the saved setting, else the
system locale; the window switches it live and remembers the choice.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QLocale, QObject, QSettings, Signal

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
}


def tr(key: str, lang: str, **fmt: object) -> str:
    text = LABELS[key][lang]
    return text.format(**fmt) if fmt else text


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
