"""The travel application's benchmarks: `resolve` at scale, trained pipelines side by side,
training on the CPU and on a GPU, routes. Their commands are in `commands.py`."""
