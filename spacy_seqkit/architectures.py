"""Registered architectures: small typed functions that compose our layers.

They are registered through entry points in setup.cfg (group
`spacy_architectures`), so a spaCy config can name them without importing
this module. Each states its parameters and their defaults once, here; the
layer receives them as one config dataclass, validated in one place.
"""

from typing import List, Optional, Union

from thinc.api import Model
from thinc.types import Floats2d, Generator

from .layers.attention import AttentionEncoderConfig
from .layers.attention_encoder import AttentionEncoder
from .layers.window import MaxoutWindowConfig, MaxoutWindowEncoder
from .util import check_choice, check_non_negative_int, check_positive_int


def build_maxout_window_encoder_v1(
    width: int,
    depth: int,
    window_size: int,
    maxout_pieces: int,
    dilation: Union[int, List[int], str] = 1,
    dropout: float = 0.0,
    inference_dtype: str = "float32",
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
    inference_dtype (str): The dtype of the layers' matrix products when predicting:
        "float32", "bfloat16" (inputs, weights and results rounded to bfloat16, sums in
        float32: about 4x faster on a CPU with AVX512-BF16 or AMX), or "auto" (bfloat16 on
        such a CPU, float32 elsewhere and on a GPU). Training is always float32.
    """
    return MaxoutWindowEncoder(
        MaxoutWindowConfig(
            width=width,
            depth=depth,
            window_size=window_size,
            maxout_pieces=maxout_pieces,
            dilation=dilation,
            dropout=dropout,
            inference_dtype=inference_dtype,
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


def build_attention_encoder_v2(
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
    front_depth: int = 2,
    front_window: int = 1,
    front_pieces: int = 3,
) -> Model[List[Floats2d], List[Floats2d]]:
    """AttentionEncoder.v1 behind a convolutional front, as Conformer-style
    encoders have: `front_depth` maxout window layers (dilations 1, 2, 4, ...)
    see each token's neighbourhood first, then `depth` self-attention blocks
    relate the tokens across the doc. On short requests the front gives the
    attention blocks the local word shapes they learn slowly on their own.

    front_depth (int): Maxout window layers before the attention blocks (0: none,
        which is AttentionEncoder.v1). Recommended values are 1 to 3.
    front_window (int): Neighbours concatenated to each side in the front.
    front_pieces (int): Maxout pieces in the front.
    The other parameters are those of spacy-seqkit.AttentionEncoder.v1.
    """
    from thinc.api import chain

    check_non_negative_int("front_depth", front_depth)
    check_non_negative_int("front_window", front_window)
    check_positive_int("front_pieces", front_pieces)
    attend = build_attention_encoder_v1(
        width,
        depth,
        n_heads,
        ffn_width,
        attention=attention,
        window=window,
        positions=positions,
        max_length=max_length,
        dropout=dropout,
        attention_dropout=attention_dropout,
    )
    if front_depth == 0:
        return attend
    front = build_maxout_window_encoder_v1(
        width, front_depth, front_window, front_pieces, dilation="exponential", dropout=0.0
    )
    return chain(front, attend)


def build_seq2seq_rewriter_v2(
    source: str = "characters",
    target: str = "characters",
    embed: Optional[Model] = None,
    copy: bool = False,
    cell: str = "lstm",
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
    n_pieces: int = 1000,
) -> Model:
    """Rewrite a doc into another text: bidirectional LSTM or GRU encoder,
    attentional LSTM or GRU decoder, full softmax / negative sampling /
    hierarchical softmax, optional copy mechanism.

    source (str): "characters" of the text, its BPE "pieces", or "tokens"
        embedded by `embed`.
    target (str): "characters", whitespace-separated "words", or BPE "pieces".
    embed (Optional[Model]): Any spaCy embedding model (List[Doc] -> List[Floats2d]),
        required for source "tokens", e.g. spacy.Tok2Vec.v2 or a Tok2VecListener.
    copy (bool): Pointer-generator copy of source units (characters -> characters,
        tokens -> words or pieces -> pieces), so names never seen in training
        can be rewritten.
    cell (str): The recurrent cell of encoder and decoder: "lstm" or "gru".
    embed_width (int): Width of unit embeddings. Recommended values are 32 to 128.
    hidden_width (int): Width of the recurrent layers and attention. Recommended
        values are 64 to 512.
    depth (int): Recurrent layers in encoder and decoder. Recommended values are 1 or 2.
    dropout (float): Dropout on embeddings, between recurrent layers and on decoder outputs.
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
    n_pieces (int): Size of the sentencepiece BPE model learned at initialize
        from the training sources and targets, for "pieces" units (fewer when
        the texts have fewer). Recommended values are 500 to 4000.
    """
    from .layers.seq2seq import RewriterConfig, Seq2SeqRewriter

    config = RewriterConfig(
        source=source,
        target=target,
        copy=copy,
        output_layer=output_layer,
        n_samples=n_samples,
        label_smoothing=label_smoothing,
        min_count=min_count,
        max_vocab=max_vocab,
        n_pieces=n_pieces,
        cell=cell,
        embed_width=embed_width,
        hidden_width=hidden_width,
        depth=depth,
        dropout=dropout,
        attention=attention,
        scheduled_sampling=scheduled_sampling,
    )
    return Seq2SeqRewriter(config, embed=embed)


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
    copy mechanism. Seq2SeqRewriter.v2 with cell = "lstm", without "pieces"
    units; see v2 for the parameters.

    source (str): "characters" of the text, or "tokens" embedded by `embed`.
    target (str): "characters", or whitespace-separated "words".
    """
    check_choice("source", source, ("characters", "tokens"))
    check_choice("target", target, ("characters", "words"))
    return build_seq2seq_rewriter_v2(
        source=source,
        target=target,
        embed=embed,
        copy=copy,
        cell="lstm",
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


def build_transformer_rewriter_v1(
    source: str = "characters",
    target: str = "characters",
    embed: Optional[Model] = None,
    copy: bool = False,
    width: int = 128,
    encoder_depth: int = 3,
    decoder_depth: int = 2,
    n_heads: int = 4,
    ffn_width: int = 512,
    dropout: float = 0.1,
    attention_dropout: float = 0.0,
    attention: str = "full",
    window: int = 8,
    positions: str = "sinusoidal",
    max_length: int = 512,
    previous_unit: bool = True,
    selective_read: bool = False,
    output_layer: str = "softmax",
    n_samples: int = 64,
    label_smoothing: float = 0.1,
    min_count: int = 1,
    max_vocab: int = 0,
    n_pieces: int = 1000,
) -> Model:
    """Rewrite a doc into another text with a Transformer encoder-decoder:
    pre-LN self-attention encoder (the blocks of spacy-seqkit.AttentionEncoder.v1),
    decoder of causal self-attention, cross-attention and feed-forward blocks,
    tied target embedding and output vectors, optional copy mechanism through
    the cross-attention weights; incremental decoding with a key/value cache.

    source (str): "characters" of the text, its BPE "pieces", or "tokens"
        embedded by `embed` (projected to `width`).
    target (str): "characters", whitespace-separated "words", or BPE "pieces".
    embed (Optional[Model]): Any spaCy embedding model, required for source "tokens".
    copy (bool): Pointer-generator copy of source units (characters -> characters,
        tokens -> words or pieces -> pieces); the pointer is the last decoder
        layer's cross-attention, averaged over heads.
    width (int): Model width; divisible by n_heads. Recommended values are 64 to 256.
    encoder_depth (int): Encoder blocks. Recommended values are 2 to 6.
    decoder_depth (int): Decoder blocks. Recommended values are 1 to 6.
    n_heads (int): Attention heads. Recommended values are 4 or 8.
    ffn_width (int): Hidden width of the feed-forward layers. Recommended value
        is 2 to 4 times width.
    dropout (float): Dropout on embeddings and on each sublayer's output.
    attention_dropout (float): Dropout on attention weights.
    attention (str): The encoder's self-attention: "full", "local" (±window) or
        "linear". The decoder's is always full and causal.
    window (int): Neighbours to each side for local attention.
    positions (str): "sinusoidal" (any length), "learned" (up to max_length
        source units and target units) or "none".
    max_length (int): Longest source and target for learned positions.
    previous_unit (bool): Each source position's input also carries the unit
        before it, so that the decoder finds the next unit to copy in one step
        of cross-attention (much faster to learn on small data).
    selective_read (bool): CopyNet's selective read (Gu et al. 2016), with copy:
        the decoder's input for a unit it has written also carries the encoder
        states of the source positions holding that unit, so that a copied word
        outside the target vocabulary is not fed back as a bare unknown symbol
        (the decoder then knows which word it copied, and where). For word units.
    output_layer (str): "softmax" (its vectors tied to the target embedding),
        "negative_sampling" (tied too) or "hierarchical".
    n_samples (int): Noise units per target unit for "negative_sampling".
    label_smoothing (float): Label smoothing of the loss (softmax only); the
        Transformer paper used 0.1.
    min_count (int): Target units seen fewer times become the unknown symbol.
    max_vocab (int): Largest target vocabulary, specials included (0: no limit).
    n_pieces (int): Size of the sentencepiece BPE model, for "pieces" units.
    """
    from .layers.seq2seq import Seq2SeqRewriter, TransformerRewriterConfig

    config = TransformerRewriterConfig(
        source=source,
        target=target,
        copy=copy,
        output_layer=output_layer,
        n_samples=n_samples,
        label_smoothing=label_smoothing,
        min_count=min_count,
        max_vocab=max_vocab,
        n_pieces=n_pieces,
        width=width,
        encoder_depth=encoder_depth,
        decoder_depth=decoder_depth,
        n_heads=n_heads,
        ffn_width=ffn_width,
        dropout=dropout,
        attention_dropout=attention_dropout,
        attention=attention,
        window=window,
        positions=positions,
        max_length=max_length,
        previous_unit=previous_unit,
        selective_read=selective_read,
    )
    return Seq2SeqRewriter(config, embed=embed)
