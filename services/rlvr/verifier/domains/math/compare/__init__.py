"""Structural comparison of two typed values (`values.py`), one comparer per kind, one file each.

`verdict.compare` is the entry (percent readings, named listings, rounding around the structural
`dispatch.equivalent`); `dispatch` picks the comparer of a pair by kind; `expressions`,
`relations`, `sets` and `sequences` hold the comparers; `rounding` the documented decimal rule;
`context` what one call carries. Runs inside a killable worker.
"""
