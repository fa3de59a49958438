"""Shared plumbing of the benchmarks: thread pinning, models built from config
strings, timing, table, JSON, PNG (the PNG only where matplotlib, of the
`bench` extra, is installed)."""

import json
import os
import platform
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, cast

if TYPE_CHECKING:
    from spacy.language import Language
    from thinc.api import Model

    from ..components.rewriter import Rewriter

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def pin_threads(n_threads: int) -> None:
    """Give every compute library the same thread count. Call before the
    first import of numpy / torch where possible; torch is also set directly."""
    for var in THREAD_VARS:
        os.environ[var] = str(n_threads)
    import torch

    torch.set_num_threads(n_threads)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(n_threads)
    except ImportError:
        pass


def environment(n_threads: int, device: str = "cpu") -> Dict[str, Any]:
    import spacy
    import thinc
    import torch

    return {
        "threads": n_threads,
        "torch_threads": torch.get_num_threads(),
        **cpu_info(),
        "python": platform.python_version(),
        "spacy": spacy.__version__,
        "thinc": thinc.__version__,
        "torch": torch.__version__,
        "device": device,
    }


# The CPU flags that decide which kernels run (vector widths, bf16, AMX).
CPU_FLAGS = ("avx", "avx2", "fma", "avx512", "amx", "avx_vnni")


def cpu_info() -> Dict[str, Any]:
    """The CPU's model, its vector and matrix flags (/proc/cpuinfo on Linux) and core count."""
    model, flags = platform.processor() or platform.machine(), []
    try:
        with open("/proc/cpuinfo", encoding="utf8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model in ("", platform.machine(), platform.processor()):
                    model = value.strip()
                elif key.strip() == "flags":
                    flags = [flag for flag in value.split() if flag.startswith(CPU_FLAGS)]
                    break
    except OSError:
        pass
    return {"cpu": model, "cpu_flags": " ".join(flags), "cpu_count": os.cpu_count()}


def describe_machine(env: Dict[str, Any]) -> str:
    """One line: the CPU, its flags and cores, and the device (a GPU's name) when not the CPU."""
    line = f"CPU: {env['cpu']} ({env['cpu_count']} cores; {env['cpu_flags'] or 'no AVX flags'})"
    if env.get("device", "cpu") != "cpu":
        line += f"; device: {env['device']}"
    return line


def use_device(gpu_id: int) -> str:
    """Put thinc (so spaCy's layers, and ours through their torch shims) on GPU `gpu_id`,
    its arrays allocated by torch's allocator, or leave everything on the CPU (-1).
    Returns the device's name ("cpu", or the GPU's as torch gives it)."""
    if gpu_id < 0:
        return "cpu"
    import torch
    from thinc.api import require_gpu, set_gpu_allocator

    if not torch.cuda.is_available() or gpu_id >= torch.cuda.device_count():
        raise ValueError(f"'gpu_id': no CUDA device {gpu_id} here ({torch.cuda.device_count()} visible)")
    set_gpu_allocator("pytorch")
    require_gpu(gpu_id)
    return torch.cuda.get_device_name(gpu_id)


def synchronize(gpu_id: int) -> None:
    """Wait for the GPU's queued work (a timed call ends when its results exist)."""
    if gpu_id >= 0:
        import torch

        torch.cuda.synchronize()


def config_lines(block: str) -> str:
    """An indented block of config settings (`@architectures = ...` and its
    arguments, as the benchmarks write them in Python strings) as config lines."""
    return "\n".join(line.strip() for line in block.splitlines())


def build_model(block: str, template: str = "[model]\n{block}", **values: Any):
    """The `[model]` of `template` with `block` (and `values`) filled in,
    resolved from the config string as `spacy train` resolves it."""
    from spacy.util import registry
    from thinc.api import Config

    text = template.format(block=config_lines(block), **values)
    return registry.resolve(Config().from_str(text))["model"]


def rewriter_model(nlp: "Language") -> "Model":
    """The thinc model of the pipeline's `seqkit_rewriter`."""
    return cast("Rewriter", nlp.get_pipe("seqkit_rewriter")).model


def best_time(fn: Callable[[], Any], repeats: int = 3, warmup: int = 1) -> float:
    """Best wall time of `repeats` calls after `warmup` calls, in seconds.
    The best (not the mean) is the least disturbed by other processes."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(setup: Callable[..., Callable[[], Any]], *args: Any, threads: int = 1, gpu_id: int = -1) -> float:
    """Peak memory, in MiB, that one call of `setup(*args)()` adds.

    On a GPU (gpu_id >= 0, where use_device put thinc), the CUDA allocator's peak
    (thinc's arrays go through torch's allocator too). On CPU, resident memory
    sampled while the call runs, in a fresh spawned process: torch's CPU allocator
    is invisible to tracemalloc and a process reuses freed pages, so in-process
    numbers would favour whichever library ran second. `setup` must be a
    module-level function (it is pickled) that builds the data and returns the call.
    """
    if gpu_id >= 0:
        import torch

        run = setup(*args)
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        run()
        torch.cuda.synchronize()
        return (torch.cuda.max_memory_allocated() - base) / 2**20
    import multiprocessing

    # glibc keeps freed heap pages, so a call's big buffers can hide in pages an
    # earlier call left behind. With a fixed mmap threshold every buffer over
    # 64 KiB is mapped and unmapped, and resident size follows live arrays.
    # The spawned child reads the variable when it starts.
    previous = os.environ.get("MALLOC_MMAP_THRESHOLD_")
    os.environ["MALLOC_MMAP_THRESHOLD_"] = str(64 * 1024)
    try:
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            return pool.apply(_child_peak_rss, (setup, args, threads))
    finally:
        if previous is None:
            del os.environ["MALLOC_MMAP_THRESHOLD_"]
        else:
            os.environ["MALLOC_MMAP_THRESHOLD_"] = previous


def _current_rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _child_peak_rss(setup, args, threads: int) -> float:
    import gc
    import threading

    pin_threads(threads)
    run = setup(*args)
    gc.collect()
    base = _current_rss()
    peak = [base]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _current_rss())
            done.wait(0.0005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    run()
    done.set()
    sampler.join()
    peak[0] = max(peak[0], _current_rss())
    return (peak[0] - base) / 2**20


def print_table(title: str, rows: List[Dict[str, Any]], columns: Sequence[str]) -> None:
    from wasabi import msg

    def fmt(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            if abs(value) < 1:
                return f"{value:.3f}"
            return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.0f}"
        return str(value)

    msg.divider(title)
    data = [[fmt(row.get(col, "")) for col in columns] for row in rows]
    widths = [max([len(str(c))] + [len(row[i]) for row in data]) for i, c in enumerate(columns)]
    msg.table(
        data,
        header=list(columns),
        divider=True,
        widths=widths,
        aligns=["l"] + ["r"] * (len(columns) - 1),
    )


def write_results(
    out_dir: Path,
    name: str,
    rows: List[Dict[str, Any]],
    env: Dict[str, Any],
    extra: Optional[Dict[str, Any]] = None,
) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.json"
    data = {"benchmark": name, "environment": env, "rows": rows, **(extra or {})}
    path.write_text(json.dumps(data, indent=2), encoding="utf8")
    return path


def save_plot(
    out_dir: Path,
    name: str,
    draw: Callable[..., None],
    n_axes: int = 1,
    width: float = 6.0,
    height: float = 4.0,
) -> Optional[Path]:
    """Call `draw(*axes)` on a figure of `n_axes` side by side and write it to
    <out_dir>/<name>.png. Plotting is optional (the `bench` extra): without
    matplotlib, say that the plot was skipped and return None."""
    from wasabi import msg

    try:
        import matplotlib
    except ImportError:
        msg.warn(f"matplotlib is not installed: {name}.png skipped (pip install 'spacy-seqkit[bench]')")
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, n_axes, figsize=(width * n_axes, height), squeeze=False)
    draw(*axes[0])
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def wrote(*paths: Optional[Path]) -> str:
    """ "Wrote a and b", leaving out what was not written (None)."""
    return "Wrote " + " and ".join(str(p) for p in paths if p is not None)
