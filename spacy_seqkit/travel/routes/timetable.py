"""`Timetable`: every TER, TGV and Intercités train of SNCF's GTFS exports of 2024-06-26 (its
stops, times and days), loaded from the package's derived file (data/timetable.npz, built by
scripts/build_timetable.py), and the connections of one day for the journey planner."""

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .datafile import NetworkFileError, read_arrays, unpack_strings

DATA_FILE = Path(__file__).resolve().parent / "data" / "timetable.npz"
FORMAT_VERSION = 1
REQUIRED = (
    "format",
    "attribution",
    "first_day",
    "station_uic",
    "station_name",
    "station_city",
    "station_lon",
    "station_lat",
    "alias_uic",
    "alias_station",
    "kinds",
    "train_kind",
    "train_number",
    "train_days",
    "train_ptr",
    "stop_station",
    "stop_arrive",
    "stop_depart",
    "stop_flags",
)
DAY = 86_400
# A stop's flags: one may board the train there, one may leave it there.
BOARD, ALIGHT = 1, 2


class TimetableFileError(NetworkFileError):
    """The timetable file is missing or damaged (the message names the file)."""


@dataclass(frozen=True)
class Connections:
    """A day's hops from one stop of a train to its next, sorted by departure (seconds after
    the day's midnight; the trains of the day before and after are in, shifted by a day).
    `trip` numbers a train on one day (train + slot * trains: slot 0 the day before, 1 the
    day, 2 the day after); `pos` is the stop of the train a hop leaves (its `stop_*` row)."""

    src: np.ndarray
    dst: np.ndarray
    dep: np.ndarray
    arr: np.ndarray
    trip: np.ndarray
    flags: np.ndarray  # BOARD: one may board at src; ALIGHT: one may leave at dst
    pos: np.ndarray


class Timetable:
    """Stations by UIC code, trains (kind, number, stops, times, days) and their connections."""

    def __init__(self, arrays: Dict[str, np.ndarray], path: Path) -> None:
        self.path = path
        self.attribution = unpack_strings(arrays["attribution"])[0]
        self.first_day = dt.date.fromordinal(int(arrays["first_day"]))
        self.station_uic = arrays["station_uic"]
        self.names = unpack_strings(arrays["station_name"])
        self.city = unpack_strings(arrays["station_city"])
        self.lon, self.lat = arrays["station_lon"], arrays["station_lat"]
        self.kinds = unpack_strings(arrays["kinds"])
        self.train_kind = arrays["train_kind"]
        self.train_number = arrays["train_number"]
        self.train_ptr = arrays["train_ptr"]
        self.stop_station = arrays["stop_station"]
        self.stop_arrive = arrays["stop_arrive"]
        self.stop_depart = arrays["stop_depart"]
        self.stop_flags = arrays["stop_flags"]
        self.n_trains = len(self.train_number)
        self.n_days = int(arrays["train_days"].shape[1]) * 8
        days = np.unpackbits(arrays["train_days"], axis=1)[:, : self.n_days].astype(bool)
        # the days run: trailing days no train runs are padding of the packed bits
        ran = np.flatnonzero(days.any(axis=0))
        self.n_days = int(ran[-1]) + 1 if len(ran) else 0
        self.days = days[:, : self.n_days]
        n_stops = len(self.stop_station)
        if (
            len(self.names) != len(self.station_uic)
            or len(self.train_ptr) != self.n_trains + 1
            or int(self.train_ptr[-1]) != n_stops
            or (n_stops and int(self.stop_station.max()) >= len(self.station_uic))
        ):
            raise TimetableFileError(f"Timetable file {path} is damaged: its arrays do not agree")
        self.station_of: Dict[int, int] = {u: i for i, u in enumerate(self.station_uic.tolist())}
        for uic, station in zip(arrays["alias_uic"].tolist(), arrays["alias_station"].tolist()):
            self.station_of.setdefault(uic, station)
        # Every hop of every train (from one stop to its next), once, sorted by departure, then
        # arrival, then row: a day selects its own, in that order, and merges three such runs
        # (the day before, the day, the day after) with a stable sort of presorted runs.
        last = np.zeros(n_stops, dtype=bool)
        last[self.train_ptr[1:] - 1] = True
        hop = np.flatnonzero(~last)
        train = np.repeat(np.arange(self.n_trains, dtype=np.int32), np.diff(self.train_ptr) - 1)
        key = _sort_key(self.stop_depart[hop], self.stop_arrive[hop + 1], hop)
        order = np.argsort(key, kind="stable")
        self._hop, self._hop_train, self._hop_key = hop[order], train[order], key[order]
        self._days: Dict[int, Tuple[Connections, Connections]] = {}

    @classmethod
    def load(cls, path: Optional[Union[str, Path]] = None) -> "Timetable":
        """The timetable of `path` (default: the package's file), loaded once per path. A
        missing or damaged file raises TimetableFileError naming it."""
        return _load(Path(path).resolve() if path is not None else DATA_FILE)

    @property
    def last_day(self) -> dt.date:
        return self.first_day + dt.timedelta(days=self.n_days - 1)

    def day_index(self, day: dt.date) -> Optional[int]:
        """The day's number in the timetable (0 for its first day), None outside it."""
        i = (day - self.first_day).days
        return i if 0 <= i < self.n_days else None

    def stations(self, uics: Sequence[Union[int, str]]) -> List[int]:
        """The timetable's stations among the UIC codes (any code of a station), in order."""
        found = (self.station_of.get(int(u)) for u in uics if str(u).strip().isdigit())
        return list(dict.fromkeys(s for s in found if s is not None))

    def stops(self, train: int) -> range:
        """The rows (`stop_*` arrays) of a train's stops, in order."""
        return range(int(self.train_ptr[train]), int(self.train_ptr[train + 1]))

    def connections(self, day: int) -> Tuple[Connections, Connections]:
        """The hops of the trains running on `day` (and those of the day before and after,
        shifted by a day): forward, sorted by departure; and reversed in time (a hop from its
        arrival to its departure, at minus its times), sorted the same way, for the latest
        departure. Kept for the last days asked."""
        found = self._days.get(day)
        if found is None:
            found = self._days[day] = self._connections(day)
            if len(self._days) > 8:
                self._days.pop(next(iter(self._days)))
        return found

    def _connections(self, day: int) -> Tuple[Connections, Connections]:
        hop, train, key = self._hop, self._hop_train, self._hop_key
        rows, trips, keys = [], [], []
        for slot in (0, 1, 2):
            d = day + slot - 1
            if not 0 <= d < self.n_days:
                continue
            keep = self.days[train, d]
            rows.append(hop[keep])
            trips.append(train[keep] + slot * self.n_trains)
            keys.append(key[keep] + (slot - 1) * (DAY << _KEY_SHIFT))
        if not rows:
            empty = Connections(*(np.zeros(0, dtype=np.int32) for _ in range(7)))
            return empty, empty
        merged = np.argsort(np.concatenate(keys), kind="stable")
        row = np.concatenate(rows)[merged]
        trip = np.concatenate(trips)[merged].astype(np.int32)
        dep = ((np.concatenate(keys)[merged] >> _KEY_SHIFT) - _KEY_BIAS).astype(np.int32)
        arr = self.stop_arrive[row + 1] + (dep - self.stop_depart[row])
        inside = (arr >= 0) & (dep < 2 * DAY)
        row, trip, dep, arr = row[inside], trip[inside], dep[inside], arr[inside]
        src, dst = self.stop_station[row], self.stop_station[row + 1]
        board = (self.stop_flags[row] & BOARD) != 0
        alight = (self.stop_flags[row + 1] & ALIGHT) != 0
        forward = Connections(
            src, dst, dep, arr, trip, (board * BOARD | alight * ALIGHT).astype(np.int8), row.astype(np.int32)
        )
        # Backward in time: a hop leaves its arrival station at -arr and reaches its departure
        # station at -dep; one boards it where the train lets people off, and the reverse.
        back = np.argsort(_sort_key(-arr, -dep, (1 << 18) - 1 - row), kind="stable")
        backward = Connections(
            dst[back],
            src[back],
            -arr[back],
            -dep[back],
            trip[back],
            (alight * BOARD | board * ALIGHT).astype(np.int8)[back],
            row[back].astype(np.int32),
        )
        return forward, backward


# A hop's sort key: departure (biased to be positive over three days), then duration, then row.
_KEY_SHIFT = 36
_KEY_BIAS = 2 * DAY


def _sort_key(dep: np.ndarray, arr: np.ndarray, row: np.ndarray) -> np.ndarray:
    return ((dep.astype(np.int64) + _KEY_BIAS) << _KEY_SHIFT) | ((arr - dep).astype(np.int64) << 18) | row


@lru_cache(maxsize=4)
def _load(path: Path) -> Timetable:
    arrays = read_arrays(
        path, REQUIRED, FORMAT_VERSION, "Timetable file", "scripts/build_timetable.py", TimetableFileError
    )
    return Timetable(arrays, path)
