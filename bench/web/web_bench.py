"""Calls per second of the same calls through gRPC and through the web edge's protocols, on one
souk-server (CPU 0) driven by h2load (CPU 1), interleaved over rounds; the ratio to gRPC is the
figure (goal: at least 0.8). Workloads: grpc.testing UnaryCall with 1 KiB each way (the protocol's
own cost), and Catalog.ListProducts of 5 products of a demo shop (a real read, with the JSON
mapping of a real answer).

Beside each rate: the server's CPU time per call (every thread, from /proc) and h2load's. When
h2load's core is the one that is full (HTTP/1.1: one request per connection at a time, so a
read and a write on each side for every call), the rate is h2load's and not the server's; the
server's calls per CPU-second then say what it can serve, and their ratio to gRPC's is shown too."""
import argparse
import json
import pathlib
import os
import re
import resource
import statistics
import struct
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

from conftest import IdentityServer  # noqa: E402
from souk_client import pb  # noqa: E402
from souk_protos import message  # noqa: E402
from google.protobuf import json_format  # noqa: E402

SERVER_CPU, CLIENT_CPU = "0", "1"


def frame(body: bytes) -> bytes:
    return struct.pack(">BI", 0, len(body)) + body


def workloads(marketplace_id):
    simple = message("grpc.testing.SimpleRequest")(response_size=1024, payload=message("grpc.testing.Payload")(body=b"\0" * 1024))
    products = pb.ListProductsRequest(marketplace_id=marketplace_id, page_size=5)
    calls = {
        "UnaryCall 1 KiB": ("/grpc.testing.TestService/UnaryCall", simple),
        "ListProducts (5)": ("/souk.v1.Catalog/ListProducts", products),
    }
    out = {}
    for name, (path, request) in calls.items():
        binary = request.SerializeToString()
        as_json = json.dumps(json_format.MessageToDict(request)).encode()
        out[name] = [
            ("gRPC", path, frame(binary), ["content-type: application/grpc", "te: trailers"], False),
            ("gRPC-Web", path, frame(binary), ["content-type: application/grpc-web+proto", "x-grpc-web: 1"], False),
            ("gRPC-Web HTTP/1.1", path, frame(binary), ["content-type: application/grpc-web+proto", "x-grpc-web: 1"], True),
            ("gRPC-Web +json", path, frame(as_json), ["content-type: application/grpc-web+json", "x-grpc-web: 1"], False),
            ("JSON (Connect)", path, as_json, ["content-type: application/json"], False),
            ("JSON HTTP/1.1", path, as_json, ["content-type: application/json"], True),
        ]
    return out


def cpu_seconds(pid):
    """User and system CPU seconds of every thread of `pid` so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def h2load(server_pid, port, path, body, headers, h1, connections, streams, duration):
    """Calls per second, and the server's and h2load's CPU microseconds per call."""
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(body)
    # HTTP/1.1 carries one request at a time per connection: as many connections as HTTP/2 has streams.
    argv = ["taskset", "-c", CLIENT_CPU, "h2load", "-c", str(connections * streams if h1 else connections), "-m", str(1 if h1 else streams),
            "-D", str(duration), "-d", f.name]
    if h1:
        argv.append("--h1")
    for header in headers:
        argv += ["-H", header]
    argv.append(f"http://127.0.0.1:{port}{path}")
    server_before, client_before = cpu_seconds(server_pid), children_cpu_seconds()
    output = subprocess.run(argv, capture_output=True, text=True).stdout
    server_cpu, client_cpu = cpu_seconds(server_pid) - server_before, children_cpu_seconds() - client_before
    counts = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored", output)
    rate = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", output)
    status = re.search(r"status codes: (\d+) 2xx", output)
    if not (counts and rate):
        raise RuntimeError(f"unexpected h2load output: {output[-800:]}")
    if int(counts.group(2)) or int(counts.group(3)):
        raise RuntimeError(f"failed calls: {output[-800:]}")
    calls = int(counts.group(1))
    return float(rate.group(1)), server_cpu / calls * 1e6, client_cpu / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--streams", type=int, default=10, help="streams per HTTP/2 connection (HTTP/1.1: connections × streams connections, one request at a time each)")
    args = parser.parse_args()

    server = IdentityServer(3600)
    # Every thread of the server (its event loops and handler threads already run).
    subprocess.run(["taskset", "-a", "-pc", SERVER_CPU, str(server.process.pid)], check=True, capture_output=True)
    try:
        marketplace = server.marketplace_id("Chateau Du Nox")
        rates = {}
        for round_index in range(args.rounds):
            for name, variants in workloads(marketplace).items():
                for label, path, body, headers, h1 in variants:
                    rates.setdefault((name, label), []).append(
                        h2load(server.process.pid, server.port, path, body, headers, h1, args.connections, args.streams, args.duration))
        print(f"\n{args.rounds} rounds of {args.duration} s, {args.connections} connections × {args.streams} streams "
              f"(HTTP/1.1: {args.connections * args.streams} connections, one request at a time each); server on CPU {SERVER_CPU}, h2load on CPU {CLIENT_CPU}\n")
        print("| call | protocol | median req/s | ÷ gRPC | server µs CPU/call | h2load µs CPU/call | server calls per CPU-s ÷ gRPC |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name in workloads(marketplace):
            grpc = [statistics.median(column) for column in zip(*rates[(name, "gRPC")])]
            for label, *_ in workloads(marketplace)[name]:
                rate, server_us, client_us = (statistics.median(column) for column in zip(*rates[(name, label)]))
                print(f"| {name} | {label} | {rate:,.0f} | {rate / grpc[0]:.2f} | {server_us:.2f} | {client_us:.2f} | {grpc[1] / server_us:.2f} |")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
