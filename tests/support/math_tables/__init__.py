"""The labelled /math tables (read by the math tests, the API tests and math_bench)."""
