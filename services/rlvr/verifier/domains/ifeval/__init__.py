"""Instruction following (IFEval's constraints): checkers, the item judge and the verifier."""
