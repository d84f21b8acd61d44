"""The record console's "Voice templates" step (issue #10): the host says «Спасибо» and один … десять once.

A window beside the console (F8 or the toolbar button); the recording goes on meanwhile. "Start" prompts
the first word and a :class:`~review_ui.console.voice_capture.WordListener` waits for it in the session's
sound tap (on its own thread: the UI never waits for sound). Each word heard is shown with its duration
and level, and the next word is prompted at once (listening from just past the last word, so a host who
speaks quickly loses nothing). A refused word (too short, too long, too quiet, clipped, nothing heard)
shows why and waits: "Repeat" (or Enter) listens for it again. Any row can be selected and recorded again.
Once every word is there they are written to the bundle (:func:`vision.keywords.save_templates`, the
``voice_templates/`` folder), read back with :func:`vision.keywords.load_templates` and handed to the live
check (:meth:`~review_ui.console.live_check.LiveVision.set_templates`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from review_ui.console.labels import ctr
from review_ui.console.voice_capture import WORDS, Captured, Refused, WordListener
from review_ui.i18n import Language
from review_ui.signals import emit
from vision.keywords import Template, load_templates, save_templates

NEXT_GAP_MS = 150  # the next word is listened for from this long past the end of the last one


class _Relay(QObject):
    heard = Signal(
        object, object
    )  # (listener, Captured | Refused), from the listener thread to the UI thread


class VoiceStep(QDialog):
    """``sound``: the session's sound tap; ``media_ms``: the recording's clock; ``on_saved``: called with
    the templates read back from the bundle once they are saved."""

    saved = Signal(object)  # list[Template]

    def __init__(
        self,
        bundle: Path,
        sound: Any,
        media_ms: Callable[[], int],
        language: Language,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.bundle, self.sound, self.media_ms, self.lang = bundle, sound, media_ms, language
        self.words: list[Captured | None] = [None] * len(WORDS)
        self.current: int | None = None  # the word being listened for
        self.listener: WordListener | None = None
        self.last: Captured | Refused | None = None
        self.templates: list[Template] = []
        self.save_error: str | None = None
        self._relay = _Relay()
        self._relay.heard.connect(self._on_heard)
        self.prompt = QLabel()
        self.prompt.setStyleSheet("font-size: 28px; font-weight: bold")
        self.prompt.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.rows = QListWidget()
        self.rows.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self.start)
        self.repeat_button = QPushButton()
        self.repeat_button.clicked.connect(self.repeat)
        self.close_button = QPushButton()
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        for b in (self.start_button, self.repeat_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        lay = QVBoxLayout(self)
        lay.addWidget(self.hint)
        lay.addWidget(self.prompt)
        lay.addWidget(self.message)
        lay.addWidget(self.rows, 1)
        lay.addLayout(buttons)
        language.language_changed.connect(lambda _l: self.retranslate())
        self.retranslate()
        self.resize(520, 560)

    # ---- labels ---------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        t = self.lang
        self.setWindowTitle(ctr(t, "voice_title"))
        self.hint.setText(ctr(t, "voice_hint"))
        self.start_button.setText(ctr(t, "voice_start"))
        self.repeat_button.setText(ctr(t, "voice_repeat"))
        self.close_button.setText(ctr(t, "voice_close"))
        if self.current is not None:
            self.prompt.setText(ctr(t, "voice_say", word=WORDS[self.current][0]))
        elif self.templates:
            self.prompt.setText(ctr(t, "voice_done"))
        else:
            self.prompt.setText("")
        self._show_message()
        self._fill_rows()

    def _fill_rows(self) -> None:
        sel = self.rows.currentRow()
        self.rows.clear()
        for i, (word, _kind, _target) in enumerate(WORDS):
            got = self.words[i]
            if got is not None:
                text = ctr(
                    self.lang,
                    "voice_row",
                    word=word,
                    s=got.duration_ms / 1000,
                    db=got.peak_db,
                    snr=got.snr_db,
                )
            elif i == self.current:
                text = f"{word} — {ctr(self.lang, 'voice_listening')}"
            else:
                text = f"{word} — …"
            self.rows.addItem(text)
        if sel >= 0:
            self.rows.setCurrentRow(sel)

    def _show_message(self) -> None:
        m = self.last
        if self.save_error is not None:
            self.message.setText(ctr(self.lang, "voice_save_failed", error=self.save_error))
            self.message.setStyleSheet("color: #c0211b; font-weight: bold")
        elif isinstance(m, Refused):
            self.message.setText(
                ctr(self.lang, m.reason, **dict(m.values)) + " " + ctr(self.lang, "voice_again")
            )
            self.message.setStyleSheet("color: #c0211b; font-weight: bold")
        elif isinstance(m, Captured):
            self.message.setText(ctr(self.lang, "voice_heard", word=m.word, s=m.duration_ms / 1000))
            self.message.setStyleSheet("")
        else:
            self.message.setText("")

    # ---- the steps ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Listen for the first word not yet recorded (all of them again when every word is there)."""
        if all(w is not None for w in self.words):
            self.words = [None] * len(WORDS)
        self._listen(self._next_missing(0), float(self.media_ms()))

    def repeat(self) -> None:
        """Listen again for the selected word (or the one just refused, or the first missing one)."""
        row = self.rows.currentRow()
        i = row if row >= 0 else self.current if self.current is not None else self._next_missing(0)
        self.last = None
        self._listen(i, float(self.media_ms()))

    def _next_missing(self, frm: int) -> int:
        order = [*range(frm, len(WORDS)), *range(0, frm)]
        return next((i for i in order if self.words[i] is None), 0)

    def _listen(self, i: int, t0_ms: float) -> None:
        if self.listener is not None:
            self.listener.cancel()
        self.current = i
        self.rows.setCurrentRow(-1)
        listener = WordListener(
            self.sound, t0_ms, WORDS[i], lambda got: emit(self._relay.heard, listener, got), start=False
        )
        self.listener = listener
        listener.start()
        self.retranslate()

    def _on_heard(self, listener: WordListener, got: Captured | Refused) -> None:
        if listener is not self.listener:  # a report that crossed a "Repeat" or a close: not this word's
            return
        self.listener = None
        self.last = got
        if isinstance(got, Refused) or self.current is None:
            self.retranslate()  # waits for "Repeat"
            return
        self.words[self.current] = got
        if all(w is not None for w in self.words):
            self.current = None
            self._save()
            self.retranslate()
            return
        self._listen(self._next_missing(self.current), got.end_ms + NEXT_GAP_MS)

    def _save(self) -> None:
        try:
            save_templates(self.bundle, [w.template() for w in self.words if w is not None])
            self.templates = load_templates(self.bundle)
        except (OSError, ValueError) as e:  # the words stay on screen: "Start" saves them again
            self.save_error = str(e)
            return
        self.save_error = None
        emit(self.saved, self.templates)

    # ---- keys and closing ------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self.current is None and not self.templates:
                self.start()
            else:
                self.repeat()
            return
        super().keyPressEvent(event)

    def done(self, r: int) -> None:
        self.stop_listening()
        super().done(r)

    def stop_listening(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            self.listener = None
        self.current = None
