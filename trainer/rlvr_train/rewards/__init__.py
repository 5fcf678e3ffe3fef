"""Reward functions for GRPO: format rewards, the verifiable rewards over HTTP, and their mixing."""
