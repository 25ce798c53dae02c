"""Test machinery the tests and benchmarks share: fault, crash and power-cut rigs, the misread
simulation, a camera that fails on purpose. Never shipped with the table."""
