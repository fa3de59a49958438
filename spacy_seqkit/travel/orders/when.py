"""When a journey leaves: `resolve --when` and the service's `"when"` (`parse_when`), the day
and time a request says ("demain à 8h", "samedi matin", "ce soir": `read_when`), and the
departure they give on the timetable's days (`departure`).

The timetable holds one month of trains (SNCF's exports of 2024-06-26), so a day a request
names ("demain", "samedi") is mapped onto the same day of the week of the timetable's
reference week (Monday 2024-07-01 to Sunday 2024-07-07, a week of ordinary service before
the 14th of July), and the answer says so. A date given with `--when` is used as it is: one
outside the timetable has no train, and the answer says why. The default is 08:00 on the
reference week's Tuesday, 2024-07-02."""

import datetime as dt
import re
from typing import NamedTuple, Optional, Tuple

REFERENCE_MONDAY = dt.date(2024, 7, 1)
DEFAULT_DAY = REFERENCE_MONDAY + dt.timedelta(days=1)
DEFAULT_TIME = dt.time(8, 0)
WEEKDAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")
# Parts of the day, and the hour a journey asked for then leaves from.
PARTS = {
    "matin": 8,
    "matinee": 8,
    "midi": 12,
    "apres-midi": 14,
    "aprem": 14,
    "soir": 18,
    "soiree": 18,
    "nuit": 21,
}
_ACCENTS = str.maketrans("àâäéèêëîïôöùûüç’", "aaaeeeeiioouuuc'")
_TIME = re.compile(r"(?<![\w:])([01]?\d|2[0-3])\s*(?:h|heures?|:)(?:\s*([0-5]\d))?(?![\w:])")
_OPTION_TIME = re.compile(r"^([01]?\d|2[0-3])\s*(?:h|:)\s*([0-5]\d)?$")
_RELATIVE = (
    ("apres-demain", 2),
    ("apres demain", 2),
    ("demain", 1),
    ("aujourd'hui", 0),
    ("ce soir", 0),
    ("ce matin", 0),
)


class When(NamedTuple):
    """A departure time: `at` on the timetable's days, and how it was chosen (`said`)."""

    at: dt.datetime
    said: str


class Reading(NamedTuple):
    """What a request says of its departure: a day (days from today, or a weekday 0-6) and a
    time; each None where it says nothing; `words` are the words read."""

    days_ahead: Optional[int]
    weekday: Optional[int]
    time: Optional[dt.time]
    words: Tuple[str, ...]


def parse_when(text: str) -> Tuple[Optional[dt.date], dt.time]:
    """`--when`: "2024-07-02T08:00" (a day and a time), "2024-07-02" (08:00 that day), or a
    time ("08:00", "8h30", "14h") on the default day (None). ValueError for anything else."""
    value = text.strip()
    match = _OPTION_TIME.match(value.lower())
    if match:
        return None, dt.time(int(match.group(1)), int(match.group(2) or 0))
    try:
        if "T" in value or " " in value:
            at = dt.datetime.fromisoformat(value)
            return at.date(), at.time().replace(second=0, microsecond=0)
        return dt.date.fromisoformat(value), DEFAULT_TIME
    except ValueError:
        raise ValueError(
            f"{text!r} is not a departure: give a day and a time (2024-07-02T08:00), a day (2024-07-02) "
            "or a time (08:00, 8h30)"
        ) from None


def read_when(text: str) -> Reading:
    """The day and time a request says: "demain à 8h", "samedi matin", "ce soir", "lundi
    prochain vers 14h30"."""
    plain = " ".join(text.lower().translate(_ACCENTS).split())
    words = []
    days_ahead = weekday = None
    for phrase, ahead in _RELATIVE:
        if re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", plain):
            days_ahead = ahead
            words.append(phrase)
            break
    for i, name in enumerate(WEEKDAYS):
        if re.search(rf"\b{name}s?\b", plain):
            weekday = i
            words.append(name)
            break
    time = None
    match = _TIME.search(plain)
    if match:
        time = dt.time(int(match.group(1)), int(match.group(2) or 0))
        words.append(match.group(0).strip())
    else:
        for part, hour in PARTS.items():
            if re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", plain):
                time = dt.time(hour, 0)
                words.append(part)
                break
    return Reading(days_ahead, weekday, time, tuple(words))


def departure(
    text: str = "",
    day: Optional[dt.date] = None,
    time: Optional[dt.time] = None,
    today: Optional[dt.date] = None,
) -> When:
    """The departure of a request: the day and time it says (`read_when`), else `day` and
    `time` (`--when`), else the default; a day the request names is mapped onto the timetable's
    reference week (`today`, default the date of the clock, is where "demain" counts from)."""
    reading = read_when(text) if text else Reading(None, None, None, ())
    weekday = reading.weekday
    if weekday is None and reading.days_ahead is not None:
        weekday = ((today or dt.date.today()).weekday() + reading.days_ahead) % 7
    on = REFERENCE_MONDAY + dt.timedelta(days=weekday) if weekday is not None else day or DEFAULT_DAY
    at = dt.datetime.combine(on, reading.time or time or DEFAULT_TIME)
    leaving = f"{WEEKDAYS[on.weekday()]} {on.isoformat()} from {at:%H:%M}"
    if reading.words:
        read = " ".join(w for w in reading.words if not any(w in other and w != other for other in reading.words))
        mapped = " (the timetable's week)" if weekday is not None else ""
        return When(at, f"read « {read} »: {leaving}{mapped}")
    source = "--when" if day is not None or time is not None else "default"
    return When(at, f"{source}: {leaving}")
