"""Batched learning environments: N games stepped together in compiled code."""
