"""Reading past damage in a fragmented MP4: find the fragments after a corrupt stretch.

FFmpeg's MP4 reader walks the top-level boxes (``moof``/``mdat`` pairs in a fragmented file) and stops at
the first broken box header, so bytes overwritten in the middle of a recording would cost everything after
them. :func:`mp4_resume_points` walks the boxes itself, and when one is broken searches forward for the next
``moof`` that starts a valid fragment. :class:`HiddenRangeFile` then presents the file with the damaged
bytes covered by a ``free`` box, so every later fragment keeps its original byte position (fragment data
offsets may be absolute) and its own decode time (``tfdt``): FFmpeg reads it as if nothing had happened.
"""

from __future__ import annotations

import io
import os
import struct
from dataclasses import dataclass
from pathlib import Path

TOP_LEVEL = {
    b"ftyp",
    b"styp",
    b"moov",
    b"moof",
    b"mdat",
    b"free",
    b"skip",
    b"mfra",
    b"sidx",
    b"uuid",
    b"meta",
    b"emsg",
    b"prft",
    b"wide",
    b"pdin",
}


@dataclass(frozen=True)
class Resume:
    """Damaged bytes ``[damage_from, resume_at)``; readable fragments start again at ``resume_at``."""

    damage_from: int
    resume_at: int


def is_mp4(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return len(head) == 12 and head[4:8] in (b"ftyp", b"styp")


def _find_moof(f: io.BufferedReader, start: int, size: int) -> int | None:
    """Byte position of the next box header ``[size]moof[..]mfhd`` at or after ``start``."""
    chunk = 1 << 20
    pos = start
    while pos < size:
        f.seek(pos)
        buf = f.read(chunk + 16)
        i = buf.find(b"moof")
        while i >= 0:
            at = pos + i - 4
            if i >= 4 and at >= start and buf[i + 8 : i + 12] == b"mfhd":
                (box_size,) = struct.unpack(">I", buf[i - 4 : i])
                if 24 <= box_size <= size - at:
                    return at
            i = buf.find(b"moof", i + 1)
        pos += chunk
    return None


def mp4_resume_points(path: Path) -> tuple[int, list[Resume]]:
    """(init_end, resumes): where the first fragment starts and where reading resumes after each damage.

    ``init_end`` is 0 when the file is not a fragmented MP4 (nothing to resume then).
    """
    size = os.path.getsize(path)
    resumes: list[Resume] = []
    init_end = 0
    with open(path, "rb") as f:
        pos = 0
        while pos + 8 <= size:
            f.seek(pos)
            head = f.read(16)
            box_size, box_type = struct.unpack(">I4s", head[:8])
            if box_size == 1 and len(head) == 16:
                box_size = struct.unpack(">Q", head[8:16])[0]
            elif box_size == 0:
                box_size = size - pos
            if box_type == b"moof" and init_end == 0:
                init_end = pos
            broken = box_type not in TOP_LEVEL or box_size < 8
            if broken and init_end:
                nxt = _find_moof(f, pos + 8, size)
                if nxt is None:
                    break
                resumes.append(Resume(pos, nxt))
                pos = nxt
                continue
            if broken or pos + box_size > size:
                break  # not fragmented, or truncated: the demuxer reports the rest
            pos += box_size
    return init_end, resumes


class HiddenRangeFile(io.RawIOBase):
    """A read-only view of ``path`` in which bytes ``[hide_from, hide_to)`` read as one ``free`` box."""

    def __init__(self, path: Path, hide_from: int, hide_to: int) -> None:
        super().__init__()
        if hide_to - hide_from < 16:
            raise ValueError("hidden range too small for a box header")
        self._f = open(path, "rb")  # noqa: SIM115 - closed in close()
        self._size = os.path.getsize(path)
        self._a = hide_from
        self._b = hide_to
        n = hide_to - hide_from
        self._header = struct.pack(">I4sQ", 1, b"free", n)  # 64-bit size: any length fits
        self._pos = 0
        self.name = str(path)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            self._pos = offset
        elif whence == io.SEEK_CUR:
            self._pos += offset
        else:
            self._pos = self._size + offset
        return self._pos

    def tell(self) -> int:
        return self._pos

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        want = len(buffer)
        out = bytearray()
        pos = self._pos
        while len(out) < want and pos < self._size:
            need = want - len(out)
            if pos < self._a or pos >= self._b:
                stop = self._a if pos < self._a else self._size
                self._f.seek(pos)
                data = self._f.read(min(need, stop - pos))
                if not data:
                    break
            else:
                rel = pos - self._a
                data = self._header[rel : rel + need] if rel < len(self._header) else b""
                if not data:
                    data = bytes(min(need, self._b - pos))
            out += data
            pos += len(data)
        buffer[: len(out)] = out
        self._pos = pos
        return len(out)

    def close(self) -> None:
        self._f.close()
        super().close()
