"""The framing of ``wflo serve --stdio`` (docs/python.md): a 4-byte little-endian length, a UTF-8 JSON
header, then the little-endian float64 arrays the header's ``arrays`` lists as ``{name, bytes}``."""
from __future__ import annotations

import json
import struct
from typing import IO, Any, Dict, Mapping, Tuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_LENGTH = struct.Struct("<I")
_MAX_HEADER_BYTES = 64 * 1024
_MAX_ARRAY_BYTES = 8 * 1_000_000


def encode_frame(header: Mapping[str, Any], arrays: Mapping[str, FloatArray] | None = None) -> bytes:
    """One frame's bytes: ``header`` with its ``arrays`` list filled in, then the arrays as ``<f8``."""
    arrays = arrays or {}
    payloads = [np.ascontiguousarray(a, dtype="<f8").tobytes() for a in arrays.values()]
    full = dict(header)
    if arrays:
        full["arrays"] = [{"name": name, "bytes": len(p)} for name, p in zip(arrays, payloads)]
    body = json.dumps(full, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return b"".join([_LENGTH.pack(len(body)), body, *payloads])


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
