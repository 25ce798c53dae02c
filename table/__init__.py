"""Bid Euchre rules engine: a pure fold over the table log."""
