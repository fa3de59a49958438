"""The rewriter's settings: `RewriterConfig`, validated in one place, and the
scheduled-sampling rate it holds.

The registered builder (`spacy-seqkit.Seq2SeqRewriter.v1` in architectures.py)
states the parameters and their defaults once; this dataclass has no defaults.
The thinc model keeps the config in its attrs; thinc serialises it with the
functions registered here (the live scheduled-sampling schedule stays the
model's own: a schedule is a generator, and it comes from the config).
"""
from dataclasses import dataclass, fields, replace
from typing import Any, Dict, Iterable, Optional, Union

import srsly
from thinc.api import Model
from thinc.model import deserialize_attr, serialize_attr

from ...util import check_choice, check_non_negative_int, check_positive_int, check_probability
from ..output_layers import OUTPUT_LAYERS, output_layer_name
from .attention import DECODER_ATTENTIONS
from .units import SOURCE_TYPES, UNIT_TYPES

# Copy needs the source and target units to be of the same kind.
COPY_UNITS = (("characters", "characters"), ("tokens", "words"))


class ScheduledRate:
    """The scheduled-sampling rate: a float, or a thinc schedule (a generator)
    advanced once per update. Copies and pickles keep the current value as a
    constant, since generators cannot be copied."""

    def __init__(self, schedule: Union[float, Iterable[float]]):
        if isinstance(schedule, (int, float)) and not isinstance(schedule, bool):
            check_probability("scheduled_sampling", schedule)
            self.value, self.schedule = float(schedule), None
        elif hasattr(schedule, "__next__"):
            self.value, self.schedule = 0.0, schedule
        else:
            raise ValueError(
                "'scheduled_sampling' must be a probability in [0, 1) or a thinc "
                f"schedule, got {schedule!r}"
            )

    def next(self) -> float:
        if self.schedule is not None:
            self.value = min(max(float(next(self.schedule)), 0.0), 1.0)
        return self.value

    def __getstate__(self):
        return {"value": self.value, "schedule": None}

    def __deepcopy__(self, memo):
        return ScheduledRate(self.value)


@dataclass(frozen=True)
class RewriterConfig:
    """Every parameter of spacy-seqkit.Seq2SeqRewriter.v1 but `embed` (see
    architectures.py for what each means). `output_layer` is held under its
    table name (an alias is resolved); `scheduled_sampling` as a ScheduledRate."""

    source: str
    target: str
    copy: bool
    embed_width: int
    hidden_width: int
    depth: int
    dropout: float
    attention: str
    output_layer: str
    n_samples: int
    label_smoothing: float
    scheduled_sampling: Any
    min_count: int
    max_vocab: int

    def __post_init__(self) -> None:
        check_choice("source", self.source, SOURCE_TYPES)
        check_choice("target", self.target, UNIT_TYPES)
        check_choice("attention", self.attention, DECODER_ATTENTIONS)
        object.__setattr__(self, "output_layer", output_layer_name(self.output_layer))
        for name in ("embed_width", "hidden_width", "depth", "n_samples", "min_count"):
            check_positive_int(name, getattr(self, name))
        check_non_negative_int("max_vocab", self.max_vocab)
        check_probability("dropout", self.dropout)
        check_probability("label_smoothing", self.label_smoothing)
        if self.copy and (self.source, self.target) not in COPY_UNITS:
            raise ValueError(
                "'copy' needs source and target units of the same kind: "
                "characters -> characters or tokens -> words"
            )
        layer = OUTPUT_LAYERS[self.output_layer]
        if self.copy and not layer.normalised_in_training:
            raise ValueError(f"'copy' needs normalised probabilities: use output_layer {_able('normalised_in_training')}")
        if self.label_smoothing > 0 and not layer.label_smoothing:
            raise ValueError(
                f"'label_smoothing' needs the full distribution: use output_layer {_able('label_smoothing')} or 0"
            )
        if not isinstance(self.scheduled_sampling, ScheduledRate):
            object.__setattr__(self, "scheduled_sampling", ScheduledRate(self.scheduled_sampling))

    def check_embed(self, embed: Optional[Model]) -> None:
        """A source the model embeds itself takes no `embed`; any other needs one."""
        if not SOURCE_TYPES[self.source].embedded and embed is None:
            raise ValueError(f"'embed' is required when source = \"{self.source}\" (any spaCy embedding model)")
        if SOURCE_TYPES[self.source].embedded and embed is not None:
            raise ValueError(f"'embed' must be null when source = \"{self.source}\"")

    def to_dict(self) -> Dict[str, Any]:
        """Plain values (the scheduled-sampling rate as its current value)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["scheduled_sampling"] = self.scheduled_sampling.value
        return values


def _able(capability: str) -> str:
    """The output layers that declare `capability`, for an error message."""
    return " or ".join(f'"{name}"' for name, layer in OUTPUT_LAYERS.items() if getattr(layer, capability))


@serialize_attr.register(RewriterConfig)
def _serialize_config(_: RewriterConfig, value: RewriterConfig, name: str, model: Model) -> bytes:
    return srsly.msgpack_dumps(value.to_dict())


@deserialize_attr.register(RewriterConfig)
def _deserialize_config(current: RewriterConfig, value: bytes, name: str, model: Model) -> RewriterConfig:
    saved = RewriterConfig(**srsly.msgpack_loads(value))
    return replace(saved, scheduled_sampling=current.scheduled_sampling)

