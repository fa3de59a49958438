"""Great-circle distances between (lon, lat) points."""

import math
from typing import Sequence

EARTH_RADIUS_KM = 6371.0088


def haversine_km(a: Sequence[float], b: Sequence[float]) -> float:
    """Straight (great-circle) distance in km between two (lon, lat) points in degrees."""
    lon1, lat1, lon2, lat2 = (math.radians(float(x)) for x in (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(min(1.0, h)))
