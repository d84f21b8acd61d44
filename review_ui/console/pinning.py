"""Keep ``None``, ``True`` and ``False`` alive under PySide6 6.12.0 for a console that runs for hours.

PySide6 6.12.0 drops one reference to ``None`` on every call of a ``void`` Qt method from Python
(``label.setText(…)``, ``widget.update()``, ``processEvents()``…; measured here: 1,000 calls of
``QLabel.setText`` lose 1,000 references) and one to ``True`` on every ``emit`` (see
:mod:`review_ui.signals`). The recording console makes about 300 such calls a second, and ``None``
starts with a few thousand references: after 15–20 s its count reaches zero and the interpreter aborts
("Fatal Python error: none_dealloc"), taking the recording's UI with it.

Python 3.12 makes these singletons immortal (PEP 683) and never counts their references. On 3.11 this
does the same by hand, once: it raises their reference counts by 2**40, more than a console could lose
in centuries. They are never freed anyway (freeing them is itself a fatal error), so nothing is leaked.
"""

from __future__ import annotations

import ctypes
import sys

PIN = 1 << 40
_pinned = False


def pin_singletons() -> bool:
    """Make None, True and False effectively immortal (CPython < 3.12; a no-op elsewhere). True when
    this call pinned them."""
    global _pinned
    if _pinned or sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += PIN  # ob_refcnt is the object's first field
    _pinned = True
    return True
