"""Registered architectures: small typed functions that compose our layers.

They are registered through entry points in setup.cfg (group
`spacy_architectures`), so a spaCy config can name them without importing
this module. Each states its parameters and their defaults once, here; the
layer receives them as one config dataclass, validated in one place.
"""
from typing import List, Optional, Union

from thinc.api import Model
from thinc.types import Floats2d, Generator

from .layers.attention_encoder import AttentionEncoder, AttentionEncoderConfig
from .layers.window import MaxoutWindowConfig, MaxoutWindowEncoder


def build_maxout_window_encoder_v1(
    width: int,
    depth: int,
    window_size: int,
    maxout_pieces: int,
    dilation: Union[int, List[int], str] = 1,
    dropout: float = 0.0,
) -> Model[List[Floats2d], List[Floats2d]]:
    """Encode context with windowed maxout layers, layer norm and residuals:
    spaCy's MaxoutWindowEncoder, torch-backed, with an optional dilation schedule.

    width (int): The input and output width; must equal the embedding width.
        Recommended values are between 64 and 300.
    depth (int): The number of layers. Recommended value is 4.
    window_size (int): Neighbours concatenated to each side. Recommended value is 1.
    maxout_pieces (int): Maxout pieces. Recommended values are 2 or 3.
    dilation (Union[int, List[int], str]): Spacing of the window per layer: 1 for
        spaCy's behaviour, a list with one value per layer, or "exponential"
        (1, 2, 4, ...) so that 4 layers reach ±15 tokens instead of ±4.
    dropout (float): Dropout on each layer's output before the residual sum.
    """
    return MaxoutWindowEncoder(
        MaxoutWindowConfig(
            width=width,
            depth=depth,
            window_size=window_size,
            maxout_pieces=maxout_pieces,
            dilation=dilation,
            dropout=dropout,
        )
    )


def build_attention_encoder_v1(
    width: int,
    depth: int,
    n_heads: int,
    ffn_width: int,
    attention: str = "full",
    window: int = 8,
    positions: str = "sinusoidal",
    max_length: int = 512,
    dropout: float = 0.1,
    attention_dropout: float = 0.0,
) -> Model[List[Floats2d], List[Floats2d]]:
    """Encode context with a pre-LayerNorm transformer encoder (multi-head
    self-attention, position-wise FFN, residuals, padding masks).

    width (int): The input and output width; must equal the embedding width and
        be divisible by n_heads. Recommended values are between 64 and 256.
    depth (int): The number of encoder blocks. Recommended values are 2 to 4.
    n_heads (int): Attention heads. Recommended values are 4 or 8.
    ffn_width (int): Hidden width of the position-wise feed-forward layer.
        Recommended value is 2 to 4 times width.
    attention (str): "full" (every token sees the whole doc, O(n²)), "local"
        (±window neighbours, O(n·window)) or "linear" (elu+1 kernel, O(n)).
    window (int): Neighbours to each side for local attention.
        Recommended values are 4 to 16.
    positions (str): "sinusoidal" (any length), "learned" (up to max_length)
        or "none".
    max_length (int): Longest doc for learned positions.
    dropout (float): Dropout on the embeddings and on each sublayer's output.
    attention_dropout (float): Dropout on attention weights (full and local).
    """
    return AttentionEncoder(
        AttentionEncoderConfig(
            width=width,
            depth=depth,
            n_heads=n_heads,
            ffn_width=ffn_width,
            attention=attention,
            window=window,
            positions=positions,
            max_length=max_length,
            dropout=dropout,
            attention_dropout=attention_dropout,
        )
    )


def build_seq2seq_rewriter_v1(
    source: str = "characters",
    target: str = "characters",
    embed: Optional[Model] = None,
    copy: bool = False,
    embed_width: int = 64,
    hidden_width: int = 128,
    depth: int = 1,
    dropout: float = 0.1,
    attention: str = "general",
    output_layer: str = "softmax",
    n_samples: int = 64,
    label_smoothing: float = 0.0,
    scheduled_sampling: Union[float, Generator] = 0.0,
    min_count: int = 1,
    max_vocab: int = 0,
) -> Model:
    """Rewrite a doc into another text: bi-LSTM encoder, attentional LSTM
    decoder, full softmax / negative sampling / hierarchical softmax, optional
    copy mechanism.

    source (str): "characters" of the text, or "tokens" embedded by `embed`.
    target (str): "characters", or whitespace-separated "words".
    embed (Optional[Model]): Any spaCy embedding model (List[Doc] -> List[Floats2d]),
        required for source "tokens", e.g. spacy.Tok2Vec.v2 or a Tok2VecListener.
    copy (bool): Pointer-generator copy of source units (characters -> characters or
        tokens -> words), so names never seen in training can be rewritten.
    embed_width (int): Width of unit embeddings. Recommended values are 32 to 128.
    hidden_width (int): Width of the LSTMs and attention. Recommended values are 64 to 512.
    depth (int): LSTM layers in encoder and decoder. Recommended values are 1 or 2.
    dropout (float): Dropout on embeddings, between LSTM layers and on decoder outputs.
    attention (str): "dot", "general", "concat" (Luong, with input feeding) or
        "bahdanau" (additive, attends with the previous decoder state).
    output_layer (str): "softmax"; "negative_sampling" (`n_samples` noise units
        from unigram^0.75 in training, full softmax at inference; "sampled" is
        accepted as its older name); or "hierarchical" (Huffman-tree softmax).
    n_samples (int): Noise units per target unit for "negative_sampling".
        Recommended 5 to 64.
    label_smoothing (float): Label smoothing of the loss (softmax only). The
        seqkit_rewriter component's default is 0.1.
    scheduled_sampling (Union[float, Generator]): Probability of feeding the model's own
        previous prediction instead of the gold unit; a float or a thinc schedule.
    min_count (int): Target units seen fewer times become the unknown symbol.
    max_vocab (int): Largest target vocabulary, specials included (0: no limit).
    """
    from .layers.seq2seq import RewriterConfig, Seq2SeqRewriter

    config = RewriterConfig(
        source=source,
        target=target,
        copy=copy,
        embed_width=embed_width,
        hidden_width=hidden_width,
        depth=depth,
        dropout=dropout,
        attention=attention,
        output_layer=output_layer,
        n_samples=n_samples,
        label_smoothing=label_smoothing,
        scheduled_sampling=scheduled_sampling,
        min_count=min_count,
        max_vocab=max_vocab,
    )
    return Seq2SeqRewriter(config, embed=embed)
