"""Learning-rate schedules, registered through the `thinc_schedules` entry point.

In thinc 8.3 a schedule is an infinite iterator of rates: the optimizer takes
the first value when it is built and one more after every update
(`Optimizer.step_schedules`), so the n-th update uses value n (from 1).
"""

import math
from typing import Iterator

from .util import check_positive_int, check_positive_number


def warmup_rsqrt_rate(step: int, peak_rate: float, warmup_steps: int) -> float:
    """The Transformer paper's rate, scaled so that it peaks at `peak_rate`:
    peak_rate · min(step / warmup_steps, sqrt(warmup_steps / step)), step >= 1."""
    return peak_rate * min(step / warmup_steps, math.sqrt(warmup_steps / step))


def warmup_rsqrt(peak_rate: float, warmup_steps: int) -> Iterator[float]:
    """Linear warm-up from peak_rate / warmup_steps to peak_rate over
    `warmup_steps` updates, then decay proportional to 1 / sqrt(step)
    (Vaswani et al. 2017, section 5.3).

    peak_rate (float): The rate reached at step `warmup_steps`.
        Recommended values are 1e-4 to 1e-3 with Adam.
    warmup_steps (int): Length of the warm-up. Recommended values are 250 to 4000.
    """
    peak_rate = check_positive_number("peak_rate", peak_rate)
    check_positive_int("warmup_steps", warmup_steps)
    return _warmup_rsqrt_series(peak_rate, warmup_steps)


def _warmup_rsqrt_series(peak_rate: float, warmup_steps: int) -> Iterator[float]:
    # A separate generator, so bad arguments raise at config resolution,
    # not at the optimizer's first next().
    step = 1
    while True:
        yield warmup_rsqrt_rate(step, peak_rate, warmup_steps)
        step += 1
