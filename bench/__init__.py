"""Benchmarks for fivehundred-rl (run with `python -m bench`)."""
