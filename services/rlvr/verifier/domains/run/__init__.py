"""Runs without a judgement: SandboxFusion's `/run_code` and our batched `/run` (a tool for RL)."""
