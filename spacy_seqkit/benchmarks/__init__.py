"""Benchmark scripts: each prints a table, writes JSON and a PNG plot, and
compares against a named baseline in the same run."""
