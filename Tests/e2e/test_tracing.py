"""Tracing for integrators: a W3C traceparent continues the caller's trace, and the call's span
with its store transaction and commit spans reaches an OpenTelemetry collector over OTLP/HTTP."""
import http.server
import json
import secrets
import threading
import time

import grpc
import pytest
from souk_client import pb

from conftest import IdentityServer, free_port, stop_cleanly
from souk_identity import Api

TIMEOUT = 10


class Collector:
    """A stand-in OpenTelemetry collector: keeps every span POSTed to /v1/traces."""

    def __init__(self):
        self.spans = []
        self.resources = []
        self.lock = threading.Lock()
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                assert self.path == "/v1/traces" and self.headers["content-type"] == "application/json"
                with collector.lock:
                    for resource in body["resourceSpans"]:
                        collector.resources.append(resource["resource"])
                        for scope in resource["scopeSpans"]:
                            collector.spans += scope["spans"]
                self.send_response(200)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def wait_for(self, predicate, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [span for span in self.spans if predicate(span)]
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError("no such span reached the collector")

    def close(self):
        self.httpd.shutdown()


def attributes(span) -> dict:
    return {a["key"]: next(iter(a["value"].values())) for a in span["attributes"]}


@pytest.fixture(scope="module")
def collector():
    c = Collector()
    yield c
    c.close()


@pytest.fixture(scope="module")
def traced_server(collector):
    s = IdentityServer(600, "--otlp-endpoint", f"http://127.0.0.1:{collector.port}")
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(traced_server):
    with traced_server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield Api(ch)


def traceparent():
    trace, span = secrets.token_hex(16), secrets.token_hex(8)
    return trace, span, f"00-{trace}-{span}-01"


def test_a_traced_write_reports_the_call_its_transaction_and_its_commit(api, traced_server, collector):
    trace, parent, header = traceparent()
    login = traced_server.demo_login("Aqua Hub", "customer")
    api.accounts.Login(pb.LoginRequest(marketplace_id=login.marketplace_id, email=login.email, password=login.password,
                                       device_name="trace"), metadata=(("traceparent", header),), timeout=TIMEOUT)
    (call,) = collector.wait_for(lambda s: s["traceId"] == trace and s.get("parentSpanId") == parent)
    assert call["name"] == "souk.v1.Accounts/Login" and call["kind"] == 2
    assert attributes(call)["rpc.grpc.status_code"] == "0" and attributes(call)["rpc.system"] == "grpc"
    assert call["status"]["code"] == 1
    children = collector.wait_for(lambda s: s["traceId"] == trace and s.get("parentSpanId") == call["spanId"])
    names = {span["name"] for span in children}
    assert {"souk.store.transaction", "souk.store.commit"} <= names
    for child in children:
        assert int(call["startTimeUnixNano"]) <= int(child["startTimeUnixNano"]) <= int(child["endTimeUnixNano"]) \
            <= int(call["endTimeUnixNano"])
    assert {"key": "service.name", "value": {"stringValue": "souk-server"}} in collector.resources[0]["attributes"]


def test_a_call_without_a_traceparent_starts_a_trace(api, traced_server, collector):
    marketplace = traced_server.marketplace_id("MARA")
    api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=marketplace), timeout=TIMEOUT)
    roots = collector.wait_for(lambda s: s["name"] == "souk.v1.Marketplaces/GetMarketplace" and "parentSpanId" not in s)
    assert len(roots[0]["traceId"]) == 32 and roots[0]["traceId"] != "0" * 32


def test_a_malformed_traceparent_starts_a_new_trace(api, traced_server, collector):
    marketplace = traced_server.marketplace_id("DineSwift")
    bad = "00-" + "0" * 32 + "-" + secrets.token_hex(8) + "-01"  # an all-zero trace id is invalid
    api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=marketplace),
                                    metadata=(("traceparent", bad),), timeout=TIMEOUT)
    spans = collector.wait_for(lambda s: s["name"] == "souk.v1.Marketplaces/GetMarketplace"
                               and "parentSpanId" not in s and s["traceId"] != "0" * 32)
    assert spans


def test_a_client_error_is_recorded_but_not_a_server_failure(api, collector):
    trace, parent, header = traceparent()
    with pytest.raises(grpc.RpcError) as refused:
        api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id="6d6f6e6b-6579-4000-8000-000000000000"),
                                        metadata=(("traceparent", header),), timeout=TIMEOUT)
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    (call,) = collector.wait_for(lambda s: s["traceId"] == trace)
    assert attributes(call)["rpc.grpc.status_code"] == str(grpc.StatusCode.NOT_FOUND.value[0])
    assert call["status"]["code"] == 1


def test_json_calls_are_traced_like_grpc_calls(traced_server, collector):
    import http.client
    trace, parent, header = traceparent()
    conn = http.client.HTTPConnection("127.0.0.1", traced_server.port, timeout=TIMEOUT)
    conn.request("POST", "/souk.v1.Marketplaces/GetMarketplace",
                 body=json.dumps({"marketplaceId": traced_server.marketplace_id("Aqua Hub")}),
                 headers={"content-type": "application/json", "traceparent": header})
    response = conn.getresponse()
    response.read()
    assert response.status == 200
    (call,) = collector.wait_for(lambda s: s["traceId"] == trace and s.get("parentSpanId") == parent)
    assert call["name"] == "souk.v1.Marketplaces/GetMarketplace"
