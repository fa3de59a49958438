"""The derived data files (the network, the timetable): named numpy arrays in a zip (an ``.npz``), written byte for byte
reproducibly (numpy's own ``savez`` stamps each member with the current time)."""

import io
import zipfile
from pathlib import Path
from typing import Dict, List, Mapping, Sequence, Type

import numpy as np

FORMAT_VERSION = 1
# The arrays every network file holds; a file without one of them is damaged.
REQUIRED = (
    "format",
    "attribution",
    "uic",
    "lon",
    "lat",
    "passenger",
    "names",
    "segment",
    "edge_src",
    "edge_dst",
    "edge_km",
    "edge_kind",
    "edge_line_ptr",
    "edge_line",
    "line_codes",
    "section_ptr",
    "section_node",
    "section_line",
    "train_from",
    "train_to",
    "train_minutes",
    "train_number",
)


class NetworkFileError(ValueError):
    """The network file is missing or damaged (the message names the file)."""


def write_arrays(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    """Write `arrays` as an npz whose bytes depend on the arrays only."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name in sorted(arrays):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buffer.getvalue(), compresslevel=9)


def read_arrays(
    path: Path,
    required: Sequence[str] = REQUIRED,
    version: int = FORMAT_VERSION,
    what: str = "Railway network file",
    script: str = "scripts/build_rail_network.py",
    error: Type[NetworkFileError] = NetworkFileError,
) -> Dict[str, np.ndarray]:
    """Every array of the data file at `path` (by default the network's), which must hold the
    arrays `required` and be of format `version`; `error` naming it (`what`) otherwise."""
    if not path.is_file():
        raise error(f"{what} not found: {path}. Build it with {script}.")
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except Exception as e:  # zipfile, zlib and numpy each raise their own kind
        raise error(f"{what} {path} is damaged: {e}") from e
    missing = [name for name in required if name not in arrays]
    if missing:
        raise error(f"{what} {path} is damaged: no {', '.join(missing)}")
    found = arrays["format"].reshape(-1).tolist()
    if found != [version]:
        raise error(f"{what} {path} has format {found}, expected [{version}]")
    return arrays


def pack_strings(strings: List[str]) -> np.ndarray:
    """Strings as one uint8 array of newline-separated UTF-8 (no pickle, compact)."""
    if any("\n" in s for s in strings):
        raise ValueError("strings to pack must not contain newlines")
    return np.frombuffer("\n".join(strings).encode("utf8"), dtype=np.uint8).copy()


def unpack_strings(array: np.ndarray) -> List[str]:
    """The strings `pack_strings` packed."""
    text = array.tobytes().decode("utf8")
    return text.split("\n") if text else []
