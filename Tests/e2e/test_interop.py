"""The server side of the public gRPC interop test cases, driven by grpcio as the client."""
import threading

import grpc
import pytest

import rawh2
from souk_protos import message, interop_stub

Empty = message("grpc.testing.Empty")
SimpleRequest = message("grpc.testing.SimpleRequest")
SimpleResponse = message("grpc.testing.SimpleResponse")
StreamingInputCallRequest = message("grpc.testing.StreamingInputCallRequest")
StreamingOutputCallRequest = message("grpc.testing.StreamingOutputCallRequest")
Payload = message("grpc.testing.Payload")
ResponseParameters = message("grpc.testing.ResponseParameters")
EchoStatus = message("grpc.testing.EchoStatus")
BoolValue = message("grpc.testing.BoolValue")

ECHO_INITIAL = ("x-grpc-test-echo-initial", "test_initial_metadata_value")
ECHO_TRAILING = ("x-grpc-test-echo-trailing-bin", b"\xab\xab\xab")


def zeros(n):
    return Payload(body=b"\x00" * n)


@pytest.fixture(scope="module")
def stub(channel):
    return interop_stub(channel)


def test_empty_unary(stub):
    assert stub.EmptyCall(Empty(), timeout=10) == Empty()


def test_large_unary(stub):
    response = stub.UnaryCall(SimpleRequest(response_size=314159, payload=zeros(271828)), timeout=10)
    assert response.payload.body == b"\x00" * 314159


def test_client_compressed_unary(stub):
    # The probe: expect_compressed without compressing must fail with INVALID_ARGUMENT.
    with pytest.raises(grpc.RpcError) as probe:
        stub.UnaryCall(SimpleRequest(expect_compressed=BoolValue(value=True), response_size=314159,
                                     payload=zeros(271828)), timeout=10)
    assert probe.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    compressed = stub.UnaryCall(
        SimpleRequest(expect_compressed=BoolValue(value=True), response_size=314159, payload=zeros(271828)),
        compression=grpc.Compression.Gzip, timeout=10)
    assert len(compressed.payload.body) == 314159
    plain = stub.UnaryCall(
        SimpleRequest(expect_compressed=BoolValue(value=False), response_size=314159, payload=zeros(271828)),
        timeout=10)
    assert len(plain.payload.body) == 314159


@pytest.mark.parametrize("compress", [True, False])
def test_server_compressed_unary(server, compress):
    # grpcio hides the compressed flag, so read the frames directly.
    conn = rawh2.Connection(server.port)
    try:
        request = SimpleRequest(response_compressed=BoolValue(value=compress), response_size=314159,
                                payload=zeros(271828)).SerializeToString()
        response = conn.call("/grpc.testing.TestService/UnaryCall", request,
                             extra_headers=[("grpc-accept-encoding", "identity,gzip")])
    finally:
        conn.close()
    assert response.grpc_status == 0, response
    [(flag, payload)] = rawh2.grpc_messages(response.data)
    assert flag == compress
    assert len(SimpleResponse.FromString(payload).payload.body) == 314159


def test_client_streaming(stub):
    sizes = [27182, 8, 1828, 45904]
    response = stub.StreamingInputCall(iter(StreamingInputCallRequest(payload=zeros(n)) for n in sizes), timeout=10)
    assert response.aggregated_payload_size == 74922


def test_server_streaming(stub):
    sizes = [31415, 9, 2653, 58979]
    request = StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=n) for n in sizes])
    assert [len(r.payload.body) for r in stub.StreamingOutputCall(request, timeout=10)] == sizes


def test_server_compressed_streaming(server):
    conn = rawh2.Connection(server.port)
    try:
        request = StreamingOutputCallRequest(response_parameters=[
            ResponseParameters(size=31415, compressed=BoolValue(value=True)),
            ResponseParameters(size=92653, compressed=BoolValue(value=False)),
        ]).SerializeToString()
        response = conn.call("/grpc.testing.TestService/StreamingOutputCall", request,
                             extra_headers=[("grpc-accept-encoding", "gzip")])
    finally:
        conn.close()
    assert response.grpc_status == 0, response
    messages = rawh2.grpc_messages(response.data)
    assert [flag for flag, _ in messages] == [True, False]
    assert [len(message("grpc.testing.StreamingOutputCallResponse").FromString(p).payload.body)
            for _, p in messages] == [31415, 92653]


class Requests:
    """A request iterator the test feeds one message at a time (for ping-pong)."""

    def __init__(self):
        self._items = []
        self._ready = threading.Condition()
        self._done = False

    def send(self, item):
        with self._ready:
            self._items.append(item)
            self._ready.notify()

    def close(self):
        with self._ready:
            self._done = True
            self._ready.notify()

    def __iter__(self):
        return self

    def __next__(self):
        with self._ready:
            while not self._items and not self._done:
                self._ready.wait()
            if self._items:
                return self._items.pop(0)
            raise StopIteration


def test_ping_pong(stub):
    requests = Requests()
    responses = stub.FullDuplexCall(requests, timeout=10)
    for request_size, response_size in [(27182, 31415), (8, 9), (1828, 2653), (45904, 58979)]:
        requests.send(StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=response_size)],
                                                 payload=zeros(request_size)))
        assert len(next(responses).payload.body) == response_size
    requests.close()
    assert list(responses) == []


def test_empty_stream(stub):
    assert list(stub.FullDuplexCall(iter([]), timeout=10)) == []


def test_custom_metadata(stub):
    metadata = [ECHO_INITIAL, ECHO_TRAILING]
    response, call = stub.UnaryCall.with_call(
        SimpleRequest(response_size=314159, payload=zeros(271828)), metadata=metadata, timeout=10)
    assert len(response.payload.body) == 314159
    assert ECHO_INITIAL in call.initial_metadata()
    assert ECHO_TRAILING in call.trailing_metadata()

    call = stub.FullDuplexCall(iter([StreamingOutputCallRequest(
        response_parameters=[ResponseParameters(size=314159)], payload=zeros(271828))]), metadata=metadata, timeout=10)
    assert [len(r.payload.body) for r in call] == [314159]
    assert ECHO_INITIAL in call.initial_metadata()
    assert ECHO_TRAILING in call.trailing_metadata()


@pytest.mark.parametrize("text", [
    "test status message",
    "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n",
])
def test_status_code_and_message(stub, text):
    status = EchoStatus(code=2, message=text)
    with pytest.raises(grpc.RpcError) as unary:
        stub.UnaryCall(SimpleRequest(response_status=status), timeout=10)
    assert unary.value.code() == grpc.StatusCode.UNKNOWN
    assert unary.value.details() == text
    with pytest.raises(grpc.RpcError) as duplex:
        list(stub.FullDuplexCall(iter([StreamingOutputCallRequest(response_status=status)]), timeout=10))
    assert duplex.value.code() == grpc.StatusCode.UNKNOWN
    assert duplex.value.details() == text


def test_unimplemented_method(stub):
    with pytest.raises(grpc.RpcError) as error:
        stub.UnimplementedCall(Empty(), timeout=10)
    assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_unimplemented_service(channel):
    call = channel.unary_unary("/grpc.testing.UnimplementedService/UnimplementedCall",
                               request_serializer=Empty.SerializeToString, response_deserializer=Empty.FromString)
    with pytest.raises(grpc.RpcError) as error:
        call(Empty(), timeout=10)
    assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_unknown_service_and_method(channel):
    for path in ["/souk.v1.NoSuchService/Get", "/grpc.testing.TestService/NoSuchMethod"]:
        call = channel.unary_unary(path, request_serializer=Empty.SerializeToString,
                                   response_deserializer=Empty.FromString)
        with pytest.raises(grpc.RpcError) as error:
            call(Empty(), timeout=10)
        assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_cancel_after_begin(stub):
    call = stub.StreamingInputCall.future(Requests(), timeout=10)
    call.cancel()
    with pytest.raises(grpc.FutureCancelledError):
        call.result()
    assert call.cancelled()


def test_cancel_after_first_response(stub):
    requests = Requests()
    responses = stub.FullDuplexCall(requests, timeout=10)
    requests.send(StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=31415)], payload=zeros(27182)))
    assert len(next(responses).payload.body) == 31415
    responses.cancel()
    with pytest.raises(grpc.RpcError) as error:
        next(responses)
    assert error.value.code() == grpc.StatusCode.CANCELLED
    requests.close()


def test_timeout_on_sleeping_server(stub):
    requests = Requests()
    requests.send(StreamingOutputCallRequest(payload=zeros(27182)))
    with pytest.raises(grpc.RpcError) as error:
        list(stub.FullDuplexCall(requests, timeout=0.001))
    assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    requests.close()


def test_server_side_deadline_cancels_handler(server):
    # A deadline the server enforces itself: the handler sleeps between responses far longer
    # than the call's grpc-timeout, so the status must come from the server, not the client.
    conn = rawh2.Connection(server.port)
    try:
        request = StreamingOutputCallRequest(response_parameters=[
            ResponseParameters(size=1), ResponseParameters(size=1, interval_us=5_000_000)]).SerializeToString()
        response = conn.call("/grpc.testing.TestService/StreamingOutputCall", request,
                             extra_headers=[("grpc-timeout", "200m")])
    finally:
        conn.close()
    assert response.grpc_status == grpc.StatusCode.DEADLINE_EXCEEDED.value[0], response


def test_status_details_carry_field_violations(server):
    # An RPCError with field violations travels as google.rpc.Status in grpc-status-details-bin.
    import base64
    conn = rawh2.Connection(server.port)
    try:
        request = SimpleRequest(expect_compressed=BoolValue(value=True)).SerializeToString()
        response = conn.call("/grpc.testing.TestService/UnaryCall", request)
    finally:
        conn.close()
    assert response.grpc_status == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    details = response.trailers.get("grpc-status-details-bin") or response.headers.get("grpc-status-details-bin")
    assert details, response
    status = message("google.rpc.Status").FromString(base64.b64decode(details + "=" * (-len(details) % 4)))
    assert status.code == 3
    bad_request = message("google.rpc.BadRequest")()
    assert status.details[0].Unpack(bad_request)
    assert bad_request.field_violations[0].field == "expect_compressed"
