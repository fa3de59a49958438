"""The rewriters' settings, validated in one place: `UnitsConfig` (units, copy,
output layer, vocabulary: what every rewriter shares), `RewriterConfig` (the
recurrent rewriter) with the scheduled-sampling rate it holds, and
`TransformerRewriterConfig`.

The registered builders (in architectures.py) state the parameters and their
defaults once; these dataclasses have no defaults.
The thinc model keeps the config in its attrs; thinc serialises it with the
functions registered here (the live scheduled-sampling schedule stays the
model's own: a schedule is a generator, and it comes from the config).
"""

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Dict, Iterable, Iterator, Optional, Union, cast

import srsly
from thinc.api import Model
from thinc.model import deserialize_attr, serialize_attr

from ...util import check_bool, check_choice, check_non_negative_int, check_positive_int, check_probability
from ..attention import AttentionEncoderConfig
from ..output_layers import OUTPUT_LAYERS, output_layer_name
from .attention import DECODER_ATTENTIONS
from .encoder import RECURRENT_CELLS
from .units import SOURCE_TYPES, UNIT_TYPES, uses_pieces

# Copy needs the source and target units to be of the same kind.
COPY_UNITS = (("characters", "characters"), ("tokens", "words"), ("pieces", "pieces"))


class ScheduledRate:
    """The scheduled-sampling rate: a float, or a thinc schedule (a generator)
    advanced once per update. Copies and pickles keep the current value as a
    constant, since generators cannot be copied."""

    def __init__(self, schedule: Union[float, Iterable[float]]):
        self.schedule: Optional[Iterator[float]]
        if isinstance(schedule, (int, float)) and not isinstance(schedule, bool):
            check_probability("scheduled_sampling", schedule)
            self.value, self.schedule = float(schedule), None
        elif hasattr(schedule, "__next__"):
            self.value, self.schedule = 0.0, cast(Iterator[float], schedule)
        else:
            raise ValueError(
                f"'scheduled_sampling' must be a probability in [0, 1) or a thinc schedule, got {schedule!r}"
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
class UnitsConfig:
    """The settings every rewriter shares: its units, copy, output layer and
    vocabulary; validated here once for all of them. `output_layer` is held
    under its table name (an alias is resolved)."""

    model_name: ClassVar[str]  # each rewriter's own
    source: str
    target: str
    copy: bool
    output_layer: str
    n_samples: int
    label_smoothing: float
    min_count: int
    max_vocab: int
    n_pieces: int  # sentencepiece vocabulary size, for "pieces" units

    def __post_init__(self) -> None:
        check_choice("source", self.source, SOURCE_TYPES)
        check_choice("target", self.target, UNIT_TYPES)
        object.__setattr__(self, "output_layer", output_layer_name(self.output_layer))
        for name in ("n_samples", "min_count"):
            check_positive_int(name, getattr(self, name))
        check_non_negative_int("max_vocab", self.max_vocab)
        check_probability("label_smoothing", self.label_smoothing)
        if uses_pieces(self.source, self.target):
            check_positive_int("n_pieces", self.n_pieces)
        if self.copy and (self.source, self.target) not in COPY_UNITS:
            raise ValueError(
                "'copy' needs source and target units of the same kind: "
                f"{', '.join(f'{s} -> {t}' for s, t in COPY_UNITS)}"
            )
        layer = OUTPUT_LAYERS[self.output_layer]
        if self.copy and not layer.normalised_in_training:
            raise ValueError(
                f"'copy' needs normalised probabilities: use output_layer {_able('normalised_in_training')}"
            )
        if self.label_smoothing > 0 and not layer.label_smoothing:
            raise ValueError(
                f"'label_smoothing' needs the full distribution: use output_layer {_able('label_smoothing')} or 0"
            )

    def check_embed(self, embed: Optional[Model]) -> None:
        """A source the model embeds itself takes no `embed`; any other needs one."""
        if not SOURCE_TYPES[self.source].embedded and embed is None:
            raise ValueError(f"'embed' is required when source = \"{self.source}\" (any spaCy embedding model)")
        if SOURCE_TYPES[self.source].embedded and embed is not None:
            raise ValueError(f"'embed' must be null when source = \"{self.source}\"")

    def sampling_rate(self, is_train: bool) -> float:
        """The scheduled-sampling rate of this update (none by default)."""
        return 0.0

    def to_dict(self) -> Dict[str, Any]:
        """Plain values."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class RewriterConfig(UnitsConfig):
    """Every parameter of spacy-seqkit.Seq2SeqRewriter.v2 but `embed` (see
    architectures.py for what each means); `scheduled_sampling` is held as a
    ScheduledRate."""

    model_name: ClassVar[str] = "seqkit_seq2seq_rewriter"

    cell: str
    embed_width: int
    hidden_width: int
    depth: int
    dropout: float
    attention: str
    scheduled_sampling: Any

    def __post_init__(self) -> None:
        super().__post_init__()
        check_choice("cell", self.cell, RECURRENT_CELLS)
        check_choice("attention", self.attention, DECODER_ATTENTIONS)
        for name in ("embed_width", "hidden_width", "depth"):
            check_positive_int(name, getattr(self, name))
        check_probability("dropout", self.dropout)
        if not isinstance(self.scheduled_sampling, ScheduledRate):
            object.__setattr__(self, "scheduled_sampling", ScheduledRate(self.scheduled_sampling))

    def sampling_rate(self, is_train: bool) -> float:
        return self.scheduled_sampling.next() if is_train else 0.0

    def to_dict(self) -> Dict[str, Any]:
        """Plain values (the scheduled-sampling rate as its current value)."""
        values = super().to_dict()
        values["scheduled_sampling"] = self.scheduled_sampling.value
        return values


@dataclass(frozen=True)
class TransformerRewriterConfig(UnitsConfig):
    """Every parameter of spacy-seqkit.TransformerRewriter.v1 but `embed`.
    The encoder's settings are those of spacy-seqkit.AttentionEncoder.v1 and
    are validated by its config (`encoder_config`), naming the same arguments."""

    model_name: ClassVar[str] = "seqkit_transformer_rewriter"

    width: int
    encoder_depth: int
    decoder_depth: int
    n_heads: int
    ffn_width: int
    dropout: float
    attention_dropout: float
    attention: str  # the encoder's self-attention mode
    window: int
    positions: str
    max_length: int
    previous_unit: bool
    selective_read: bool

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("encoder_depth", "decoder_depth"):
            check_positive_int(name, getattr(self, name))
        for name in ("previous_unit", "selective_read"):
            check_bool(name, getattr(self, name))
        if self.selective_read and not self.copy:
            raise ValueError(
                "'selective_read' reads the source positions a unit was copied from: it needs 'copy' = true"
            )
        self.encoder_config()

    def encoder_config(self) -> AttentionEncoderConfig:
        """The encoder blocks' config (the AttentionEncoder's, validated there)."""
        return self.block_config(self.attention, self.encoder_depth)

    def decoder_config(self) -> AttentionEncoderConfig:
        """The decoder blocks' config: full (causal) self-attention."""
        return self.block_config("full", self.decoder_depth)

    def block_config(self, attention: str, depth: int) -> AttentionEncoderConfig:
        return AttentionEncoderConfig(
            width=self.width,
            depth=depth,
            n_heads=self.n_heads,
            ffn_width=self.ffn_width,
            attention=attention,
            window=self.window,
            positions=self.positions,
            max_length=self.max_length,
            dropout=self.dropout,
            attention_dropout=self.attention_dropout,
        )


def _able(capability: str) -> str:
    """The output layers that declare `capability`, for an error message."""
    return " or ".join(f'"{name}"' for name, layer in OUTPUT_LAYERS.items() if getattr(layer, capability))


@serialize_attr.register(UnitsConfig)
def _serialize_config(_: UnitsConfig, value: UnitsConfig, name: str, model: Model) -> bytes:
    return srsly.msgpack_dumps(value.to_dict())


@deserialize_attr.register(UnitsConfig)
def _deserialize_config(current: UnitsConfig, value: bytes, name: str, model: Model) -> UnitsConfig:
    """The saved settings; those a model saved before they existed lacks keep
    the current (the builder's) value. The live scheduled-sampling schedule
    stays the current one."""
    saved = type(current)(**{**current.to_dict(), **srsly.msgpack_loads(value)})
    if isinstance(current, RewriterConfig) and isinstance(saved, RewriterConfig):
        saved = replace(saved, scheduled_sampling=current.scheduled_sampling)
    return saved
