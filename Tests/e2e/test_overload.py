"""Admission control (common.proto, OVERLOAD): a server whose calls in progress are all taken
refuses the next one at once, unexecuted (UNAVAILABLE, reason OVERLOADED, RetryInfo), still
answers health checks, and serves normally again as soon as a place comes back.

The server here works on one call at a time with no queue (--max-calls-in-progress 1
--admission-queue 0). The call holding the place is a grpc.testing StreamingOutputCall whose first
response comes a minute later: a server stream holds its place until it first answers."""
import time
import urllib.request

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

import conftest
from souk_identity import Reason
from souk_protos import Stub, error_reason, interop_stub, message, status_detail

Code = grpc.StatusCode
Empty = message("grpc.testing.Empty")
StreamingOutputCallRequest = message("grpc.testing.StreamingOutputCallRequest")
ResponseParameters = message("grpc.testing.ResponseParameters")
ListMarketplacesRequest = message("souk.v1.ListMarketplacesRequest")
TIMEOUT = 30


@pytest.fixture(scope="module")
def server():
    s = conftest.Server("--max-calls-in-progress", "1", "--admission-queue", "0")
    yield s
    conftest.stop_cleanly(s)


def metric(server, name: str) -> float:
    """The sum of a metric's samples on the server's /metrics page (0 when absent)."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=10).read().decode()
    values = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
              if line.startswith(name) and (line[len(name)] in " {")]
    return sum(values)


def wait_for_metric(server, name: str, value: float):
    """Waits (up to 30 s) until the server reports `value` for `name`: a condition, not a delay."""
    deadline = time.monotonic() + 30
    while metric(server, name) != value:
        assert time.monotonic() < deadline, f"{name} never reached {value}: {metric(server, name)}"
        time.sleep(0.02)


def hold(channel):
    """A call that takes the server's one place and keeps it: its first response is a minute away."""
    request = StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=1, interval_us=60_000_000)])
    return interop_stub(channel).StreamingOutputCall(request, timeout=120)


def overloaded(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = info.value
    assert error.code() == Code.UNAVAILABLE, (error.code(), error.details())
    delay = status_detail(error, error_details_pb2.RetryInfo).retry_delay
    assert 0 < delay.seconds * 1e9 + delay.nanos < 1e9, delay
    return error


def test_a_call_beyond_the_limit_is_refused_unexecuted_and_served_again_once_the_place_is_back(server):
    with server.channel() as channel:
        marketplaces = Stub(channel, "souk.v1.Marketplaces")
        marketplaces.ListMarketplaces(ListMarketplacesRequest(), timeout=TIMEOUT)  # served: nothing held yet
        held = hold(channel)
        wait_for_metric(server, "souk_rpc_active_calls", 1)

        # A souk.v1 call: reason OVERLOADED, not executed, in the caller's language.
        error = overloaded(lambda: marketplaces.ListMarketplaces(
            ListMarketplacesRequest(), metadata=[("accept-language", "ar")], timeout=TIMEOUT))
        assert error_reason(error) == Reason.ERROR_REASON_OVERLOADED
        info = status_detail(error, error_details_pb2.ErrorInfo)
        assert info.reason == "OVERLOADED" and info.domain == "souk.v1" and info.metadata["executed"] == "false"
        assert status_detail(error, error_details_pb2.LocalizedMessage).locale == "ar"
        # Another stream is refused at its start too.
        overloaded(lambda: list(interop_stub(channel).StreamingOutputCall(
            StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=1)]), timeout=TIMEOUT)))
        assert metric(server, 'souk_rpc_refused_total{cause="queue_full"}') == 2

        # Health checks and the synchronous interop calls never wait for anything: they still answer.
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        assert interop_stub(channel).EmptyCall(Empty(), timeout=TIMEOUT) == Empty()

        # The held call ends (cancelled by its client): its place comes back and calls are served.
        held.cancel()
        wait_for_metric(server, "souk_rpc_active_calls", 0)
        marketplaces.ListMarketplaces(ListMarketplacesRequest(), timeout=TIMEOUT)
        answers = interop_stub(channel).StreamingOutputCall(
            StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=3)]), timeout=TIMEOUT)
        assert [len(r.payload.body) for r in answers] == [3]
        assert metric(server, "souk_rpc_refused_total") == 2
