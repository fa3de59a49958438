"""The Connection Scan Algorithm (Dibbelt, Pajor, Strasser, Wagner, 2013) with a count of
trains: one pass over a day's connections sorted by departure, keeping for each station and
each number of trains taken the earliest arrival (so that, among the journeys arriving
earliest, the one with the fewest changes is found). Compiled with numba (cached on disk);
the same function runs backward in time on the reversed connections (latest departure).

Labels, for station s and k trains taken (k = 0 .. max_trains):
- `arrive[s, k]`: the earliest arrival at s by the k-th train, with the connection that
  reached it (`arrive_hop`) and the one where that train was boarded (`arrive_board`);
- `ready[s, k]`: the earliest time one may board a train at s after k trains: the start time
  at a journey's first station (k = 0), an arrival there plus the station's change time, or
  an arrival at another station of the same city plus the transfer time; `ready_from` is the
  station one came from (itself for a change in the station, -1 at the start).
A train boarded with k trains behind is the (k+1)-th; a train is kept with the fewest trains
it could be boarded with (`trip_trains`, `trip_board`). An arrival at s by the k-th train is
kept only if no journey with k trains or fewer reached s as early."""

import numpy as np

INF = np.iinfo(np.int32).max // 2


def scan_connections(
    src,
    dst,
    dep,
    arr,
    trip,
    flags,
    start,
    ready,
    ready_from,
    ready_min,
    arrive,
    arrive_min,
    arrive_hop,
    arrive_board,
    trip_trains,
    trip_board,
    change,
    transfer_ptr,
    transfer_to,
    transfer_time,
    target_extra,
    max_trains,
):
    """Scan the connections from index `start` until one departs after the best arrival at a
    target (a station whose `target_extra` is >= 0: the time from it to the destination).
    Returns that best arrival (INF if none). The label arrays are updated in place."""
    best = INF
    n = dep.shape[0]
    for c in range(start, n):
        t_dep = dep[c]
        if t_dep > best:
            break
        t = trip[c]
        trains = trip_trains[t]
        a = src[c]
        if (flags[c] & 1) and ready_min[a] <= t_dep:
            # board with the fewest trains behind (the k-th label able to catch it)
            for k in range(max_trains):
                if k + 1 >= trains:
                    break
                if ready[a, k] <= t_dep:
                    trains = k + 1
                    trip_trains[t] = trains
                    trip_board[t] = c
                    break
        if trains > max_trains or not (flags[c] & 2):
            continue
        b = dst[c]
        t_arr = arr[c]
        if arrive_min[b] <= t_arr:  # an arrival as early with any number of trains: one test, mostly enough
            dominated = False
            for k in range(trains + 1):
                if arrive[b, k] <= t_arr:
                    dominated = True
                    break
            if dominated:
                continue
        else:
            arrive_min[b] = t_arr
        arrive[b, trains] = t_arr
        arrive_hop[b, trains] = c
        arrive_board[b, trains] = trip_board[t]
        if target_extra[b] >= 0 and t_arr + target_extra[b] < best:
            best = t_arr + target_extra[b]
        if trains < max_trains:
            r = t_arr + change[b]
            if r < ready[b, trains]:
                ready[b, trains] = r
                ready_from[b, trains] = b
                if r < ready_min[b]:
                    ready_min[b] = r
            for j in range(transfer_ptr[b], transfer_ptr[b + 1]):
                o = transfer_to[j]
                r = t_arr + transfer_time[j]
                if r < ready[o, trains]:
                    ready[o, trains] = r
                    ready_from[o, trains] = b
                    if r < ready_min[o]:
                        ready_min[o] = r
    return best


def _compiled():
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency; plain Python still answers
        return scan_connections
    return numba.njit(cache=True, nogil=True)(scan_connections)


scan = _compiled()
