"""Wiring, pin maps, the panel firmware and the example config, shipped with the program."""
