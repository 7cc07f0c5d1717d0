"""Admission control (common.proto, OVERLOAD): a server whose calls in progress are all taken
refuses the next one at once, unexecuted (UNAVAILABLE, reason OVERLOADED, RetryInfo), still
answers health checks, and serves normally again as soon as a place comes back.

The server here works on one call at a time with no queue (--max-calls-in-progress 1
--admission-queue 0). The call holding the place is a grpc.testing StreamingOutputCall whose first
response comes a minute later: a server stream holds its place until it first answers.

souk-load sends a scenario step the server refused that way again after the RetryInfo delay, at
most three times, and reports those sends apart from its errors.

A third server has one place and a queue whose wait (a minute) every burst here drains within:
a burst is served, not refused, even after a wait ran out (only waits running into their limit for
a whole interval make the queue overloaded)."""
import json
import subprocess
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


@pytest.fixture(scope="module")
def patient_server():
    s = conftest.Server("--max-calls-in-progress", "1", "--admission-queue", "64", "--admission-wait-ms", "60000")
    yield s
    conftest.stop_cleanly(s)


def wait_until(condition, what: str):
    """Waits (up to 30 s) until `condition()` holds: a condition, not a delay."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_a_burst_is_served_even_after_a_wait_ran_out(patient_server):
    server = patient_server
    with server.channel() as channel:
        marketplaces = Stub(channel, "souk.v1.Marketplaces")
        list_call = marketplaces.ListMarketplaces
        list_call(ListMarketplacesRequest(), timeout=TIMEOUT)

        # A burst of 24 calls at once on an idle server with one place: they wait their turn.
        burst = [list_call.future(ListMarketplacesRequest(), timeout=TIMEOUT) for _ in range(24)]
        for call in burst:
            call.result()  # raises if refused
        assert metric(server, "souk_rpc_refused_total") == 0

        # The place taken, a call waits; another one's deadline (0.5 s) ends its wait: refused.
        held = hold(channel)
        wait_for_metric(server, "souk_rpc_active_calls", 1)
        first = list_call.future(ListMarketplacesRequest(), timeout=TIMEOUT)
        wait_for_metric(server, "souk_rpc_admission_waiting", 1)
        with pytest.raises(grpc.RpcError) as info:
            list_call(ListMarketplacesRequest(), timeout=0.5)
        assert info.value.code() in (Code.UNAVAILABLE, Code.DEADLINE_EXCEEDED), info.value.code()
        wait_for_metric(server, 'souk_rpc_refused_total{cause="wait_expired"}', 1)

        # The queue has not emptied since, yet a new burst keeps the full wait: one wait that ran
        # out is no overload (before, every call of it got the 5 ms overload wait and was refused).
        burst = [list_call.future(ListMarketplacesRequest(), timeout=TIMEOUT) for _ in range(16)]
        wait_until(lambda: metric(server, "souk_rpc_admission_waiting") == 17 or metric(server, "souk_rpc_refused_total") > 1,
                   "the burst neither queued nor was refused")
        assert metric(server, "souk_rpc_refused_total") == 1

        # The place comes back: the first call and the whole burst are served.
        held.cancel()
        for call in [first] + burst:
            call.result()
        assert metric(server, "souk_rpc_refused_total") == 1


def souk_load_run(server, scenario, out) -> dict:
    """One user, one iteration of `scenario` through souk-load: its JSON report."""
    done = subprocess.run(
        [conftest.souk_load_binary(), "run", str(scenario), "--users", "1", "--iterations", "1", "--threads", "1",
         "--target", server.address, "--json", str(out), "--quiet"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"souk-load failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return json.loads(out.read_text())


def test_souk_load_sends_a_refused_step_again_after_its_retry_delay(tmp_path):
    server = conftest.Server("--max-calls-in-progress", "1", "--admission-queue", "0")
    try:
        scenario = tmp_path / "refused.json"
        scenario.write_text(json.dumps({"name": "refused", "steps": [
            {"name": "list", "call": "souk.v1.Marketplaces/ListMarketplaces", "request": {}}]}))
        with server.channel() as channel:
            held = hold(channel)
            wait_for_metric(server, "souk_rpc_active_calls", 1)
            # Every send is refused unexecuted: the step goes 4 times (3 after a refusal), then is one error.
            report = souk_load_run(server, scenario, tmp_path / "refused-report.json")
            assert report["calls"] == 1 and report["errors"] == 1, report
            assert report["refused_retries"] == 3 and report["retries"] == 0, report
            assert report["reasons"] == {"UNAVAILABLE/OVERLOADED": 1}
            assert report["rpcs"][0]["refused_retries"] == 3
            assert metric(server, 'souk_rpc_refused_total{cause="queue_full"}') == 4

            held.cancel()
            wait_for_metric(server, "souk_rpc_active_calls", 0)
            report = souk_load_run(server, scenario, tmp_path / "served-report.json")
            assert report["calls"] == 1 and report["errors"] == 0 and report["refused_retries"] == 0, report
            assert metric(server, "souk_rpc_refused_total") == 4
    finally:
        conftest.stop_cleanly(server)


def test_the_overload_rule_takes_its_numbers_from_the_options(tmp_path):
    """--admission-target-ms, --admission-interval-ms and the standing queue's options set the
    overload rule (AdmissionControl's unit tests cover the rule itself): the server starts with them
    and serves; a negative wait or no standing place is refused before the server starts, naming
    the option."""
    server = conftest.Server("--max-calls-in-progress", "4", "--admission-target-ms", "5", "--admission-interval-ms", "100",
                             "--admission-standing-ms", "20", "--admission-standing-calls", "2")
    try:
        with server.channel() as channel:
            # Served (a new store has no marketplaces yet): the call went through admission.
            Stub(channel, "souk.v1.Marketplaces").ListMarketplaces(ListMarketplacesRequest(), timeout=TIMEOUT)
            assert metric(server, "souk_rpc_calls_total") >= 1
    finally:
        conftest.stop_cleanly(server)
    refused = subprocess.run(
        [server.binary, "--data-dir", str(tmp_path / "data"), "--port", "0", "--admission-target-ms=-1"],
        capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "--admission-" in refused.stderr and "must not be negative" in refused.stderr, refused.stderr
    refused = subprocess.run(
        [server.binary, "--data-dir", str(tmp_path / "data"), "--port", "0", "--admission-standing-calls", "0"],
        capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "--admission-standing-calls must be at least 1" in refused.stderr, refused.stderr
