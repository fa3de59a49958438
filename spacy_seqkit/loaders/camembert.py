"""A local CamemBERT directory for spacy-curated-transformers: check it, copy its
hyper-parameters into a config, and load its weights and sentencepiece model
(`spacy-seqkit.CamembertEncoderLoader.v1`, `spacy-seqkit.CamembertPiecerLoader.v1`).

The directory has the layout of a Hugging Face snapshot of `camembert-base`:
`config.json`, `model.safetensors` or `pytorch_model.bin`, and
`sentencepiece.bpe.model`. Nothing here touches the network.
"""

import builtins
import json
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Union

PATH_VARIABLE = "paths.transformer"
CONFIG_FILE = "config.json"
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
SENTENCEPIECE_FILE = "sentencepiece.bpe.model"
TRANSFORMER_ARCHITECTURE = "spacy-curated-transformers.CamembertTransformer.v1"
# CamemBERT's fairseq dictionary puts 4 ids (<s>NOTUSED, <pad>, </s>NOTUSED,
# <unk>) before the sentencepiece ids and <mask> after them; the piece
# encoder's CamemBERT adapter relies on that offset.
FAIRSEQ_OFFSET = 4

# config.json key -> argument of CamembertTransformer.v1.
HYPER_PARAMETERS = {
    "vocab_size": "vocab_size",
    "hidden_size": "hidden_width",
    "intermediate_size": "intermediate_width",
    "num_hidden_layers": "num_hidden_layers",
    "num_attention_heads": "num_attention_heads",
    "max_position_embeddings": "max_position_embeddings",
    "type_vocab_size": "type_vocab_size",
    "pad_token_id": "padding_idx",
    "layer_norm_eps": "layer_norm_eps",
    "hidden_act": "hidden_act",
    "hidden_dropout_prob": "hidden_dropout_prob",
    "attention_probs_dropout_prob": "attention_probs_dropout_prob",
}
REQUIRED_KEYS = (
    "vocab_size",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "max_position_embeddings",
)
SUPPORTED_MODEL_TYPES = ("camembert", "roberta")


class TransformerDirectoryError(ValueError):
    """The local transformer directory is missing, incomplete or unreadable."""


class TransformerFiles(NamedTuple):
    directory: Path
    config: Dict[str, Any]
    weights: Path
    sentencepiece: Path


def _fail(directory: Any, variable: str, problem: str) -> TransformerDirectoryError:
    return TransformerDirectoryError(
        f"{variable} = {str(directory)!r}: {problem}. Point {variable} at a local copy of "
        f"camembert-base (a folder with {CONFIG_FILE}, {' or '.join(WEIGHT_FILES)} and "
        f"{SENTENCEPIECE_FILE}); `python -m spacy_seqkit make-tiny-transformer DIR` makes a "
        "small random one to try the workflow without weights."
    )


def check_transformer_dir(
    directory: Union[str, Path, None], variable: str = PATH_VARIABLE, read_weights: bool = False
) -> TransformerFiles:
    """Check that `directory` holds a usable CamemBERT and return its files.

    Raises TransformerDirectoryError naming `variable` and the missing or bad
    file. `read_weights` also opens the weights and checks their shapes
    against config.json (slower: it reads the whole checkpoint).
    """
    if directory is None or str(directory).strip() in ("", "None", "null"):
        raise _fail(directory, variable, "no directory given")
    path = Path(directory)
    if not path.is_dir():
        raise _fail(directory, variable, "no such directory")
    config_path = path / CONFIG_FILE
    if not config_path.is_file():
        raise _fail(directory, variable, f"{CONFIG_FILE} is missing")
    try:
        config = json.loads(config_path.read_text(encoding="utf8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise _fail(directory, variable, f"{CONFIG_FILE} is not valid JSON ({e})") from e
    if not isinstance(config, dict):
        raise _fail(directory, variable, f"{CONFIG_FILE} is not a JSON object")
    missing = [k for k in REQUIRED_KEYS if not isinstance(config.get(k), int) or isinstance(config.get(k), bool)]
    if missing:
        raise _fail(directory, variable, f"{CONFIG_FILE} lacks integer values for {', '.join(missing)}")
    model_type = config.get("model_type", "camembert")
    if model_type not in SUPPORTED_MODEL_TYPES:
        expected = " or ".join(repr(t) for t in SUPPORTED_MODEL_TYPES)
        raise _fail(directory, variable, f"{CONFIG_FILE} has model_type {model_type!r}, expected {expected}")
    weights = next((path / name for name in WEIGHT_FILES if (path / name).is_file()), None)
    if weights is None:
        raise _fail(directory, variable, f"no weights: neither {' nor '.join(WEIGHT_FILES)} is there")
    spm_path = path / SENTENCEPIECE_FILE
    if not spm_path.is_file():
        raise _fail(directory, variable, f"{SENTENCEPIECE_FILE} is missing")
    n_pieces = _count_pieces(spm_path, directory, variable)
    if n_pieces + FAIRSEQ_OFFSET > config["vocab_size"]:
        raise _fail(
            directory,
            variable,
            f"{SENTENCEPIECE_FILE} has {n_pieces} pieces, more than vocab_size {config['vocab_size']} "
            f"of {CONFIG_FILE} allows ({config['vocab_size'] - FAIRSEQ_OFFSET}): not CamemBERT's tokenizer",
        )
    files = TransformerFiles(path, config, weights, spm_path)
    if read_weights:
        _check_checkpoint(files, variable)
    return files


def _count_pieces(spm_path: Path, directory: Any, variable: str) -> int:
    import sentencepiece

    try:
        return sentencepiece.SentencePieceProcessor(model_file=str(spm_path)).get_piece_size()
    except (OSError, RuntimeError) as e:
        raise _fail(directory, variable, f"{SENTENCEPIECE_FILE} is not a sentencepiece model ({e})") from e


def load_checkpoint(path: Union[str, Path]) -> Dict[str, Any]:
    """The state dict of a `.safetensors` or PyTorch `.bin` file, on CPU."""
    import torch

    path = Path(path)
    if path.suffix == ".safetensors":
        from safetensors.torch import load_file

        return load_file(str(path), device="cpu")
    # weights_only: a checkpoint is data, never code to unpickle.
    return torch.load(str(path), map_location="cpu", weights_only=True)


def _read_checkpoint(files: TransformerFiles, variable: str) -> Dict[str, Any]:
    try:
        return load_checkpoint(files.weights)
    except Exception as e:  # torch and safetensors raise many types for a bad file
        raise _fail(files.directory, variable, f"{files.weights.name} cannot be read ({type(e).__name__}: {e})") from e


def _check_checkpoint(files: TransformerFiles, variable: str) -> None:
    params = _read_checkpoint(files, variable)
    key = next((k for k in params if k.endswith("embeddings.word_embeddings.weight")), None)
    if key is None:
        raise _fail(
            files.directory,
            variable,
            f"{files.weights.name} has no embeddings.word_embeddings.weight: not a RoBERTa-style checkpoint",
        )
    expected = (files.config["vocab_size"], files.config["hidden_size"])
    if tuple(params[key].shape) != expected:
        raise _fail(
            files.directory,
            variable,
            f"{files.weights.name} has word embeddings of shape {tuple(params[key].shape)}, "
            f"but {CONFIG_FILE} says (vocab_size, hidden_size) = {expected}",
        )
    n_layers = files.config["num_hidden_layers"]
    if not any(f"encoder.layer.{n_layers - 1}." in k for k in params) or any(
        f"encoder.layer.{n_layers}." in k for k in params
    ):
        raise _fail(
            files.directory, variable, f"{files.weights.name} does not have num_hidden_layers = {n_layers} layers"
        )


def hyper_parameters(config: Dict[str, Any]) -> Dict[str, Any]:
    """The CamembertTransformer.v1 arguments given by a config.json."""
    args = {arg: config[key] for key, arg in HYPER_PARAMETERS.items() if key in config}
    # Positions start after the padding id, so that many fewer pieces fit.
    args["model_max_length"] = config["max_position_embeddings"] - config.get("pad_token_id", 1) - 1
    return args


def fill_config(config, directory: Union[str, Path], variable: str = PATH_VARIABLE):
    """Copy `config` (a thinc Config, not interpolated) with `paths.transformer`
    set to `directory` and the hyper-parameters of its config.json in every
    CamembertTransformer.v1 block."""
    from thinc.api import Config

    files = check_transformer_dir(directory, variable)
    filled = Config(config).copy()
    filled.setdefault("paths", {})["transformer"] = str(directory)
    args = hyper_parameters(files.config)
    n_blocks = 0
    for component in filled.get("components", {}).values():
        model = component.get("model", {})
        if model.get("@architectures") == TRANSFORMER_ARCHITECTURE:
            model.update(args)
            n_blocks += 1
    if n_blocks == 0:
        raise ValueError(f"no component of the config uses {TRANSFORMER_ARCHITECTURE}")
    return filled


def _check_hyper_parameters(encoder, config: Dict[str, Any], directory: Path) -> None:
    # Head count leaves no trace in parameter shapes, so compare it directly.
    layers = getattr(getattr(encoder, "curated_encoder", None), "layers", None)
    if layers is not None and len(layers) > 0:
        n_heads = layers[0].mha.num_heads
        if n_heads != config["num_attention_heads"]:
            raise _mismatch(
                directory,
                f"num_attention_heads is {n_heads} in the config, {config['num_attention_heads']} in {CONFIG_FILE}",
            )


def _mismatch(directory: Path, problem: str) -> ValueError:
    return ValueError(
        f"The transformer in the config does not match {directory}: {problem}. Copy the "
        f"directory's hyper-parameters into the config with `python -m spacy_seqkit "
        f"check-transformer {directory} --config CONFIG --output FILLED_CONFIG` and train "
        "with FILLED_CONFIG."
    )


def _loss_to_float(value: Any) -> float:
    if getattr(value, "ndim", 0) > 0 and getattr(value, "size", 0) == 1:
        return value.item()
    return builtins.float(value)


def patch_transformer_loss() -> None:
    """Let spacy-curated-transformers 0.3.1 train under NumPy >= 2.4.

    Its `CuratedTransformer` reports the loss with `float()` of a
    one-element array, which NumPy 2.4 turned from a deprecation warning into
    a TypeError, so `spacy train` stops at the first update. The `float` of
    that one module (and of no other) now accepts one-element arrays.
    """
    from spacy_curated_transformers.pipeline import transformer as pipe_module

    pipe_module.float = _loss_to_float


def make_camembert_encoder_loader(path: Optional[Union[str, Path]]) -> Callable:
    """Initialize callback (`encoder_loader`) loading the weights of a local
    CamemBERT directory into a CamembertTransformer.v1, checking first that
    the config's hyper-parameters match the directory's config.json.

    path (Path): The directory, e.g. `${paths.transformer}`.
    """
    if path is None:
        raise ValueError(
            f"'path' of the encoder loader is null: set {PATH_VARIABLE} to a local camembert-base directory"
        )

    def load(model, X=None, Y=None):
        from curated_transformers.models.hf_util import convert_pretrained_model_for_encoder
        from thinc.api import get_torch_default_device

        # Runs in nlp.initialize, before the first update of any training run.
        patch_transformer_loss()
        files = check_transformer_dir(path)
        # The loaders of spacy-curated-transformers reach the torch module the same way.
        encoder = model.shims[0]._model
        _check_hyper_parameters(encoder, files.config, files.directory)
        try:
            params = convert_pretrained_model_for_encoder(encoder, _read_checkpoint(files, PATH_VARIABLE))
        except KeyError as e:
            raise _fail(files.directory, PATH_VARIABLE, f"{files.weights.name} lacks the parameter {e}") from e
        own = encoder.state_dict()
        missing = sorted(set(own) - set(params))
        if missing:
            raise _mismatch(files.directory, f"{files.weights.name} has no {missing[0]} (num_hidden_layers?)")
        for name, value in params.items():
            if name not in own:
                raise _mismatch(
                    files.directory,
                    f"{files.weights.name} has {name}, which the config's model lacks (num_hidden_layers?)",
                )
            if tuple(value.shape) != tuple(own[name].shape):
                raise _mismatch(
                    files.directory,
                    f"{name} is {tuple(own[name].shape)} in the config's model and {tuple(value.shape)} "
                    "in the checkpoint (vocab_size, hidden_width, intermediate_width or max_position_embeddings?)",
                )
        encoder.load_state_dict(params)
        encoder.to(get_torch_default_device())
        return model

    return load


def make_camembert_piecer_loader(path: Optional[Union[str, Path]]) -> Callable:
    """Initialize callback (`piecer_loader`) loading `sentencepiece.bpe.model`
    of a local CamemBERT directory into CamembertSentencepieceEncoder.v1.

    path (Path): The directory, e.g. `${paths.transformer}`.
    """
    if path is None:
        raise ValueError(
            f"'path' of the piece encoder loader is null: set {PATH_VARIABLE} to a local camembert-base directory"
        )

    def load(model, X=None, Y=None):
        from spacy_curated_transformers.tokenization import build_sentencepiece_encoder_loader_v1

        files = check_transformer_dir(path)
        # The CamemBERT piece encoder is chain(sentencepiece, adapter): the
        # processor belongs to the inner encoder, which the package's own
        # SentencepieceLoader.v1 would miss.
        build_sentencepiece_encoder_loader_v1(path=files.sentencepiece)(model.get_ref("encoder"), X, Y)
        return model

    return load


def describe(files: TransformerFiles) -> List[str]:
    """One line per hyper-parameter, for the CLI."""
    args = hyper_parameters(files.config)
    return [f"{name} = {value}" for name, value in args.items()]
