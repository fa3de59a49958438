"""The travel application's benchmarks: `resolve` at scale, trained pipelines side by side."""
