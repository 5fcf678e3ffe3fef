"""The endpoint-list bookkeeping on its own: URL lists, rank slices, least-loaded choice, back-off
and probes (a fake clock; no I/O)."""

from __future__ import annotations

import pytest

from rlvr.client import ConfigurationError, ServiceOverloaded, TransportError
from rlvr.client._base import resolve_base_urls
from rlvr.client._endpoints import EndpointSet, parse_urls, slice_for_rank
from rlvr.client._errors import InvalidRequest


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _fail(endpoints: EndpointSet, url: str, exc: BaseException) -> None:
    replica = next(r for r in endpoints.replicas if r.url == url)
    with pytest.raises(type(exc)), endpoints.attempt(replica):
        raise exc


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://a:1", ["http://a:1"]),
        ("http://a:1/, http://b:2 ,,", ["http://a:1", "http://b:2"]),
        (["http://a:1", "http://a:1/", "http://c:3"], ["http://a:1", "http://c:3"]),
    ],
)
def test_urls_come_from_a_list_or_commas_without_duplicates(given, expected) -> None:
    assert parse_urls(given) == expected


def test_the_environment_variable_may_hold_several_urls(monkeypatch) -> None:
    monkeypatch.setenv("VERIFIER_URL", "http://a:1,http://b:2")
    assert resolve_base_urls(None) == ["http://a:1", "http://b:2"]
    monkeypatch.setenv("VERIFIER_URL", " , ")
    with pytest.raises(ConfigurationError):
        resolve_base_urls(None)


def test_rank_slices_are_disjoint_and_cover_every_endpoint() -> None:
    urls = [f"http://h{i}" for i in range(8)]
    slices = [slice_for_rank(urls, rank, 3) for rank in range(3)]
    assert slices[0] == ["http://h0", "http://h3", "http://h6"]
    assert sorted(u for s in slices for u in s) == sorted(urls)
    assert [slice_for_rank(urls[:2], rank, 4) for rank in range(4)] == [
        ["http://h0"],
        ["http://h1"],
        ["http://h0"],
        ["http://h1"],
    ]
    with pytest.raises(ConfigurationError):
        slice_for_rank(urls, 3, 3)


def test_the_least_loaded_endpoint_is_picked_and_ties_take_turns() -> None:
    endpoints = EndpointSet(["http://a", "http://b", "http://c"])
    a, b, c = endpoints.replicas
    with endpoints.attempt(a), endpoints.attempt(a), endpoints.attempt(b):
        assert endpoints.pick().replica is c
    picked = [endpoints.pick().replica.url for _ in range(6)]
    assert sorted(picked) == [
        "http://a",
        "http://a",
        "http://b",
        "http://b",
        "http://c",
        "http://c",
    ]


def test_a_failed_endpoint_is_left_out_then_probed_before_work() -> None:
    clock = Clock()
    endpoints = EndpointSet(["http://a", "http://b"], backoff_s=1.0, clock=clock)
    _fail(endpoints, "http://a", TransportError("refused"))
    assert {endpoints.pick().replica.url for _ in range(4)} == {"http://b"}
    assert endpoints.has_healthy_alternative()
    clock.now += 1.01
    pick = endpoints.pick()
    assert (pick.replica.url, pick.probe) == ("http://a", True)
    assert endpoints.pick().replica.url == "http://b"  # one probe at a time
    endpoints.probed(pick.replica, is_healthy=False)  # still down: twice the back-off
    clock.now += 1.5
    assert endpoints.pick().replica.url == "http://b"
    clock.now += 0.6
    pick = endpoints.pick()
    assert pick.probe
    endpoints.probed(pick.replica, is_healthy=True)
    assert {endpoints.pick().replica.url for _ in range(4)} == {"http://a", "http://b"}


def test_a_503_keeps_the_endpoint_out_for_its_retry_after() -> None:
    clock = Clock()
    endpoints = EndpointSet(["http://a", "http://b"], backoff_s=1.0, clock=clock)
    _fail(endpoints, "http://a", ServiceOverloaded(503, "overloaded", "full", None, 7.0))
    clock.now += 6.9
    assert endpoints.pick().replica.url == "http://b"
    clock.now += 0.2
    assert endpoints.pick().probe


def test_a_4xx_is_the_request_s_fault_and_keeps_the_endpoint() -> None:
    endpoints = EndpointSet(["http://a", "http://b"])
    _fail(endpoints, "http://a", InvalidRequest(422, "invalid", "bad item", None, None))
    assert not endpoints.replicas[0].is_down


def test_with_every_endpoint_down_the_soonest_back_is_used_without_probe() -> None:
    clock = Clock()
    endpoints = EndpointSet(["http://a", "http://b"], backoff_s=1.0, clock=clock)
    _fail(endpoints, "http://a", TransportError("refused"))
    clock.now += 0.5
    _fail(endpoints, "http://b", TransportError("refused"))
    assert not endpoints.has_healthy_alternative()
    pick = endpoints.pick()
    assert (pick.replica.url, pick.probe) == ("http://a", False)


def test_one_url_is_never_probed_nor_avoided() -> None:
    clock = Clock()
    endpoints = EndpointSet(["http://a"], clock=clock)
    _fail(endpoints, "http://a", TransportError("refused"))
    clock.now += 60
    pick = endpoints.pick()
    assert (pick.replica.url, pick.probe) == ("http://a", False)
    assert not endpoints.has_healthy_alternative()


def test_ranks_take_their_slice_when_the_environment_asks(monkeypatch) -> None:
    from rlvr.client import VerifierClient

    urls = "http://a:1,http://b:2,http://c:3,http://d:4"
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "2")
    with VerifierClient(urls) as client:
        assert client.base_urls == urls.split(",")
    monkeypatch.setenv("VERIFIER_SPLIT_BY_RANK", "1")
    with VerifierClient(urls) as client:
        assert client.base_urls == ["http://b:2", "http://d:4"]
    with VerifierClient(urls, split_by_rank=False) as client:
        assert len(client.base_urls) == 4
