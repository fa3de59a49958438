"""Benchmark scripts: each prints a table, writes JSON and a PNG plot (where
matplotlib, of the `bench` extra, is installed), and compares against a named
baseline in the same run."""
