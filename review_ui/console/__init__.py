"""The host's record console: live preview with seat zones, keyboard-first marks, live vote check.

Modules: :mod:`keymap` (the keyboard scheme as data), :mod:`marking` (key presses to marks, pure),
:mod:`zones` (layout proposal and editing, pure), :mod:`console_model` (the Qt model),
:mod:`recorder_bridge` (the recording engine off the UI thread), :mod:`live_check` (live vision on a
worker), :mod:`calibration` (the zone editor), :mod:`console_window` and :mod:`launch`.
"""
