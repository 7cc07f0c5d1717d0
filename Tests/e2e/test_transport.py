"""Transport-level behaviour seen from real clients: TLS with ALPN, many concurrent calls on
one channel, metrics, and graceful shutdown."""
import os
import signal
import socket
import ssl
import subprocess
import urllib.request

import grpc
import pytest

import conftest
from souk_protos import message, interop_stub

Empty = message("grpc.testing.Empty")
SimpleRequest = message("grpc.testing.SimpleRequest")
StreamingOutputCallRequest = message("grpc.testing.StreamingOutputCallRequest")
ResponseParameters = message("grpc.testing.ResponseParameters")
Payload = message("grpc.testing.Payload")


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tls")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


def test_tls_with_alpn_h2(certificate):
    server = conftest.Server(tls=certificate)
    try:
        context = ssl.create_default_context(cafile=certificate[0])
        context.set_alpn_protocols(["h2"])
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as tls:
                assert tls.selected_alpn_protocol() == "h2"
        credentials = grpc.ssl_channel_credentials(root_certificates=open(certificate[0], "rb").read())
        with grpc.secure_channel(f"localhost:{server.port}", credentials) as channel:
            assert interop_stub(channel).EmptyCall(Empty(), timeout=10) == Empty()
    finally:
        assert server.stop() == 0


def test_500_concurrent_calls_on_one_channel(channel):
    stub = interop_stub(channel)
    futures = [stub.UnaryCall.future(SimpleRequest(response_size=100 + i, payload=Payload(body=b"x" * i)), timeout=30)
               for i in range(500)]
    sizes = [len(f.result().payload.body) for f in futures]
    assert sizes == [100 + i for i in range(500)]


def test_metrics_endpoint_counts_calls(server, channel):
    interop_stub(channel).EmptyCall(Empty(), timeout=10)
    text = urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=10).read().decode()
    assert "souk_rpc_calls_total" in text
    assert 'method="grpc.testing.TestService/EmptyCall"' in text
    for name in ["souk_rpc_duration_seconds", "souk_rpc_active_calls",
                 "souk_http2_open_connections", "souk_http2_active_streams"]:
        assert name in text, name


def test_health_reports_not_serving_while_draining():
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    server = conftest.Server("--shutdown-grace-period", "2")
    try:
        with server.channel() as channel:
            watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=20)
            assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
            server.process.send_signal(signal.SIGTERM)
            # The watch is a call in flight: it sees the change before the grace period ends it.
            assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert server.process.wait(timeout=20) == 0
    finally:
        server.stop()


def test_graceful_shutdown_finishes_calls_in_flight():
    server = conftest.Server("--shutdown-grace-period", "10")
    try:
        with server.channel() as channel:
            stub = interop_stub(channel)
            # Two responses, the second one second after the first: the call is in flight
            # once the first arrives, and SIGTERM must not cut it short.
            request = StreamingOutputCallRequest(response_parameters=[
                ResponseParameters(size=1), ResponseParameters(size=2, interval_us=1_000_000)])
            responses = stub.StreamingOutputCall(request, timeout=20)
            assert len(next(responses).payload.body) == 1
            server.process.send_signal(signal.SIGTERM)
            assert [len(r.payload.body) for r in responses] == [2]
        assert server.process.wait(timeout=20) == 0
        # The listener is gone once the server stopped.
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
    finally:
        server.stop()


def test_jemalloc_starts_with_the_servers_options():
    """souk-server links jemalloc and hands it its start-up options (Sources/CAllocatorOptions)."""
    binary = os.environ.get("SOUK_SERVER") or str(conftest.ROOT / ".build" / "debug" / "souk-server")
    result = subprocess.run(
        [binary, "--help"], env={**os.environ, "MALLOC_CONF": "confirm_conf:true"},
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Set conf value: tcache_max:262144" in result.stderr, result.stderr
