"""Hostile and malformed input from raw sockets and the `h2` package. Each case must get the
right error or a closed connection; after each, a well-formed call on a new connection still
succeeds and the server's memory stays bounded."""
import grpc
import pytest

import rawh2
from souk_protos import message, interop_stub

Empty = message("grpc.testing.Empty")
SimpleRequest = message("grpc.testing.SimpleRequest")
EMPTY_CALL = "/grpc.testing.TestService/EmptyCall"
UNARY_CALL = "/grpc.testing.TestService/UnaryCall"
MEMORY_BOUND_KIB = 256 * 1024  # growth allowed over the whole module


@pytest.fixture(scope="module")
def baseline_rss(server):
    return server.rss_kib()


@pytest.fixture(autouse=True)
def still_healthy(server, baseline_rss):
    yield
    with server.channel() as channel:
        assert interop_stub(channel).EmptyCall(Empty(), timeout=10) == Empty()
    growth = server.rss_kib() - baseline_rss
    assert growth < MEMORY_BOUND_KIB, f"RSS grew by {growth} KiB"


def test_garbage_preface_closes_connection(server):
    raw = rawh2.RawSocket(server.port)
    raw.send(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n" + b"\x00" * 64)
    _, closed = raw.read_frames(timeout=5)
    raw.close()
    assert closed


def test_invalid_header_block_is_a_compression_error(server):
    raw = rawh2.RawSocket(server.port)
    raw.handshake()
    import hyperframe.frame
    frame = hyperframe.frame.HeadersFrame(1)
    frame.data = b"\xff\xff\xff\xff\xff\xff"  # not valid HPACK
    frame.flags.add("END_HEADERS")
    frame.flags.add("END_STREAM")
    raw.send(frame.serialize())
    frames, closed = raw.read_frames(timeout=5)
    raw.close()
    goaway = rawh2.goaway(frames)
    assert goaway is not None and goaway.error_code == 9  # COMPRESSION_ERROR
    assert closed


def test_headers_over_the_limit_are_refused(server):
    conn = rawh2.Connection(server.port)
    stream = conn.send_request(rawh2.grpc_headers(EMPTY_CALL, [("x-padding", "a" * 20000)]),
                               rawh2.grpc_frame(b""))
    response = conn.wait(stream, timeout=5)
    conn.close()
    refused = (response.reset_code is not None or response.headers.get(":status") == "431"
               or conn.terminated is not None or conn.closed)
    assert refused and response.grpc_status in (None, grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]), response


def test_wrong_content_type_gets_415(server):
    conn = rawh2.Connection(server.port)
    headers = [h for h in rawh2.grpc_headers(EMPTY_CALL) if h[0] != "content-type"] + [("content-type", "text/plain")]
    response = conn.wait(conn.send_request(headers, rawh2.grpc_frame(b"")))
    conn.close()
    assert response.headers.get(":status") == "415"


def test_missing_content_type_gets_415(server):
    conn = rawh2.Connection(server.port)
    headers = [h for h in rawh2.grpc_headers(EMPTY_CALL) if h[0] != "content-type"]
    response = conn.wait(conn.send_request(headers, rawh2.grpc_frame(b"")))
    conn.close()
    assert response.headers.get(":status") == "415"


@pytest.mark.parametrize("body", [
    rawh2.grpc_frame(b"\x00" * 3, declared_length=10),   # truncated message
    rawh2.grpc_frame(b"\x00" * 10, declared_length=1000),  # declared length larger than the data
    b"\x00\x00",                                           # not even a full prefix
])
def test_truncated_message_is_internal(server, body):
    conn = rawh2.Connection(server.port)
    response = conn.wait(conn.send_request(rawh2.grpc_headers(UNARY_CALL), body))
    conn.close()
    assert response.grpc_status == grpc.StatusCode.INTERNAL.value[0], response


def test_undecodable_message_is_internal(server):
    conn = rawh2.Connection(server.port)
    response = conn.call(UNARY_CALL, b"\xff\xff\xff\xff")
    conn.close()
    assert response.grpc_status == grpc.StatusCode.INTERNAL.value[0], response


def test_message_over_receive_limit_is_resource_exhausted(server):
    conn = rawh2.Connection(server.port)
    body = rawh2.grpc_frame(b"", declared_length=64 * 1024 * 1024)
    response = conn.wait(conn.send_request(rawh2.grpc_headers(UNARY_CALL), body, end_stream=False))
    conn.close()
    assert response.grpc_status == grpc.StatusCode.RESOURCE_EXHAUSTED.value[0], response


def test_compressed_flag_without_encoding_is_internal(server):
    conn = rawh2.Connection(server.port)
    response = conn.call(EMPTY_CALL, b"", compressed=True)
    conn.close()
    assert response.grpc_status == grpc.StatusCode.INTERNAL.value[0], response


def test_unknown_encoding_is_unimplemented_with_supported_list(server):
    conn = rawh2.Connection(server.port)
    response = conn.call(EMPTY_CALL, b"", extra_headers=[("grpc-encoding", "snappy")], compressed=True)
    conn.close()
    assert response.grpc_status == grpc.StatusCode.UNIMPLEMENTED.value[0], response
    accepted = response.headers.get("grpc-accept-encoding", "") + response.trailers.get("grpc-accept-encoding", "")
    assert "gzip" in accepted


@pytest.mark.parametrize("timeout", ["abc", "1x", "123456789S", "", "-5S"])
def test_malformed_timeout_is_refused(server, timeout):
    conn = rawh2.Connection(server.port)
    response = conn.call(EMPTY_CALL, b"", extra_headers=[("grpc-timeout", timeout)])
    conn.close()
    assert response.grpc_status not in (None, 0), response
    assert "timeout" in response.grpc_message.lower()


def test_thousands_of_streams_at_once_are_refused_beyond_the_limit(server):
    raw = rawh2.RawSocket(server.port)
    raw.handshake()
    headers = rawh2.grpc_headers(EMPTY_CALL)
    raw.send(b"".join(raw.headers_frame(2 * i + 1, headers) for i in range(3000)))
    frames, _ = raw.read_frames(timeout=3)
    raw.close()
    import hyperframe.frame
    refused = [f for f in frames if isinstance(f, hyperframe.frame.RstStreamFrame) and f.error_code in (7, 1)]
    goaway = rawh2.goaway(frames)
    # Streams past SETTINGS_MAX_CONCURRENT_STREAMS are refused one by one, or the connection is ended.
    assert len(refused) >= 2000 or (goaway is not None and goaway.error_code != 0)


def test_thousands_of_streams_opened_and_reset_end_the_connection(server):
    raw = rawh2.RawSocket(server.port)
    raw.handshake()
    headers = rawh2.grpc_headers(EMPTY_CALL)
    burst = b"".join(raw.headers_frame(2 * i + 1, headers) + raw.rst_frame(2 * i + 1) for i in range(5000))
    try:
        raw.send(burst)
    except OSError:
        pass  # the server may close while the burst is still being written
    frames, closed = raw.read_frames(timeout=5)
    raw.close()
    goaway = rawh2.goaway(frames)
    assert goaway is not None and goaway.error_code == 11  # ENHANCE_YOUR_CALM
    assert closed


def test_hundreds_of_connections_that_never_finish_their_preface_are_closed(server):
    sockets = []
    for _ in range(300):
        raw = rawh2.RawSocket(server.port)
        raw.send(rawh2.PREFACE[:10])
        sockets.append(raw)
    # The server still serves a well-formed client meanwhile.
    with server.channel() as channel:
        assert interop_stub(channel).EmptyCall(Empty(), timeout=10) == Empty()
    # The fixture's server uses --handshake-timeout 2: every stalled connection is closed.
    closed = sum(1 for raw in sockets if raw.read_frames(timeout=10)[1])
    for raw in sockets:
        raw.close()
    assert closed == 300


def test_a_call_that_stops_reading_holds_the_client_back(server):
    """A client that keeps streaming to a call whose handler no longer reads is held back by flow
    control: the server stops reopening the stream's window instead of buffering without limit.
    FullDuplexCall stops reading while its first response waits for a window this client never opens."""
    import socket
    import time

    import h2.settings

    StreamingOutputCallRequest = message("grpc.testing.StreamingOutputCallRequest")
    ResponseParameters = message("grpc.testing.ResponseParameters")
    Payload = message("grpc.testing.Payload")
    target = 200 * 1024 * 1024
    bound = 8 * 1024 * 1024

    conn = rawh2.Connection(server.port)
    conn.h2.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    stream = conn.h2.get_next_available_stream_id()
    conn.h2.send_headers(stream, rawh2.grpc_headers("/grpc.testing.TestService/FullDuplexCall"))
    first = StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=1)])
    conn.h2.send_data(stream, rawh2.grpc_frame(first.SerializeToString()))
    conn.sock.sendall(conn.h2.data_to_send())
    filler = rawh2.grpc_frame(StreamingOutputCallRequest(payload=Payload(body=b"\x00" * 65536)).SerializeToString())

    conn.sock.settimeout(0.1)
    sent = 0
    stalled_since = None
    while sent < target:
        window = min(conn.h2.local_flow_control_window(stream), conn.h2.max_outbound_frame_size)
        if window > 0:
            stalled_since = None
            offset = sent % len(filler)
            chunk = filler[offset:offset + window]
            conn.h2.send_data(stream, chunk)
            conn.sock.sendall(conn.h2.data_to_send())
            sent += len(chunk)
            continue
        # The window is shut: wait for the server to reopen it, for a while.
        if stalled_since is None:
            stalled_since = time.monotonic()
            conn.h2.ping(b"flowctl!")
            conn.sock.sendall(conn.h2.data_to_send())
        elif time.monotonic() - stalled_since > 3:
            break
        conn._read_once()
        assert not conn.closed and conn.terminated is None

    conn.h2.reset_stream(stream, error_code=8)
    try:
        conn.sock.sendall(conn.h2.data_to_send())
    except (OSError, socket.timeout):
        pass
    conn.close()
    assert sent < bound, f"the client sent {sent} bytes to a call that stopped reading"
