"""Checks of settings shared by the architectures, components, readers and
schedules: each raises a ValueError naming the parameter and what it allows,
and returns the value. And `collector_paused`, for blocks that make many objects
and no garbage; `limit_threads`, for a process that should use so many cores."""

import gc
import math
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Optional


def check_int(name: str, value: Any, low: int = 0, high: Optional[int] = None, high_name: str = "") -> int:
    """Raise a ValueError naming `name` unless value is an int in [low, high]
    (`high_name`, if given, says where the upper bound comes from)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        if high is not None:
            allowed = f"an integer from {low} to {high_name + '=' if high_name else ''}{high}"
        else:
            allowed = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise ValueError(f"'{name}' must be {allowed}, got {value!r}")
    return value


def check_positive_int(name: str, value: Any) -> int:
    """Raise a ValueError naming `name` unless value is an int >= 1."""
    return check_int(name, value, 1)


def check_non_negative_int(name: str, value: Any) -> int:
    """Raise a ValueError naming `name` unless value is an int >= 0."""
    return check_int(name, value, 0)


def check_number(
    name: str,
    value: Any,
    low: float = -math.inf,
    high: float = math.inf,
    *,
    include_low: bool = True,
    include_high: bool = False,
) -> float:
    """Raise a ValueError naming `name` unless value is a number (not a bool)
    between `low` and `high`, each bound included or not (NaN never is)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        ok = (low <= value if include_low else low < value) and (value <= high if include_high else value < high)
    if not ok:
        if high == math.inf:
            allowed = f"a number {'>=' if include_low else '>'} {low:g}"
        else:
            allowed = f"a number in {'[' if include_low else '('}{low:g}, {high:g}{']' if include_high else ')'}"
        raise ValueError(f"'{name}' must be {allowed}, got {value!r}")
    return float(value)


def check_positive_number(name: str, value: Any) -> float:
    """Raise a ValueError naming `name` unless value is a finite number > 0."""
    return check_number(name, value, 0.0, include_low=False)


def check_probability(name: str, value: Any) -> float:
    """Raise a ValueError naming `name` unless 0 <= value < 1."""
    return check_number(name, value, 0.0, 1.0)


def check_bool(name: str, value: Any) -> bool:
    """Raise a ValueError naming `name` unless value is true or false."""
    if not isinstance(value, bool):
        raise ValueError(f"'{name}' must be true or false, got {value!r}")
    return value


def check_choice(name: str, value: Any, allowed: Iterable[str]) -> str:
    """Raise a ValueError naming `name` unless value is one of `allowed`."""
    allowed = tuple(allowed)
    if value not in allowed:
        options = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"'{name}' must be one of {options}, got {value!r}")
    return value


def check_divisible(name: str, value: int, divisor_name: str, divisor: int) -> int:
    """Raise a ValueError naming both parameters unless `divisor` divides
    `value` (as a width split into heads), listing the divisors allowed."""
    if value % divisor:
        allowed = [d for d in range(1, min(value, 64) + 1) if value % d == 0]
        raise ValueError(
            f"'{name}' ({value}) must be divisible by '{divisor_name}' ({divisor}); "
            f"allowed {divisor_name} for this {name}: {allowed}"
        )
    return value


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off within the block, back as it was after (as srsly
    reads msgpack): for a block that makes a great many objects and no garbage, such as
    importing spaCy with thinc and torch (about 0.3 s of the 1.7 s that import takes is the
    collector's passes over what it has made so far) or unpickling the gazetteer's index."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def limit_threads(threads: int) -> None:
    """Compute with at most `threads` threads in this process: torch's intra-op threads and the
    BLAS numpy multiplies matrices with (threadpoolctl). One pipeline answering short requests
    gains nothing from a second thread (a second process does: `resolve --n-process`)."""
    import torch
    from threadpoolctl import threadpool_limits

    check_positive_int("threads", threads)
    torch.set_num_threads(threads)
    threadpool_limits(threads)


def msgpack_registries_cached() -> None:
    """Make srsly find its msgpack encoders and decoders in a cache, not anew at every call.

    At each `msgpack_dumps` / `msgpack_loads` srsly asks its catalogue registries for every
    encoder and decoder, and `Registry.get_all` scans every installed package's entry points and
    every function registered in the process (~0.7-1.2 ms a call with spaCy loaded): paid by
    every `Doc.to_bytes`, every span group a `DocBin` reads (each doc of a training corpus, each
    epoch) and every doc `nlp.pipe(n_process=2)` passes between processes. The entry points
    installed now are registered by name (a function registered by the same name in the process
    keeps precedence, as before), and `get_all` answers from a cache made anew whenever a function
    is registered (through the registry, or anywhere in catalogue: the count changes); the
    functions it returns are the same."""
    import catalogue
    from srsly import msgpack_decoders, msgpack_encoders

    for registry in (msgpack_encoders, msgpack_decoders):
        if getattr(registry, "_seqkit_cached", False):
            continue
        for name, func in registry.get_entry_points().items():
            if not catalogue.check_exists(*registry.namespace, name):
                registry.register(name, func=func)
        registry.entry_points = False
        registry.get_all = _cached_get_all(registry)
        registry._seqkit_cached = True


def _cached_get_all(registry):
    import catalogue

    get_all, register = registry.get_all, registry.register
    cache: dict = {}

    def cached_get_all() -> dict:
        size = len(catalogue.REGISTRY)
        if cache.get("size") != size:
            cache["size"], cache["all"] = size, get_all()
        return dict(cache["all"])

    def register_and_forget(*args, **kwargs):
        cache.clear()
        return register(*args, **kwargs)

    registry.register = register_and_forget
    return cached_get_all
