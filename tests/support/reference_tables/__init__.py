"""Labelled tables of the reference-answer domains, shared by their tests and the benchmark."""
