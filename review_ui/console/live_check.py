"""The live vision double-check: a worker that watches the table zones during vote windows only.

Between a ``vote_call`` and the host's count the fan-out thread hands every tap frame to
:meth:`LiveVision.offer` (a bounded queue: when vision falls behind, frames are dropped and counted,
the recording is never slowed). The worker feeds them to a fresh
:class:`vision.seatwatch.TableWatch` per window (so a hand still resting from an earlier window is
not a new vote, as the contract reads it), turns its observations into ``hand_down`` / ``hand_up``
vision events (in frame pixels of the video, ids ``live-…``), keeps them in memory and appends them
to ``vision.live.jsonl`` in the bundle (no hash chain: it is derived, the analyser's ``vision.jsonl`` is
the real one).

The host's voice closes the window (issue #10): with the sound of the recording at hand (the session's
:class:`recorder.pcmtap.PcmTap`), the worker also waits for the sound up to ``AFTER_MS`` past the keystroke,
finds the spoken onset of «Спасибо» in it (:func:`vision.onsets.find_onset`), counts up to the onset
instead of the keystroke (a ``speech_onset`` event that refers to the stop, as the referee reads it) and
reports the onset with the count; the onset also goes to ``vision.live.jsonl``. No sound, or no onset that
stands out: the keystroke closes the window, as before.

On "Спасибо" the console asks for a check; the worker waits until it has seen the frames a few
hundred milliseconds past the stop (a hand needs ``SETTLE_FRAMES`` quiet frames before it counts as
resting), then runs :func:`gamelog.fusion.live_vote_check` over the marks and this window's vision
events and reports a :class:`LiveResult` through the callback (on the worker thread: the caller
forwards it to the UI thread). The MediaPipe landmarker lives on the worker thread only.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from gamelog.events import Event, HandDown, HandUp, SpeechOnset, VoteCall, VoteStop
from gamelog.fusion import VOTING_GESTURES, live_vote_check
from gamelog.jsonl import EventWriter
from gamelog.layout import Layout
from gamelog.rules import RuleSet
from recorder.tap import TapFrame
from review_ui.console.zones import scale_layout

log = logging.getLogger("review_ui.console.live")

LIVE_FILE = "vision.live.jsonl"
ANALYSER = "console-live/1"
SETTLE_MS = 150  # frames this far past the stop must be seen before counting (a hand that landed
# before the stop is still for SETTLE_FRAMES frames, 67 ms at 30 fps, before the watcher reports it)
WAIT_LIMIT_S = 1.5  # give up waiting for frames (source stalled) and count what was seen
MAX_QUEUED = 120  # frames waiting for vision (about 4 s at 30 fps); more are dropped and counted
PRE_ROLL = 8  # frames before the call fed first, so the watcher knows what already rests on the table
ONSET_BEFORE_MS = 2100  # sound looked at before the keystroke (the onset finder's floor takes 2 s)
ONSET_AFTER_MS = 260  # ... and after it (the word goes on after the keystroke)


@dataclass(frozen=True)
class LiveResult:
    """Vision's reading of the window that "Спасибо" closed."""

    call_id: str | None
    candidate: int | str | None
    count: int | None  # None: vision could not count (no layout, no model, no frames)
    voters: tuple[int, ...]
    late: tuple[int, ...]
    stop_t: int
    latency_ms: int  # from the request to the result, wall clock
    frames: int  # frames vision looked at in this window
    reason: str = ""
    odd: tuple[int, ...] = ()  # counted voters whose hand was not a voting fist (palm, finger…)
    onset_t: int | None = None  # the spoken onset of «Спасибо» that closed the window (None: the keystroke)
    onset_conf: float | None = None
    heard: bool = False  # sound was at hand for this check (False: no audio, the keystroke closed it)
    onset_method: str | None = None  # "energy", "template" or "both" (vision.onsets.Onset.method)

    @property
    def close_t(self) -> int:
        """Where the counted window closed: the spoken onset when one was found, else the keystroke."""
        return self.stop_t if self.onset_t is None else self.onset_t


class SoundTap(Protocol):
    """The recording's recent sound (:class:`recorder.pcmtap.PcmTap`)."""

    def covered_ms(self) -> float | None: ...

    def window(self, start_ms: float, end_ms: float) -> Any: ...


OnsetFinder = Callable[[Any, float, Sequence[Any]], Any]  # (Audio, key ms, templates) -> Onset | None


def default_onset_finder(audio: Any, key_ms: float, templates: Sequence[Any] = ()) -> Any:
    from vision.onsets import find_onset

    return find_onset(audio, key_ms, templates=templates)


FinderFactory = Callable[[Layout], Any]


def default_finder(layout: Layout) -> Any:
    """The analyser's finder on the tap's layout: each seat's hand size from its own table zone (far seats'
    hands are smaller), so the crops bring every seat's hands up to the detector's scale."""
    from vision.handfinder import HandFinder

    return HandFinder(layout)


@dataclass
class _Window:
    call: VoteCall
    seats: tuple[int, ...] | None = None  # the seats to watch (those at the table); None: all
    watch: Any = None
    events: list[Event] | None = None
    frames: int = 0
    last_t: int = -1
    # what each watch saw (the watch, the tap frame's size, the observation): reaches_resolved at the count
    seen: list[tuple[Any, tuple[int, int], Any]] = field(default_factory=list)


@dataclass
class _Check:
    marks: tuple[Event, ...]
    stop: VoteStop
    seats: tuple[int, ...]
    asked: float


class LiveVision:
    def __init__(
        self,
        bundle: Path | None,
        rules: RuleSet,
        layout: Layout | None = None,
        *,
        on_result: Callable[[LiveResult], None] | None = None,
        finder_factory: FinderFactory = default_finder,
        sound: SoundTap | None = None,
        onset_finder: OnsetFinder = default_onset_finder,
        warm_width: int | None = None,
        templates: Sequence[Any] = (),
    ) -> None:
        self.bundle = bundle
        # the host's recorded words (vision.keywords.Template): the onset is looked for with them
        self.templates: tuple[Any, ...] = tuple(templates)
        self.wait_limit_s = WAIT_LIMIT_S  # then count what was seen and heard
        self.sound = sound
        self._onset_finder = onset_finder
        self.rules = rules
        self.layout = layout
        self.on_result = on_result
        self._factory = finder_factory
        self._q: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._queued = 0
        self._qlock = threading.Lock()
        self._open = False  # read by offer() on the fan-out thread
        self._close_after_check = False
        self._pre: deque[TapFrame] = deque(maxlen=PRE_ROLL)  # the latest frames while no window is open
        self.events: list[Event] = []  # every live vision event, in the order seen
        self.dropped = 0
        self.frames_fed = 0
        self.error: str | None = None
        self._writer: EventWriter | None = None
        self._finder: Any = None
        self._finder_size: tuple[int, int] | None = None
        self._win: _Window | None = None
        self._check: _Check | None = None
        self.warm = threading.Event()  # set once the landmarker is loaded and has run once
        self._warm_width = warm_width
        self._thread = threading.Thread(target=self._run, name="console-vision", daemon=True)
        self._thread.start()

    # ---- called from the UI thread --------------------------------------------------------------------

    def set_layout(self, layout: Layout | None) -> None:
        self._q.put(("layout", layout))

    def set_templates(self, templates: Sequence[Any]) -> None:
        """The host's voice templates (``vision.keywords.Template``) for the onsets from now on."""
        self._q.put(("templates", tuple(templates)))

    def set_rules(self, rules: RuleSet) -> None:
        self._q.put(("rules", rules))

    def open_window(self, call: VoteCall, seats: Sequence[int] | None = None) -> None:
        """Start watching (``seats``: the players still at the table; a removed player's zone costs
        landmarker time for nothing)."""
        self._q.put(("open", (call, None if seats is None else tuple(seats))))
        self._open = True

    def close_window(self) -> None:
        """End the window (the host's count). A check still under way finishes first: a host who types the
        count before vision is done still gets vision's count."""
        self._q.put(("close", None))

    def request_check(self, marks: Sequence[Event], stop: VoteStop, seats: Sequence[int]) -> None:
        self._q.put(("check", _Check(tuple(marks), stop, tuple(seats), time.monotonic())))

    def add_events(self, events: Sequence[Event]) -> None:
        """Vision events from elsewhere (a test, a replay) for the open window, as if seen live."""
        self._q.put(("events", tuple(events)))

    def stop(self) -> None:
        self._q.put(("quit", None))
        self._thread.join(timeout=10)

    # ---- called from the fan-out thread ---------------------------------------------------------------

    def offer(self, frame: TapFrame) -> None:
        with self._qlock:
            if not self._open:
                self._pre.append(frame)
                return
            if self._queued >= MAX_QUEUED:
                self.dropped += 1
                return
            self._queued += 1
        self._q.put(("frame", frame))

    # ---- the worker -----------------------------------------------------------------------------------

    def _warm_up(self) -> None:
        """Load the landmarker and run it once now, for tap frames ``warm_width`` wide, rather than at the
        first vote window: its first call (model, delegate, imports) takes the CPU for a moment, which the
        recorder absorbs best at the start."""
        try:
            if self.layout is not None and self._warm_width:
                w0, h0 = self.layout.frame_size
                w = self._warm_width // 2 * 2
                size = (w, round(h0 * w / w0) // 2 * 2)
                finder = self._get_finder(size)
                from vision.seatwatch import TableWatch  # noqa: F401 - imported now, not in a window

                seat = self.layout.seat_numbers[0]
                finder.find(np.zeros((size[1], size[0], 3), np.uint8), seat, "table_zone")
            if self.sound is not None:
                from vision.onsets import find_onset  # noqa: F401
        except Exception:  # the first window will try again and report
            log.exception("live vision warm-up failed")
        finally:
            self.warm.set()

    def _run(self) -> None:
        self._warm_up()
        try:
            while True:
                try:
                    kind, arg = self._q.get(timeout=0.1)
                except queue.Empty:
                    self._maybe_count(idle=True)
                    continue
                if kind == "quit":
                    break
                try:
                    self._handle(kind, arg)
                except Exception as e:  # vision must never take the console down
                    log.exception("live vision failed on %s", kind)
                    self.error = f"{type(e).__name__}: {e}"
                self._maybe_count(idle=False)
        finally:
            if self._finder is not None:
                self._finder.close()
            if self._writer is not None:
                self._writer.close()

    def _handle(self, kind: str, arg: Any) -> None:
        if kind == "frame":
            with self._qlock:
                self._queued -= 1
            self._frame(arg)
        elif kind == "open":
            if self._check is not None:  # a new window before the last check ended: report that one now
                chk, self._check = self._check, None
                self._report(chk, self._win)
            self._close_after_check = False
            self._open = True  # (a close handled just now may have cleared it)
            self._win = _Window(arg[0], arg[1], events=[])
            with self._qlock:
                pre = list(self._pre)
                self._pre.clear()
            for frame in pre:
                self._frame(frame)
        elif kind == "close":
            if self._check is not None:
                self._close_after_check = True
            else:
                self._win = None
                self._open = False
        elif kind == "check":
            self._check = arg
        elif kind == "events":
            for ev in arg:
                self._keep(ev)
        elif kind == "layout":
            self.layout = arg
            if self._finder is not None:
                self._finder.close()
            self._finder, self._finder_size = None, None
            if self._win is not None:  # new zones mid-window: watch again from the next frame
                self._win.watch = None
        elif kind == "rules":
            self.rules = arg
        elif kind == "templates":
            self.templates = arg

    def _frame(self, frame: TapFrame) -> None:
        win = self._win
        if win is None or self.layout is None:
            return
        h, w = frame.image.shape[:2]
        if win.watch is None:
            finder = self._get_finder((w, h))
            from vision.seatwatch import TableWatch

            seats = tuple(s for s in self.layout.seat_numbers if win.seats is None or s in win.seats)
            win.watch = TableWatch(finder, "table_zone", frame.image.shape, seats=seats)
        self.frames_fed += 1
        win.frames += 1
        win.last_t = frame.t_ms
        for obs in win.watch.feed(frame.image, frame.t_ms):
            ev = self._event(obs, (w, h))
            if ev is not None:
                win.seen.append((win.watch, (w, h), obs))
                self._keep(ev)

    def _get_finder(self, size: tuple[int, int]) -> Any:
        if self._finder is None or self._finder_size != size:
            assert self.layout is not None
            if self._finder is not None:
                self._finder.close()
            self._finder = self._factory(scale_layout(self.layout, size))
            self._finder_size = size
        return self._finder

    def _event(self, obs: Any, size: tuple[int, int]) -> Event | None:
        assert self.layout is not None
        sx = self.layout.frame_size[0] / size[0]
        sy = self.layout.frame_size[1] / size[1]
        extra = {"analyser": ANALYSER, "zone_seat": obs.zone_seat}
        ev_id = f"live-{obs.kind}-{obs.seat}-{obs.zone_seat}-{obs.t}"
        if obs.kind == "hand_down":
            box = None
            if obs.box is not None:
                x0, y0, x1, y1 = obs.box
                box = (round(x0 * sx, 1), round(y0 * sy, 1), round(x1 * sx, 1), round(y1 * sy, 1))
            conf = min(1.0, max(0.0, float(obs.conf)))
            return HandDown(
                t=obs.t,
                src="vision",
                id=ev_id,
                seat=obs.seat,
                gesture=obs.gesture,
                conf=conf,
                box=box,
                extra=extra,
            )
        if obs.kind == "hand_up":
            conf = min(1.0, max(0.0, float(obs.conf)))
            return HandUp(t=obs.t, src="vision", id=ev_id, seat=obs.seat, conf=conf, extra=extra)
        return None

    def _keep(self, ev: Event) -> None:
        self.events.append(ev)
        if self._win is not None and self._win.events is not None:
            self._win.events.append(ev)
        self._keep_file(ev)

    def _keep_file(self, ev: Event) -> None:
        if self.bundle is None:
            return
        try:
            if self._writer is None:
                self._writer = EventWriter(self.bundle / LIVE_FILE, chain=False)
            self._writer.append(ev)
        except Exception as e:  # the live file is a convenience; the count on screen still works
            log.warning("%s: %s", LIVE_FILE, e)

    def _maybe_count(self, *, idle: bool) -> None:
        chk = self._check
        if chk is None:
            return
        win = self._win
        watching = win is not None and win.watch is not None and self.layout is not None
        waited = time.monotonic() - chk.asked
        if waited < self.wait_limit_s:
            if watching and win is not None and win.last_t < chk.stop.t + SETTLE_MS:
                return
            if self._sound_pending(chk.stop.t):
                return
        self._check = None
        self._report(chk, win)
        if self._close_after_check:
            self._close_after_check = False
            self._win = None
            self._open = False

    def _sound_pending(self, key_ms: int) -> bool:
        """True while the sound just after the keystroke has not arrived yet (there is sound at all)."""
        if self.sound is None:
            return False
        covered = self.sound.covered_ms()
        return covered is not None and covered < key_ms + ONSET_AFTER_MS

    def _onset(self, stop: VoteStop) -> tuple[SpeechOnset | None, bool, str | None]:
        """The spoken onset of the word the keystroke ended, from the recorded sound; (onset, heard)."""
        if self.sound is None:
            return None, False, None
        pcm = self.sound.window(stop.t - ONSET_BEFORE_MS, stop.t + ONSET_AFTER_MS)
        if pcm is None:
            return None, False, None
        from vision.onsets import Audio, templates_for

        words = templates_for(stop, self.templates) if self.templates else []
        found = self._onset_finder(Audio(pcm.samples, pcm.start_ms), float(stop.t), words)
        if found is None or not stop.id:
            return None, True, None
        t = round(found.t)
        if not t < stop.t:
            return None, True, None
        method = str(getattr(found, "method", "energy"))
        ev = SpeechOnset(
            t=t,
            src="audio",
            id=f"live-onset-{stop.id}",
            ref=stop.id,
            conf=round(min(1.0, max(0.0, float(found.conf))), 3),
            extra={"analyser": ANALYSER, "key_t": stop.t, "method": method},
        )
        self._keep_file(ev)
        return ev, True, method

    def _hands_resolved(self, win: _Window) -> list[Event]:
        """The window's hand events, with each neighbour's reach told by its home zone as the analyser tells
        it once a stretch is watched (TableWatch.reaches_resolved): a landing first given to the zone's player
        is the reacher's, and one the arm's path gave a neighbour is the player's after all. The live file
        keeps the events as they were seen."""
        seen_ids: set[str | None] = set()
        resolved: list[Event] = []
        for watch in {id(w): w for w, _, _ in win.seen}.values():
            mine = [(size, o) for w, size, o in win.seen if w is watch]
            size = mine[0][0]
            seen_ids.update(ev.id for sz, o in mine if (ev := self._event(o, sz)) is not None)
            resolved += [
                ev for o in watch.reaches_resolved([o for _, o in mine]) if (ev := self._event(o, size))
            ]
        others = [e for e in (win.events or []) if e.id not in seen_ids]  # add_events: as given
        return sorted(others + resolved, key=lambda e: e.t)

    def _report(self, chk: _Check, win: _Window | None) -> None:
        try:
            onset, heard, method = self._onset(chk.stop)
        except Exception as e:  # the keystroke still closes the window
            log.exception("live onset failed")
            self.error = f"{type(e).__name__}: {e}"
            onset, heard, method = None, False, None
        ot = None if onset is None else onset.t
        oc = None if onset is None else onset.conf
        latency = round((time.monotonic() - chk.asked) * 1000)
        call = win.call if win is not None else None
        cand = None if call is None else ("all" if call.candidate is None else call.candidate)
        frames = win.frames if win is not None else 0
        hands = self._hands_resolved(win) if win is not None else []

        def result(
            candidate: int | str | None,
            count: int | None = None,
            voters: tuple[int, ...] = (),
            late: tuple[int, ...] = (),
            reason: str = "",
            odd: tuple[int, ...] = (),
        ) -> LiveResult:
            return LiveResult(
                call.id if call else None,
                candidate,
                count,
                voters,
                late,
                chk.stop.t,
                latency,
                frames,
                reason,
                odd,
                onset_t=ot,
                onset_conf=oc,
                heard=heard,
                onset_method=method,
            )

        if not hands and (self.layout is None or frames == 0):
            res = result(cand, reason="no_layout" if self.layout is None else "no_frames")
        else:
            marks = [*chk.marks, onset] if onset is not None else list(chk.marks)
            got = live_vote_check([*marks, *hands], rules=self.rules, seats=chk.seats, upto_t=chk.stop.t)
            if got is None:
                res = result(cand, reason="no_window")
            else:
                close = chk.stop.t if ot is None else ot
                shapes = {e.seat: e.gesture for e in hands if isinstance(e, HandDown) and e.t < close}
                odd = tuple(s for s in got.voters if shapes.get(s, "thumb_up") not in VOTING_GESTURES)
                res = result(got.candidate, got.count, got.voters, got.late, odd=odd)
        if self.on_result is not None:
            self.on_result(res)
