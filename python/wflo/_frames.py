"""The framing of ``wflo serve --stdio`` (docs/python.md): a 4-byte little-endian length, a UTF-8 JSON
header, then the little-endian float64 arrays the header's ``arrays`` lists as ``{name, bytes}``."""
from __future__ import annotations

import json
import os
import struct
from typing import IO, Any, Dict, List, Mapping, Tuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_LENGTH = struct.Struct("<I")
_MAX_HEADER_BYTES = 64 * 1024
_MAX_ARRAY_BYTES = 8 * 1_000_000


def encode_frame(header: Mapping[str, Any], arrays: Mapping[str, FloatArray] | None = None) -> bytes:
    """One frame's bytes: ``header`` with its ``arrays`` list filled in, then the arrays as ``<f8``
    (each array's memory is copied once, into the frame)."""
    arrays = arrays or {}
    payloads = [np.ascontiguousarray(a, dtype="<f8") for a in arrays.values()]
    full = dict(header)
    if arrays:
        full["arrays"] = [{"name": name, "bytes": p.nbytes} for name, p in zip(arrays, payloads)]
    body = json.dumps(full, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return b"".join([_LENGTH.pack(len(body)), body, *payloads])


#: The header of an x, y request, written without json.dumps (kind is one of the session's names).
_XY_HEADER = '{"kind":"%s","handle":%d,"id":%d,"arrays":[{"name":"x","bytes":%d},{"name":"y","bytes":%d}]}'


def encode_xy_frame(kind: str, handle: int, request_id: int, x: FloatArray, y: FloatArray) -> bytes:
    """The frame of an ``aep``/``aep_and_gradient`` request: the same bytes ``encode_frame`` writes
    for ``{"kind", "handle", "id"}`` and arrays x, y (little-endian float64, contiguous)."""
    body = (_XY_HEADER % (kind, handle, request_id, x.nbytes, y.nbytes)).encode("ascii")
    return b"".join([_LENGTH.pack(len(body)), body, x, y])


def write_all(fd: int, data: bytes) -> None:
    """Write every byte to a file descriptor (one system call unless the pipe is full)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class FrameReader:
    """Frames from a file descriptor: reads what the pipe holds (usually a whole response in one
    system call) into a buffer allocated once, and cuts frames from it; each array of a frame is
    copied out of it on its own (writable, native float64, owning its memory)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray(1 << 16)
        self._view = memoryview(self._buf)
        self._start = 0  # the next frame's first byte
        self._end = 0    # one past the last byte read

    def _fill(self, need: int) -> None:
        """At least `need` bytes from the next frame's start in the buffer."""
        if self._start + need > len(self._buf):
            size = max(len(self._buf), need)
            kept = self._buf[self._start:self._end]
            self._view.release()
            self._buf = bytearray(size)
            self._buf[:len(kept)] = kept
            self._view = memoryview(self._buf)
            self._start, self._end = 0, len(kept)
        while self._end - self._start < need:
            got = os.readv(self._fd, [self._view[self._end:]])
            if got == 0:
                raise EOFError("the wflo engine closed its output")
            self._end += got

    def read(self) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        self._fill(4)
        (length,) = _LENGTH.unpack_from(self._buf, self._start)
        if length > _MAX_HEADER_BYTES:
            raise ValueError(f"frame header of {length} bytes from the wflo engine")
        self._fill(4 + length)
        at = self._start + 4
        header = json.loads(self._buf[at:at + length])
        entries: List[Dict[str, Any]] = header.pop("arrays", [])
        sizes = [int(e["bytes"]) for e in entries]
        for e, size in zip(entries, sizes):
            if size % 8 or size > _MAX_ARRAY_BYTES:
                raise ValueError(f"array {e['name']!r} of {size} bytes from the wflo engine")
        total = sum(sizes)
        self._fill(4 + length + total)
        at = self._start + 4 + length
        arrays: Dict[str, FloatArray] = {}
        if entries:
            # Each array its own copy (owning its memory, writable, native float64): never a view
            # into the read buffer or into another array of the reply. One view of the block, then
            # one astype per array (a frombuffer per array costs about twice as much).
            block = np.frombuffer(self._buf, dtype="<f8", count=total // 8, offset=at)
            k = 0
            for e, size in zip(entries, sizes):
                arrays[str(e["name"])] = block[k:k + size // 8].astype(np.float64)
                k += size // 8
            del block  # no view of the read buffer outlives this call
        self._start = self._start + 4 + length + total
        if self._start == self._end:
            self._start = self._end = 0
        return header, arrays


def _read_exactly(stream: IO[bytes], n: int) -> bytes:
    chunks = []
    left = n
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError("the wflo engine closed its output")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(stream: IO[bytes]) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
    """The next frame of ``stream``: its header and its arrays by name (read-only NumPy arrays)."""
    (length,) = _LENGTH.unpack(_read_exactly(stream, 4))
    if length > _MAX_HEADER_BYTES:
        raise ValueError(f"frame header of {length} bytes from the wflo engine")
    header = json.loads(_read_exactly(stream, length).decode("utf-8"))
    arrays: Dict[str, FloatArray] = {}
    for entry in header.pop("arrays", []):
        size = int(entry["bytes"])
        if size % 8 or size > _MAX_ARRAY_BYTES:
            raise ValueError(f"array {entry['name']!r} of {size} bytes from the wflo engine")
        arrays[str(entry["name"])] = np.frombuffer(_read_exactly(stream, size), dtype="<f8").astype(np.float64)
    return header, arrays
