"""A raw HTTP/2 client (the `h2` package) for frame-level checks a gRPC library hides:
compressed-flag bits, exact trailers, malformed requests and hostile traffic."""
import gzip
import socket
import struct
import time
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events
import h2.settings
import hpack
import hyperframe.frame

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def grpc_frame(payload: bytes, compressed: bool = False, declared_length: int | None = None) -> bytes:
    """A length-prefixed gRPC message; `declared_length` lets a test lie about the size."""
    length = len(payload) if declared_length is None else declared_length
    return struct.pack(">BI", 1 if compressed else 0, length) + payload


def grpc_messages(data: bytes):
    """Splits a response body into (compressed flag, payload) pairs; payloads are decompressed."""
    out = []
    while data:
        flag, length = struct.unpack(">BI", data[:5])
        payload = data[5:5 + length]
        data = data[5 + length:]
        out.append((flag == 1, gzip.decompress(payload) if flag == 1 else payload))
    return out


@dataclass
class Response:
    headers: dict = field(default_factory=dict)
    data: bytes = b""
    trailers: dict = field(default_factory=dict)
    reset_code: int | None = None
    ended: bool = False

    @property
    def grpc_status(self):
        value = self.trailers.get("grpc-status", self.headers.get("grpc-status"))
        return None if value is None else int(value)

    @property
    def grpc_message(self):
        return self.trailers.get("grpc-message", self.headers.get("grpc-message", ""))


def grpc_headers(path: str, extra=()):
    return [
        (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
        ("content-type", "application/grpc"), ("te", "trailers"), *extra,
    ]


class Connection:
    """One HTTP/2 connection over a plain socket."""

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.h2.initiate_connection()
        self.sock.sendall(self.h2.data_to_send())
        self.responses: dict[int, Response] = {}
        self.terminated: h2.events.ConnectionTerminated | None = None
        self.closed = False

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send_request(self, headers, body: bytes | None = b"", end_stream: bool = True) -> int:
        stream_id = self.h2.get_next_available_stream_id()
        self.h2.send_headers(stream_id, headers, end_stream=body is None and end_stream)
        self.responses[stream_id] = Response()
        if body is not None:
            self._send_body(stream_id, body, end_stream)
        self.sock.sendall(self.h2.data_to_send())
        return stream_id

    def _send_body(self, stream_id, body, end_stream):
        if not body:
            if end_stream:
                self.h2.end_stream(stream_id)
            return
        # Respect flow control: wait for window updates while the body is larger than the window.
        while body:
            window = min(self.h2.local_flow_control_window(stream_id), self.h2.max_outbound_frame_size)
            if window <= 0:
                self.sock.sendall(self.h2.data_to_send())
                self._read_once()
                continue
            chunk, body = body[:window], body[window:]
            self.h2.send_data(stream_id, chunk, end_stream=end_stream and not body)

    def call(self, path: str, payload: bytes = b"", extra_headers=(), compressed=False, timeout=10.0) -> Response:
        """A unary gRPC call with a raw payload (already packed protobuf)."""
        stream_id = self.send_request(grpc_headers(path, extra_headers), grpc_frame(payload, compressed))
        return self.wait(stream_id, timeout)

    def wait(self, stream_id: int, timeout: float = 10.0) -> Response:
        deadline = time.monotonic() + timeout
        response = self.responses[stream_id]
        while not response.ended and not self.closed and time.monotonic() < deadline:
            self._read_once()
        return response

    def wait_closed(self, timeout: float = 10.0) -> bool:
        """True when the server closed the connection within the timeout."""
        deadline = time.monotonic() + timeout
        while not self.closed and time.monotonic() < deadline:
            self._read_once()
        return self.closed

    def _read_once(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            return
        except OSError:
            self.closed = True
            return
        if not data:
            self.closed = True
            return
        try:
            events = self.h2.receive_data(data)
        except Exception:
            self.closed = True
            return
        for event in events:
            self._handle(event)
        pending = self.h2.data_to_send()
        if pending:
            try:
                self.sock.sendall(pending)
            except OSError:
                self.closed = True

    def _handle(self, event):
        stream_id = getattr(event, "stream_id", None)
        response = self.responses.get(stream_id) if stream_id else None
        if isinstance(event, h2.events.ResponseReceived) and response:
            response.headers = dict(event.headers)
        elif isinstance(event, h2.events.DataReceived) and response:
            response.data += event.data
            self.h2.acknowledge_received_data(event.flow_controlled_length, stream_id)
        elif isinstance(event, h2.events.TrailersReceived) and response:
            response.trailers = dict(event.headers)
        elif isinstance(event, h2.events.StreamEnded) and response:
            response.ended = True
        elif isinstance(event, h2.events.StreamReset) and response:
            response.reset_code = event.error_code
            response.ended = True
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.terminated = event


class RawSocket:
    """A socket that writes hand-made HTTP/2 frames, for traffic no well-behaved client sends."""

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.encoder = hpack.Encoder()

    def send(self, data: bytes):
        self.sock.sendall(data)

    def handshake(self):
        self.send(PREFACE + hyperframe.frame.SettingsFrame(0).serialize())

    def headers_frame(self, stream_id: int, headers, end_stream=False) -> bytes:
        frame = hyperframe.frame.HeadersFrame(stream_id)
        frame.data = self.encoder.encode(headers)
        frame.flags.add("END_HEADERS")
        if end_stream:
            frame.flags.add("END_STREAM")
        return frame.serialize()

    @staticmethod
    def rst_frame(stream_id: int, code: int = 8) -> bytes:
        return hyperframe.frame.RstStreamFrame(stream_id, error_code=code).serialize()

    def read_frames(self, timeout: float = 5.0):
        """Reads frames until the server closes the socket or the timeout passes.
        Returns (frames, closed)."""
        self.sock.settimeout(0.5)
        buffer = b""
        frames = []
        deadline = time.monotonic() + timeout
        closed = False
        while time.monotonic() < deadline:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            buffer += chunk
            while len(buffer) >= 9:
                frame, length = hyperframe.frame.Frame.parse_frame_header(memoryview(buffer[:9]))
                if len(buffer) < 9 + length:
                    break
                frame.parse_body(memoryview(buffer[9:9 + length]))
                frames.append(frame)
                buffer = buffer[9 + length:]
        return frames, closed

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def goaway(frames):
    for frame in frames:
        if isinstance(frame, hyperframe.frame.GoAwayFrame):
            return frame
    return None
