"""The shipped pin maps (TOML data files): `shared.toml` and `seats.toml`."""
