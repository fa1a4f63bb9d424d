"""Benchmarks of the embedded thermostat cloud: a load generator of simulated thermostats.

Run `scripts/bench --help` (or `python -m bench --help`). Results and how to read them are in
docs/performance.md. Nothing here is a test: the test suite only checks that the suite still
runs with tiny numbers (tests/test_bench_smoke.py).
"""
