"""`python -m spacy_seqkit serve MODEL`: the travel pipeline as an HTTP service
(FastAPI + uvicorn: `pip install "spacy-seqkit[serve]"`).

- `POST /resolve` with `{"text": "de Marseille à Paris"}`: the trip (with `why`: the rules that
  decided it and the cues the qualifiers found), and the entities with their character offsets and labels (`"render": true` adds
  displaCy's HTML of them); with `{"orders": [{"id": "1", "sentence": "..."}]}`:
  the Travel Order Resolver's answers, in order, batched through `nlp.pipe`,
  each with the line `resolve` would write (`id,Departure,Destination`; with
  `steps`, as `resolve --steps`, the stops between the ends; with `route`, as
  `resolve --route`, and each answer's route). `"route": true` beside a text adds
  its route over SNCF's network (null for an INVALID request).
- `POST /route` with `{"text": ...}`: the trip, its route (`routing.route_json`:
  the stations with their UIC codes and coordinates, km, lines, trains) and its journey
  on SNCF's timetables (`routing.journey_json`: the trains, their times, the changes),
  leaving when the request says, else at `"when"` ("2024-07-02T08:00", a day or a time),
  else at the default; a request with no trip gets 422, a trip without a route
  `{"found": false, "reason": ...}`, one without a train `"journey": {"found": false,
  "reason": ...}` beside its route.
- `GET /network`: the network's lines (lon, lat polylines) for the page to draw.
- `GET /health`: the pipeline and the limits.
- `GET /`: a page to type a request and see its entities, trip and route, drawn
  on the network by the page itself (an SVG: nothing comes from outside).

A body over `max_body_bytes` or with more than `max_orders` orders gets 413, a
body that is not UTF-8 or not JSON 400, one of the wrong shape 422, always as
`{"error": "..."}`; a text over the limits on one order (`travel.tor`) is
answered INVALID with its reason in `error`. The pipeline is loaded once, at
start, and answers one request at a time.
"""

import io
import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from ..pipeline.trip import LABELS, Trip
from .answer import answer_batch, trip_of, trip_values
from .format import Order, clean_text, limit_error, row_writer
from .routing import (
    journey_json,
    network_json,
    route_json,
    route_row,
    route_stations,
    trip_communes,
    trip_journey,
    trip_stations,
)
from .when import departure, parse_when

if TYPE_CHECKING:
    from ..routes import JourneyPlanner, RailNetwork

MAX_BODY_BYTES = 1_000_000
MAX_ORDERS = 1_000
ENTITY_COLORS = {"DEPART": "#9be9a8", "ARRIVEE": "#8ec5ff", "VIA": "#ffd47a"}


class RequestError(Exception):
    """A request the service refuses: HTTP status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def parse_body(body: bytes) -> Dict[str, Any]:
    """The JSON object of a request body, or RequestError (400, 422)."""
    try:
        text = body.decode("utf8")
    except UnicodeDecodeError as e:
        raise RequestError(400, f"the body is not valid UTF-8 (byte {e.start})") from None
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError) as e:  # also numbers too long, nesting too deep
        raise RequestError(400, f"the body is not valid JSON ({str(e)[:200]})") from None
    if not isinstance(payload, dict) or ("text" in payload) == ("orders" in payload):
        raise RequestError(422, 'expected a JSON object with "text" (a string) or "orders" (a list)')
    return payload


def read_orders_field(payload: Dict[str, Any], max_orders: int) -> List[Order]:
    """The orders of `{"orders": [{"id": ..., "sentence": ...}, ...]}`, or RequestError."""
    orders = payload["orders"]
    if not isinstance(orders, list):
        raise RequestError(422, '"orders" must be a list of {"id": ..., "sentence": ...}')
    if len(orders) > max_orders:
        raise RequestError(413, f"{len(orders):,} orders in one request, over the limit of {max_orders:,}")
    read = []
    for i, order in enumerate(orders):
        if not isinstance(order, dict) or not isinstance(order.get("sentence"), str):
            raise RequestError(422, f'orders[{i}]: expected {{"id": ..., "sentence": "..."}} with a string sentence')
        order_id = order.get("id", "")
        if isinstance(order_id, bool) or not isinstance(order_id, (str, int)):
            raise RequestError(422, f"orders[{i}]: the id must be a string or an integer")
        read.append(Order(i + 1, str(order_id), order["sentence"], None))
    return read


def csv_line(row: List[str]) -> str:
    """One row as `resolve` writes it, without the line end."""
    buffer = io.StringIO()
    row_writer(buffer)(row)
    return buffer.getvalue()[:-1]


class Resolver:
    """The pipeline behind the service, used by one request at a time."""

    def __init__(self, nlp, batch_size: int = 64, steps: bool = False, route: bool = False) -> None:
        self.nlp, self.batch_size, self.steps, self.route = nlp, batch_size, steps, route
        self.lock = threading.Lock()
        self._network: Optional["RailNetwork"] = None
        self._planner: Optional["JourneyPlanner"] = None

    @property
    def network(self):
        """SNCF's network, loaded on the first route asked for."""
        if self._network is None:
            from ..routes import RailNetwork

            self._network = RailNetwork.load()
        return self._network

    @property
    def planner(self):
        """The journey planner on SNCF's timetables, loaded on the first journey asked for."""
        if self._planner is None:
            from ..routes import JourneyPlanner

            self._planner = JourneyPlanner()
        return self._planner

    def route_of(self, trip: Trip):
        return route_stations(self.network, trip_stations(trip), trip.places(), trip_communes(trip))

    def journey_of(self, text: str, places, stations, communes, kinds, when: Any = None) -> Dict[str, Any]:
        """The journey JSON of a trip: leaving when the request says, else at `when`."""
        day, time = when if isinstance(when, tuple) else (None, None)
        leaving = departure(text, day, time)
        journey = trip_journey(self.planner, self.network, stations, places, communes, leaving, kinds)
        return journey_json(journey, leaving)

    def routed(self, text: Any, when: Any = None) -> Dict[str, Any]:
        """The answer to a text with its route, or RequestError (422) without a trip."""
        answer = self.text(text, with_route=True, when=when)
        if not answer["valid"]:
            reason = answer["error"] or "the request is INVALID: no departure and destination to route"
            raise RequestError(422, f"no trip to route: {reason}")
        return answer

    def text(self, text: Any, render: bool = False, with_route: bool = False, when: Any = None) -> Dict[str, Any]:
        if not isinstance(text, str):
            raise RequestError(422, '"text" must be a string')
        leaving = read_when_field(when)
        text = clean_text(text)
        error = limit_error(text, self.nlp.max_length)
        trip, entities, html, why = Trip(), [], None, []
        if not error:
            # One request at a time (displaCy too: it silences a warning, process-wide), in a
            # spaCy memory zone: what the doc adds to the vocabulary is freed after the answer,
            # so the service's memory stays flat however many new words it reads.
            with self.lock, self.nlp.memory_zone():
                doc = self.nlp(text)
                html = self.render(doc) if render else None
                trip = trip_of(doc)
                why = list((doc._.trip or {}).get("why") or []) if doc.has_extension("trip") else []
                entities = [
                    {"start": e.start_char, "end": e.end_char, "label": e.label_, "text": e.text} for e in doc.ents
                ]
        answer = {
            "text": text,
            "valid": trip.is_valid,
            "places": trip.places(),
            "trip": {**trip.to_dict(), "why": why if not error else [{"rule": "limits", "cue": error}]},
            "entities": entities,
            "error": error,
        }
        if render:
            answer["html"] = html
        if with_route:
            answer["route"] = route_json(self.route_of(trip)) if trip.is_valid else None
            answer["journey"] = (
                self.journey_of(
                    text,
                    trip.places(),
                    trip_stations(trip),
                    trip_communes(trip),
                    [v.kind if v is not None else "" for v in trip_values(trip)],
                    leaving,
                )
                if trip.is_valid
                else None
            )
        return answer

    def orders(self, orders: List[Order]) -> Dict[str, Any]:
        with self.lock:
            answers = answer_batch(self.nlp, orders, self.batch_size)
        out = []
        for a in answers:
            answer = {
                "id": a.id,
                "valid": bool(a.places),
                "places": list(a.places),
                "error": a.error,
                "why": list(a.why),
            }
            if self.route:
                route = route_stations(self.network, a.stations, a.places, a.communes) if a.places else None
                journey = self.journey_of(a.sentence, a.places, a.stations, a.communes, a.kinds) if a.places else None
                if journey is not None and journey["found"]:
                    answer["line"] = csv_line([a.id, *(stop["name"] for stop in journey["stops"])])
                else:
                    answer["line"] = csv_line(route_row(a.id, route) if route is not None else a.row())
                answer["route"] = route_json(route) if route is not None else None
                answer["journey"] = journey
            else:
                answer["line"] = csv_line(a.row(self.steps))
            out.append(answer)
        return {"answers": out}

    @staticmethod
    def render(doc) -> str:
        import warnings

        from spacy import displacy

        with warnings.catch_warnings():  # W006, no entity to show: a plain answer here
            warnings.simplefilter("ignore", UserWarning)
            return displacy.render(doc, style="ent", options={"ents": list(LABELS), "colors": ENTITY_COLORS})


def read_when_field(when: Any):
    """The `"when"` of a request ("2024-07-02T08:00", a day or a time; absent: the default),
    as (day, time), or RequestError (422) naming it."""
    if when is None:
        return None
    if not isinstance(when, str):
        raise RequestError(422, '"when" must be a string: 2024-07-02T08:00, a day (2024-07-02) or a time (8h30)')
    try:
        return parse_when(when)
    except ValueError as e:
        raise RequestError(422, f'"when": {e}') from None


def create_app(
    nlp,
    max_body_bytes: int = MAX_BODY_BYTES,
    max_orders: int = MAX_ORDERS,
    batch_size: int = 64,
    steps: bool = False,
    route: bool = False,
):
    """The FastAPI application answering with `nlp` (a pipeline ready to answer trips:
    `answer.prepare_pipeline`); `steps`: the orders' lines hold the stops; `route`: the
    orders' lines are their routes' stations (as `resolve --route`), with each route."""
    from fastapi import FastAPI, Request
    from fastapi.concurrency import run_in_threadpool
    from fastapi.responses import HTMLResponse, JSONResponse

    page_html = (Path(__file__).parent / "page.html").read_text(encoding="utf8")
    resolver = Resolver(nlp, batch_size, steps, route)
    network: Dict[str, Any] = {}
    limits = {"max_body_bytes": max_body_bytes, "max_orders": max_orders, **order_limits()}
    app = FastAPI(title="spacy_seqkit travel order resolver", version="1")

    @app.exception_handler(RequestError)
    async def refused(request: Request, error: RequestError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.get("/health")
    def health() -> Dict[str, Any]:
        return {"status": "ok", "pipeline": nlp.pipe_names, "limits": limits}

    @app.get("/", response_class=HTMLResponse)
    def page() -> str:
        return page_html

    @app.get("/network")
    def lines() -> Dict[str, Any]:
        if not network:
            network.update(network_json(resolver.network))
            network["attribution"] += " " + resolver.planner.timetable.attribution
        return network

    @app.post("/resolve")
    async def resolve(request: Request) -> Dict[str, Any]:
        payload = parse_body(await read_body(request, max_body_bytes))
        if "text" in payload:
            render, with_route = payload.get("render") is True, payload.get("route") is True
            return await run_in_threadpool(resolver.text, payload["text"], render, with_route, payload.get("when"))
        return await run_in_threadpool(resolver.orders, read_orders_field(payload, max_orders))

    @app.post("/route")
    async def route_text(request: Request) -> Dict[str, Any]:
        payload = parse_body(await read_body(request, max_body_bytes))
        if "text" not in payload:
            raise RequestError(422, 'expected a JSON object with "text" (a string): the request to route')
        return await run_in_threadpool(resolver.routed, payload["text"], payload.get("when"))

    return app


async def read_body(request, max_body_bytes: int) -> bytes:
    """The request body, or RequestError (413) as soon as it passes the limit."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_body_bytes:
        raise RequestError(413, f"a body of {int(declared):,} bytes, over the limit of {max_body_bytes:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_body_bytes:
            raise RequestError(413, f"a body over the limit of {max_body_bytes:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def order_limits() -> Dict[str, int]:
    from . import format as tor

    return {
        "max_order_chars": tor.MAX_ORDER_CHARS,
        "max_order_tokens": tor.MAX_ORDER_TOKENS,
        "max_word_chars": tor.MAX_WORD_CHARS,
    }


def serve(
    nlp,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    steps: bool = False,
    route: bool = False,
    **limits: int,
) -> None:
    """Serve `nlp` until interrupted."""
    import uvicorn

    nlp("Je veux aller de Marseille à Paris")  # the gazetteer's index is built here, not for a user
    uvicorn.run(create_app(nlp, steps=steps, route=route, **limits), host=host, port=port, log_level=log_level)
