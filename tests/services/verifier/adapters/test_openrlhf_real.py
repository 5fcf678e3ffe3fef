"""`/openrlhf` called by OpenRLHF's own remote-reward client (real path; where it is installed).

OpenRLHF pulls in deepspeed, flash-attn and vLLM, which this project does not install; the
test skips without it. Its remote-reward HTTP client only needs aiohttp: `pip install --target
DIR --no-deps openrlhf==0.11.2 pylatexenc && pip install --target DIR aiohttp`, then
`PYTHONPATH=DIR pytest tests/services/verifier/adapters`. The API tests in
`tests/services/verifier/api/test_verify_api.py` cover the same contract everywhere.
"""

from __future__ import annotations

import json

import pytest

agent = pytest.importorskip("openrlhf.utils.agent")

PROMPT = "<|user|>What is 3+4? Put the answer in \\boxed{}.<|assistant|>"


async def test_openrlhf_remote_reward_client_reads_our_rewards(verifier_url: str) -> None:
    executor = agent.SingleTurnAgentExecutor(remote_rm_url=f"{verifier_url}/openrlhf")
    # As in SingleTurnAgentExecutor.execute: the query is the decoded prompt + response, with
    # special tokens kept, so it can start with tokens the prompt lacks.
    queries = [f"<s>{PROMPT} So \\boxed{{7}}</s>", f"<s>{PROMPT} \\boxed{{8}}</s>"]
    labels = ["7", json.dumps({"domain": "math", "answer": "7"})]
    (info,) = await executor._fetch_rewards_via_http(queries, [PROMPT] * 2, labels)
    assert info["rewards"] == [1.0, 0.0]
    assert info["scores"] == [1.0, 0.0]
    assert info["extra_logs"]["verifier_passed"] == [1.0, 0.0]


async def test_one_query_per_request_as_during_rollout(verifier_url: str) -> None:
    executor = agent.SingleTurnAgentExecutor(remote_rm_url=f"{verifier_url}/openrlhf")
    (info,) = await executor._fetch_rewards_via_http([f"{PROMPT} \\boxed{{7}}"], [PROMPT], ["7"])
    assert info["rewards"] == [1.0]
