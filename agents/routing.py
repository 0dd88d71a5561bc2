"""Which model and server play each seat: the one place ``LEGALSIM_SEAT_MODELS`` is read.

Also where each model's context window and prices are read (``LEGALSIM_MODEL_CONTEXT``,
``LEGALSIM_PRICES``, keyed by the model names routes give).

A seat's route is the first of these keys ``LEGALSIM_SEAT_MODELS`` has: the seat's id
(``plaintiff_lawyer``), ``target`` for the seat under evaluation, then its role (``judge``,
``lawyer`` (defence counsel too), ``client``, ``prosecutor``, ``defendant``). A seat none of
them names keeps the defaults: ``LEGALSIM_MODEL_TARGET`` for the target,
``LEGALSIM_MODEL`` for the rest, on ``OPENAI_BASE_URL``. ``supervisor`` routes the MASER
supervisor.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from court.procedures import procedure_for
from court.procedures.seats import seat_info
from legalsim.env import EVERY_MODEL
from legalsim.llm import LLMClient

ROLE_KEYS = ("judge", "lawyer", "client", "prosecutor", "defendant")
TARGET, SUPERVISOR = "target", "supervisor"
PROCEDURES = ("civil", "criminal")


@dataclass(frozen=True)
class Route:
    model: str
    base_url: str
    api_key: str

    def meta(self) -> dict:
        """What the trajectory records of it (never the key): the model, the server and the
        sampling settings, the reply-length limit among them (a reply cut short by it is part
        of the record)."""
        return {"model": self.model, "base_url": self.base_url, **sampling()}

    def client(self) -> LLMClient:
        """A client of the route's server (``LLMError`` when it cannot be made)."""
        return LLMClient.from_settings(base_url=self.base_url, api_key=self.api_key)


def sampling() -> dict:
    """The sampling settings of every call a seat makes: temperature, top_p, max_tokens, seed."""
    return {
        "temperature": settings.LEGALSIM_TEMPERATURE,
        "top_p": settings.LEGALSIM_TOP_P,
        "max_tokens": settings.LEGALSIM_MAX_TOKENS,
        "seed": settings.LEGALSIM_SEED,
    }


def route_keys() -> tuple[str, ...]:
    """Every key ``LEGALSIM_SEAT_MODELS`` may use."""
    seats = {seat for procedure in PROCEDURES for seat in procedure_for(procedure).seats}
    return (*sorted(seats - set(ROLE_KEYS)), *ROLE_KEYS, TARGET, SUPERVISOR)


def seat_models_check() -> None:
    """Refuse a ``LEGALSIM_SEAT_MODELS`` key that names no seat or role (at start-up)."""
    known = route_keys()
    for key in settings.LEGALSIM_SEAT_MODELS:
        if key not in known:
            raise ImproperlyConfigured(
                f"LEGALSIM_SEAT_MODELS: {key}: is not a seat id or role (one of {', '.join(known)})"
            )


def seat_route(procedure: str, seat: str, *, is_target: bool, target_model: str = "") -> Route:
    """The seat's route; ``target_model`` puts the target seat on another model of its server
    (a batch comparing target models)."""
    role = seat_info(procedure, seat).role
    keys = (seat, TARGET if is_target else "", "lawyer" if role == "attorney" else role)
    default = settings.LEGALSIM_MODEL_TARGET if is_target else settings.LEGALSIM_MODEL
    route = _route(next((key for key in keys if key in settings.LEGALSIM_SEAT_MODELS), ""), default)
    return replace(route, model=target_model) if is_target and target_model else route


def supervisor_route() -> Route:
    return _route(SUPERVISOR if SUPERVISOR in settings.LEGALSIM_SEAT_MODELS else "", settings.LEGALSIM_MODEL)


def _route(key: str, default_model: str) -> Route:
    chosen = settings.LEGALSIM_SEAT_MODELS.get(key, {})
    return Route(
        model=chosen.get("model") or default_model,
        base_url=chosen.get("base_url") or settings.OPENAI_BASE_URL,
        api_key=chosen.get("api_key") or settings.OPENAI_API_KEY,
    )


def model_window(model: str, client: LLMClient) -> int | None:
    """``model``'s context window: ``LEGALSIM_MODEL_CONTEXT``'s (the model's own, else ``*``),
    else what its server reports (``LLMClient.server_window``), else None (not known)."""
    configured = settings.LEGALSIM_MODEL_CONTEXT
    window = configured.get(model) or configured.get(EVERY_MODEL)
    return window or client.server_window(model)


def call_cost(model: str, *, prompt: int, cached: int, completion: int) -> float | None:
    """What a call cost at ``model``'s ``LEGALSIM_PRICES`` (per million tokens; the cached part
    of the prompt at the cached-input price), None when no price is configured for it."""
    prices = settings.LEGALSIM_PRICES.get(model)
    if prices is None:
        return None
    billed = (prompt - cached) * prices["input"] + cached * prices["cached_input"] + completion * prices["output"]
    return billed / 1_000_000
