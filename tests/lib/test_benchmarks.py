"""Benchmark plumbing: plots are optional, and the CLI names the bad option."""

import sys

import pytest
from typer.testing import CliRunner

from spacy_seqkit.benchmarks.report import save_plot, write_results, wrote
from spacy_seqkit.cli import app


def test_benchmarks_run_without_matplotlib(tmp_path, monkeypatch, capsys):
    """Without the `bench` extra, a benchmark still writes its table and JSON
    and says that the plot was skipped."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    calls = []
    png = save_plot(tmp_path, "decoding", lambda ax: calls.append(ax))
    assert png is None and not calls
    assert "decoding.png skipped" in capsys.readouterr().out
    json_path = write_results(tmp_path, "decoding", [{"a": 1}], {})
    assert wrote(json_path, png) == f"Wrote {json_path}"
    assert not (tmp_path / "decoding.png").exists()


def test_benchmarks_plot_with_matplotlib(tmp_path):
    pytest.importorskip("matplotlib")
    png = save_plot(tmp_path, "x", lambda left, right: (left.plot([1, 2]), right.plot([2, 1])), 2)
    assert png == tmp_path / "x.png" and png.is_file()
    assert wrote(tmp_path / "x.json", png) == f"Wrote {tmp_path / 'x.json'} and {png}"


@pytest.mark.parametrize(
    "args,option",
    [
        (["--beam-size", "0"], "--beam-size"),
        (["--n-sentences", "0"], "--n-sentences"),
        (["--batch-size", "0"], "--batch-size"),
        (["--repeats", "0"], "--repeats"),
        (["--vocab-sizes", "1000,1"], "--vocab-sizes"),
        (["--vocab-sizes", "a,b"], "--vocab-sizes"),
    ],
)
def test_benchmark_decoding_names_the_bad_option(args, option):
    result = CliRunner().invoke(app, ["benchmark", "decoding", *args])
    assert result.exit_code == 2
    assert option in result.output
    if option != "--vocab-sizes":
        assert "--vocab-sizes" not in result.output


@pytest.mark.parametrize(
    "args,option",
    [(["--lengths", "8,0"], "--lengths"), (["--lengths", "8,x"], "--lengths"), (["--n-tokens", "0"], "--n-tokens")],
)
def test_benchmark_attention_names_the_bad_option(args, option):
    result = CliRunner().invoke(app, ["benchmark", "attention", *args])
    assert result.exit_code == 2
    assert option in result.output


def test_benchmark_cpu_info_names_the_cpu_and_its_flags():
    from spacy_seqkit.benchmarks.report import cpu_info, describe_machine, environment

    info = cpu_info()
    assert info["cpu"] and info["cpu_count"] >= 1
    assert all(flag.startswith(("avx", "fma", "amx")) for flag in info["cpu_flags"].split())
    line = describe_machine(environment(1))
    assert line.startswith(f"CPU: {info['cpu']}") and "device" not in line
    assert "device: NVIDIA H200" in describe_machine({**environment(1), "device": "NVIDIA H200"})


@pytest.mark.parametrize("command", ["encoders", "attention"])
def test_benchmark_gpu_id_names_the_option_without_that_gpu(command):
    import torch

    gpu_id = str(torch.cuda.device_count())  # one past the last GPU there is
    result = CliRunner().invoke(app, ["benchmark", command, "--gpu-id", gpu_id])
    assert result.exit_code == 2
    assert "--gpu-id" in result.output


@pytest.mark.parametrize(
    "absent,requests,named",
    [("psutil", "10", ["psutil"]), ("uvicorn", "10", ["uvicorn"]), ("uvicorn", "0", [])],
)
def test_benchmark_resolve_names_the_missing_extras_before_it_starts(monkeypatch, tmp_path, absent, requests, named):
    """Without psutil, Dask or the service's modules, `benchmark resolve` says which and the
    extras that bring them, before it generates a sentence (`serve`'s only where it runs it)."""
    import importlib.util

    from spacy_seqkit.travel.benchmarks import resolve

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == absent else real(name, *a))
    started = []
    monkeypatch.setattr(resolve, "run_resolve_benchmark", lambda *a, **k: started.append(True))
    args = ["benchmark", "resolve", "no-model", "--requests", requests, "--out", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    if named:
        assert result.exit_code == 2 and not started
        assert all(name in result.output for name in named) and ".[dask,serve]" in result.output
    else:
        assert result.exit_code == 0 and started
