"""Small helpers shared by the architectures and components."""
from typing import Any, Iterable


def check_positive_int(name: str, value: Any) -> int:
    """Raise a ValueError naming `name` unless value is an int >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"'{name}' must be a positive integer, got {value!r}")
    return value


def check_non_negative_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"'{name}' must be an integer >= 0, got {value!r}")
    return value


def check_probability(name: str, value: Any) -> float:
    """Raise a ValueError naming `name` unless 0 <= value < 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
        raise ValueError(f"'{name}' must be a number in [0, 1), got {value!r}")
    return float(value)


def check_choice(name: str, value: Any, allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if value not in allowed:
        options = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"'{name}' must be one of {options}, got {value!r}")
    return value
