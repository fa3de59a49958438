"""The timetable: loading, stations by any of their UIC codes, a day's connections, and the
data file's errors."""

import datetime as dt
import zipfile
from pathlib import Path

import numpy as np
import pytest

from spacy_seqkit.travel.routes import Timetable, TimetableFileError
from spacy_seqkit.travel.routes.timetable import BOARD, DATA_FILE, DAY

PARIS_AUSTERLITZ = (87547000, 87547026)  # one station, two UIC codes


@pytest.fixture(scope="module")
def timetable() -> Timetable:
    return Timetable.load()


def test_timetable_holds_every_kind_of_train_and_the_shared_days(timetable):
    assert Timetable.load() is timetable and "SNCF Open Data" in timetable.attribution
    assert timetable.first_day == dt.date(2024, 6, 26) and timetable.last_day == dt.date(2024, 7, 26)
    kinds = set(timetable.kinds)
    assert {"TER", "TGV INOUI", "OUIGO", "Intercités", "Intercités de nuit"} <= kinds
    assert not any("Car" in k or "Navette" in k for k in kinds)  # coaches left out
    # every train runs on some day of the file, and trains run every day
    assert timetable.days.any(axis=1).all() and timetable.days.any(axis=0).all()
    assert timetable.day_index(dt.date(2024, 7, 2)) == 6 and timetable.day_index(dt.date(2024, 8, 2)) is None


def test_timetable_names_stations_by_sncf_traveller_names_and_any_uic_code(timetable):
    names = {timetable.names[s] for s in timetable.stations([87686006, "87751008"])}
    assert names == {"Paris Gare de Lyon", "Marseille Saint-Charles"}
    assert len(timetable.stations(PARIS_AUSTERLITZ)) == 1
    assert timetable.stations([12345678, "gare"]) == []


def test_timetable_connections_of_a_day_are_sorted_and_follow_the_trains(timetable):
    forward, backward = timetable.connections(6)
    assert len(forward.dep) > 50_000 and len(forward.dep) == len(backward.dep)
    assert (np.diff(forward.dep) >= 0).all() and (np.diff(backward.dep) >= 0).all()
    assert (forward.arr >= forward.dep).all() and (backward.arr >= backward.dep).all()
    # a hop leaves the station of its stop row for the next stop of the same train
    assert (timetable.stop_station[forward.pos] == forward.src).all()
    assert (timetable.stop_station[forward.pos + 1] == forward.dst).all()
    board = (timetable.stop_flags[forward.pos] & BOARD) != 0
    assert (((forward.flags & BOARD) != 0) == board).all()
    # trains of the day before still running after midnight are in, a day earlier
    assert forward.dep.min() < 0 < forward.arr.max() - DAY
    assert timetable.connections(6) is timetable.connections(6)


def test_timetable_missing_file_names_it(tmp_path):
    with pytest.raises(TimetableFileError, match="nowhere.npz"):
        Timetable.load(tmp_path / "nowhere.npz")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "no_stops"])
def test_timetable_damaged_file_names_it(tmp_path, damage):
    path = tmp_path / "damaged.npz"
    data = DATA_FILE.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        with zipfile.ZipFile(DATA_FILE) as src, zipfile.ZipFile(path, "w") as dst:
            for name in src.namelist():
                if name != "stop_station.npy":
                    dst.writestr(name, src.read(name))
    with pytest.raises(TimetableFileError, match="damaged.npz"):
        Timetable.load(path)


@pytest.mark.slow
def test_timetable_build_script_reproduces_the_shipped_file(tmp_path):
    root = Path(__file__).resolve().parents[3]
    sncf = root.parent / "shared" / "data" / "sncf"
    if not (sncf / "gtfs-2024-06-26" / "ter.zip").is_file():
        pytest.skip(f"raw SNCF timetables not found in {sncf}")
    import subprocess
    import sys

    out = tmp_path / "timetable.npz"
    subprocess.run(
        [sys.executable, str(root / "scripts" / "build_timetable.py"), "--sncf", str(sncf), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_bytes() == DATA_FILE.read_bytes()
