"""Helpers for bench/runtime/run: pre-encoded gRPC request bodies, the h2load report, and the
idle-connection measurement."""
import pathlib
import re
import socket
import statistics
import struct
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "e2e"))


def grpc_body(payload: bytes) -> bytes:
    return struct.pack(">BI", 0, len(payload)) + payload


def request_body(workload: str) -> bytes:
    from souk_protos import message
    if workload == "EmptyCall":
        return grpc_body(b"")
    request = message("grpc.testing.SimpleRequest")(
        response_size=1024, payload=message("grpc.testing.Payload")(body=b"\x00" * 1024))
    return grpc_body(request.SerializeToString())


def rss(pid: int, field: str = "VmRSS") -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(field)


def report(workload, summary_path, log_path, pid):
    summary = pathlib.Path(summary_path).read_text()
    rate = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", summary).group(1))
    ok = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed", summary)
    durations = sorted(int(line.split("\t")[2]) for line in pathlib.Path(log_path).read_text().splitlines() if line)
    p50 = durations[len(durations) // 2] / 1000
    p99 = durations[int(len(durations) * 0.99)] / 1000
    peak = rss(int(pid), "VmHWM") / 1024
    print(f"{workload:<22} {rate:>12,.0f} {p50:>10.2f} {p99:>10.2f} {peak:>12.1f}   "
          f"(succeeded {ok.group(1)}, failed {ok.group(2)})")


def wait(port):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", int(port)), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("server did not start")


def idle(port, count, pid):
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
    before = rss(int(pid))
    sockets = []
    for _ in range(int(count)):
        s = socket.create_connection(("127.0.0.1", int(port)))
        s.sendall(preface)
        sockets.append(s)
    time.sleep(2)  # let the server finish every handshake before reading its RSS
    after = rss(int(pid))
    alive = 0
    for s in sockets:
        s.setblocking(False)
        try:
            alive += s.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    print(f"idle connections: {count} opened, {alive} still open; RSS {before / 1024:.1f} -> {after / 1024:.1f} MiB; "
          f"{(after - before) * 1024 / int(count):,.0f} bytes per connection")
    for s in sockets:
        s.close()


if __name__ == "__main__":
    command = sys.argv[1]
    if command in ("EmptyCall", "UnaryCall1KiB"):
        sys.stdout.buffer.write(request_body(command))
    elif command == "report":
        report(*sys.argv[2:])
    elif command == "wait":
        wait(sys.argv[2])
    elif command == "idle":
        idle(*sys.argv[2:])
