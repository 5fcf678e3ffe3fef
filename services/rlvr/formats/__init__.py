"""Converters from public dataset formats to the verifier's items (pure; no server imports)."""
