"""The driver behind bench/compare: starts each server in turn on CPU 0, checks that it answers
correctly, drives it with h2load on CPU 1, and reports requests/s, latency, server CPU per call,
peak memory and memory per idle connection, with Souk's ratio to each peer.

Run it through bench/compare, which installs and builds everything first.
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "runtime"))
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

import frames  # noqa: E402  (request bodies and the idle-connection probe shared with bench/runtime)
import grpc  # noqa: E402
import souk_protos  # noqa: E402
from google.protobuf import descriptor_pb2  # noqa: E402

OUT = ROOT / "bench" / "out" / "compare"
PEER_BIN = ROOT / ".build-peers" / "bin"
SERVER_CPU, CLIENT_CPU = "0", "1"
TICKS = os.sysconf("SC_CLK_TCK")

# name -> (path, response payload size); request and response payloads are the same size.
WORKLOADS = {
    "EmptyCall": ("/grpc.testing.TestService/EmptyCall", None),
    "UnaryCall1KiB": ("/grpc.testing.TestService/UnaryCall", 1024),
    "UnaryCall64KiB": ("/grpc.testing.TestService/UnaryCall", 65536),
}
SHAPES = [(1, 100), (64, 10)]  # (connections, streams per connection)

# Souk's targets against each peer: minimum req/s ratio (p99 must be no worse for the gRPC peers).
TARGETS = {"grpc-cpp": 1.0, "grpc-go": 1.5, "grpc-swift": 3.0, "nghttpd": 0.6}


# --- messages ---------------------------------------------------------------------------------

def load_test_protos():
    """Makes souk_protos know grpc.testing even when Generated/souk.desc lacks it (it is written by
    scripts/generate): compiles the interop protos with protoc and adds the missing files."""
    try:
        souk_protos._pool.FindMessageTypeByName("grpc.testing.SimpleRequest")
        return
    except KeyError:
        pass
    desc = ROOT / ".build-peers" / "grpc-testing.desc"
    desc.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["protoc", "-I", str(ROOT / "Proto"), "--include_imports", f"--descriptor_set_out={desc}",
                    "grpc/testing/test.proto"], check=True)
    for file in descriptor_pb2.FileDescriptorSet.FromString(desc.read_bytes()).file:
        try:
            souk_protos._pool.FindFileByName(file.name)
        except KeyError:
            souk_protos._pool.Add(file)


def simple_request(size):
    m = souk_protos.message
    return m("grpc.testing.SimpleRequest")(response_size=size, payload=m("grpc.testing.Payload")(body=bytes(size)))


def request_body(workload):
    """The gRPC-framed request h2load sends (bench/runtime/frames.py's bodies where it has them)."""
    if workload in ("EmptyCall", "UnaryCall1KiB"):
        return frames.request_body(workload)
    return frames.grpc_body(simple_request(WORKLOADS[workload][1]).SerializeToString())


def response_body(workload):
    """The gRPC-framed response a correct server sends; nghttpd serves exactly these bytes."""
    size = WORKLOADS[workload][1]
    if size is None:
        return frames.grpc_body(b"")
    m = souk_protos.message
    response = m("grpc.testing.SimpleResponse")(payload=m("grpc.testing.Payload")(body=bytes(size)))
    return frames.grpc_body(response.SerializeToString())


# --- servers ----------------------------------------------------------------------------------

class Server:
    """One server under test: how to start it, and whether it speaks gRPC or serves static files."""

    def __init__(self, name, binary, argv, grpc_server=True):
        self.name, self.binary, self.argv, self.grpc = name, pathlib.Path(binary), argv, grpc_server
        self.skip_reason = None

    def command(self, port, workdir):
        return [str(self.binary)] + [a.format(port=port, dir=workdir) for a in self.argv]


def all_servers(souk_bin):
    return [
        Server("souk", souk_bin, ["--host", "127.0.0.1", "--port", "{port}", "--data-dir", "{dir}/data",
                                  "--enable-test-service", "--log-level", "error",
                                  "--max-concurrent-streams", "1000", "--idle-timeout", "600"]),
        Server("grpc-cpp", PEER_BIN / "grpc-cpp-peer", ["--port", "{port}"]),
        Server("grpc-go", PEER_BIN / "grpc-go-peer", ["--port", "{port}"]),
        Server("grpc-swift", PEER_BIN / "grpc-swift-peer", ["--port", "{port}"]),
        # One worker and Souk's stream limit. Its 64 KiB default flow-control windows would stall
        # 64 KiB uploads on WINDOW_UPDATE round trips, which the gRPC servers avoid by growing
        # their windows, so the ceiling gets 1 MiB per stream and 16 MiB per connection.
        # The static files are written per start (htdocs).
        Server("nghttpd", shutil.which("nghttpd") or "/usr/sbin/nghttpd",
               ["--no-tls", "-a", "127.0.0.1", "-n", "1", "-m", "1000", "-w", "20", "-W", "24",
                "-d", "{dir}/htdocs", "{port}"],
               grpc_server=False),
    ]


def raise_fd_limit():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Running:
    """A started server process pinned to SERVER_CPU, stopped on exit from the with-block."""
    # Below Linux's ephemeral range (32768 and up by default): the 10,000 client sockets of the idle
    # probe take ephemeral ports, and a server port among them failed to bind (address in use).
    next_port = 20300

    def __init__(self, server):
        self.server = server
        Running.next_port += 1  # a fresh port per start: earlier runs' TIME_WAIT sockets never collide
        self.port = Running.next_port

    def __enter__(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f"compare-{self.server.name}-"))
        htdocs = self.dir / "htdocs"
        htdocs.mkdir()
        (self.dir / "data").mkdir()
        for workload in WORKLOADS:
            (htdocs / workload).write_bytes(response_body(workload))
        OUT.mkdir(parents=True, exist_ok=True)
        self.log = open(OUT / f"{self.server.name}.log", "ab")
        self.proc = subprocess.Popen(["taskset", "-c", SERVER_CPU] + self.server.command(self.port, self.dir),
                                     stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=raise_fd_limit)
        self.pid = self.proc.pid  # taskset execs the server, so the pid is the server's
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                self.__exit__()
                raise RuntimeError(f"exited with status {self.proc.returncode} (see {OUT / self.server.name}.log)")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.__exit__()
                    raise RuntimeError(f"does not accept connections on port {self.port} after 30 s")
                time.sleep(0.1)

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def cpu_seconds(self):
        fields = pathlib.Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime, all threads

    def peak_rss_mib(self):
        return frames.rss(self.pid, "VmHWM") / 1024


# --- checks -----------------------------------------------------------------------------------

def verify_grpc(port):
    """Every workload's call through grpcio: status OK and a payload of the requested size."""
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = souk_protos.interop_stub(channel)
        stub.EmptyCall(souk_protos.message("grpc.testing.Empty")(), timeout=10)
        for workload, (_, size) in WORKLOADS.items():
            if size is None:
                continue
            reply = stub.UnaryCall(simple_request(size), timeout=10)
            if reply.payload.body != bytes(size):
                raise RuntimeError(f"{workload}: payload of {len(reply.payload.body)} bytes, expected {size} zero bytes")


def verify(server, bodies):
    """Starts the server once and checks it answers every workload correctly; returns None or why not."""
    if not server.binary.exists():
        return f"{server.binary} not found (not built, or its build failed)"
    try:
        with Running(server) as running:
            if server.grpc:
                verify_grpc(running.port)
            for workload in WORKLOADS:
                result = h2load(server, running.port, workload, bodies[workload], 2, 5, requests=200)
                problem = check(result, workload)
                if problem:
                    raise RuntimeError(f"{workload} through h2load: {problem}")
    except grpc.RpcError as error:
        return f"does not answer correctly: {error.code().name} {error.details()}"
    except Exception as error:  # any failure means the server must not be measured
        return f"does not answer correctly: {error}"
    return None


def check(result, workload):
    """Why an h2load run cannot be trusted, or None: every request must succeed with the right body."""
    if result["succeeded"] == 0:
        return "no request succeeded"
    if result["failed"] or result["errored"]:
        return f"{result['failed']} failed and {result['errored']} errored requests"
    per_request = result["data_bytes"] / result["succeeded"]
    expected = len(response_body(workload))
    if abs(per_request - expected) > 0.02 * expected + 1:
        return f"{per_request:.1f} response bytes per request, expected {expected} (a gRPC error answers no message)"
    return None


# --- h2load -----------------------------------------------------------------------------------

def h2load(server, port, workload, body_path, connections, streams, duration=None, requests=None, log_file=None):
    path = WORKLOADS[workload][0] if server.grpc else "/" + workload
    argv = ["taskset", "-c", CLIENT_CPU, "h2load", "-c", str(connections), "-m", str(streams),
            "-d", str(body_path), "-H", "content-type: application/grpc", "-H", "te: trailers"]
    argv += ["-D", str(duration)] if duration else ["-n", str(requests)]
    if log_file:
        argv += ["--log-file", str(log_file)]
    argv.append(f"http://127.0.0.1:{port}{path}")
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=raise_fd_limit)
    output = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"h2load exited with {proc.returncode}: {output[-500:]}")
    counts = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                       r"(\d+) errored", output)
    traffic = re.search(r"traffic: .*?\((\d+)\) total, .*?\((\d+)\) headers .*?\((\d+)\) data", output)
    rate = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", output)
    if not (counts and traffic and rate):
        raise RuntimeError(f"unexpected h2load output: {output[-500:]}")
    return {
        "rate": float(rate.group(1)),
        "succeeded": int(counts.group(4)), "failed": int(counts.group(5)), "errored": int(counts.group(6)),
        "data_bytes": int(traffic.group(3)),
        "client_cpu": (usage.ru_utime + usage.ru_stime) / wall,
        "output": output,
    }


def percentiles(log_file):
    durations = sorted(int(line.split("\t")[2]) for line in log_file.read_text().splitlines() if line)
    if not durations:
        return None, None
    return durations[len(durations) // 2] / 1000, durations[min(len(durations) - 1, int(len(durations) * 0.99))] / 1000


def measure(server, workload, shape, bodies, args):
    """One fresh server start: warm-up, then the measured window. Returns the run's record."""
    connections, streams = shape
    record = {"server": server.name, "workload": workload, "connections": connections, "streams": streams}
    try:
        with Running(server) as running:
            h2load(server, running.port, workload, bodies[workload], connections, streams, duration=args.warmup)
            log_file = OUT / f"{server.name}-{workload}-{connections}x{streams}.log"
            cpu_before = running.cpu_seconds()
            result = h2load(server, running.port, workload, bodies[workload], connections, streams,
                            duration=args.duration, log_file=log_file)
            cpu = running.cpu_seconds() - cpu_before
            peak = running.peak_rss_mib()
    except Exception as error:
        record["invalid"] = str(error)
        return record
    p50, p99 = percentiles(log_file)
    log_file.unlink()
    record.update(rate=result["rate"], p50_ms=p50, p99_ms=p99, peak_rss_mib=peak,
                  cpu_per_100k=cpu / result["succeeded"] * 100_000 if result["succeeded"] else None,
                  server_cpu=cpu / args.duration, client_cpu=result["client_cpu"],
                  succeeded=result["succeeded"])
    problem = check(result, workload)
    if problem:
        record["invalid"] = problem
    return record


def measure_idle(server, count):
    """Opens `count` connections that send only the HTTP/2 preface and SETTINGS; RSS per connection."""
    record = {"server": server.name, "workload": "idle", "connections": count}
    try:
        with Running(server) as running:
            time.sleep(0.5)
            proc = subprocess.run(["taskset", "-c", CLIENT_CPU, sys.executable, str(ROOT / "bench/runtime/frames.py"),
                                   "idle", str(running.port), str(count), str(running.pid)],
                                  capture_output=True, text=True, preexec_fn=raise_fd_limit, timeout=600)
            peak = running.peak_rss_mib()
    except Exception as error:
        record["invalid"] = str(error)
        return record
    found = re.search(r"(\d+) opened, (\d+) still open; RSS ([\d.]+) -> ([\d.]+) MiB; ([-\d,]+) bytes per connection",
                      proc.stdout)
    if proc.returncode != 0 or not found:
        record["invalid"] = f"idle probe failed: {(proc.stdout + proc.stderr)[-300:]}"
        return record
    record.update(open=int(found.group(2)), rss_before_mib=float(found.group(3)),
                  rss_after_mib=float(found.group(4)), bytes_per_connection=int(found.group(5).replace(",", "")),
                  peak_rss_mib=peak)
    if record["open"] < count:
        record["invalid"] = f"only {record['open']} of {count} connections stayed open"
    return record


# --- report -----------------------------------------------------------------------------------

def median(records, key):
    values = [r[key] for r in records if r.get(key) is not None]
    return statistics.median(values) if values else None


def fmt(value, spec):
    return "—" if value is None else format(value, spec)


def ratio_cell(souk, peer, name):
    """Souk's req/s over the peer's, with the target and whether p99 is no worse."""
    if not souk or souk["rate"] is None or peer["rate"] is None:
        return "—"
    ratio = souk["rate"] / peer["rate"]
    target = TARGETS.get(name)
    cell = f"{ratio:.2f}×"
    if target:
        met = ratio >= target and (name == "nghttpd" or (souk["p99_ms"] or 0) <= (peer["p99_ms"] or 0))
        cell += f" (target ≥{target:g}×{'' if name == 'nghttpd' else ', p99 ≤'}: {'met' if met else 'not met'})"
    return cell


def summarize(records, servers, workloads, args):
    lines = []
    names = [s.name for s in servers]
    for workload in workloads:
        for connections, streams in SHAPES:
            lines += [f"### {workload}, {connections} connection{'s' if connections > 1 else ''} × {streams} streams", "",
                      "| server | req/s | p50 ms | p99 ms | server CPU s / 100k calls | server CPU use | "
                      "client CPU use | peak RSS MiB | Souk req/s ÷ this |",
                      "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
            rows = {}
            for name in names:
                mine = [r for r in records if r["server"] == name and r["workload"] == workload
                        and r["connections"] == connections and r["streams"] == streams]
                good = [r for r in mine if "invalid" not in r]
                if not mine:
                    continue
                rows[name] = {k: median(good, k) for k in
                              ("rate", "p50_ms", "p99_ms", "cpu_per_100k", "server_cpu", "client_cpu")}
                rows[name]["peak_rss_mib"] = max((r["peak_rss_mib"] for r in good), default=None)
                rows[name]["runs"] = f"{len(good)}/{len(mine)}"
            for name, row in rows.items():
                note = "" if row["runs"].split("/")[0] == row["runs"].split("/")[1] else f" ({row['runs']} runs valid)"
                client = fmt(row["client_cpu"], ".0%") + (" ⚠" if (row["client_cpu"] or 0) > 0.9 else "")
                lines.append(f"| {name}{note} | {fmt(row['rate'], ',.0f')} | {fmt(row['p50_ms'], '.2f')} | "
                             f"{fmt(row['p99_ms'], '.2f')} | {fmt(row['cpu_per_100k'], '.2f')} | "
                             f"{fmt(row['server_cpu'], '.0%')} | {client} | {fmt(row['peak_rss_mib'], '.1f')} | "
                             f"{'' if name == 'souk' else ratio_cell(rows.get('souk'), row, name)} |")
            lines.append("")
    idle = [r for r in records if r["workload"] == "idle"]
    if idle:
        lines += [f"### {args.idle_connections:,} idle connections", "",
                  "| server | connections held | RSS before MiB | RSS after MiB | bytes per connection | "
                  "Souk bytes ÷ this (lower is better) |", "|---|---:|---:|---:|---:|---|"]
        rows = {}
        for name in names:
            good = [r for r in idle if r["server"] == name and "invalid" not in r]
            if good:
                rows[name] = {k: median(good, k) for k in ("open", "rss_before_mib", "rss_after_mib",
                                                           "bytes_per_connection")}
        for name, row in rows.items():
            souk = rows.get("souk")
            ratio = "" if name == "souk" or not souk or not row["bytes_per_connection"] else \
                f"{souk['bytes_per_connection'] / row['bytes_per_connection']:.2f}×"
            lines.append(f"| {name} | {row['open']:,.0f} | {row['rss_before_mib']:.1f} | {row['rss_after_mib']:.1f} | "
                         f"{row['bytes_per_connection']:,.0f} | {ratio} |")
        lines.append("")
    invalid = [r for r in records if "invalid" in r]
    if invalid:
        lines += ["Runs left out of the medians:", ""]
        lines += [f"- {r['server']} {r['workload']} {r['connections']}×{r.get('streams', '')}: {r['invalid']}"
                  for r in invalid]
        lines.append("")
    return lines


def tool_versions():
    def run(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except Exception:
            return "?"

    def deb(package):
        return run(["dpkg-query", "-W", "-f=${Version}", package])

    return {
        "h2load / nghttpd": f"nghttp2 {deb('nghttp2-server')}",
        "grpc C++": f"libgrpc++ {deb('libgrpc++-dev')} (Debian), protobuf {deb('libprotobuf-dev')}",
        "grpc-go": f"golang-google-grpc-dev {deb('golang-google-grpc-dev')}, {run(['go', 'version'])}",
        "grpc-swift": "grpc-swift-2 2.4.3, grpc-swift-nio-transport 2.9.2, grpc-swift-protobuf 2.4.1, swift-protobuf 1.39.0",
        "swift": run(["swift", "--version"]),
    }


def machine():
    model = next((line.split(":", 1)[1].strip() for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    return f"{os.cpu_count()} CPUs ({model}), Linux {platform.release()}"


def load_note(load_at_start):
    """Whether anything else competed for the CPUs: a busy machine makes the figures unreliable."""
    note = f"load average {load_at_start:.2f} at start, {os.getloadavg()[0]:.2f} at end"
    if os.nice(0) > 0:
        note += f"; run at nice {os.nice(0)}"
    return note


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--souk-bin", required=True)
    parser.add_argument("--command", default="bench/compare")
    parser.add_argument("--quick", action="store_true", help="one round, 1 s warm-up, 3 s windows")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--duration", type=int, help="measured window, seconds")
    parser.add_argument("--warmup", type=int, help="warm-up, seconds")
    parser.add_argument("--servers", help="comma-separated subset of souk,grpc-cpp,grpc-go,grpc-swift,nghttpd")
    parser.add_argument("--workloads", help="comma-separated subset of " + ",".join(WORKLOADS))
    parser.add_argument("--idle-connections", type=int, default=10_000, help="0 skips the idle test")
    parser.add_argument("--record", action="store_true", help="also write the report to bench/RESULTS.md")
    args = parser.parse_args()
    args.rounds = args.rounds or (1 if args.quick else 3)
    args.duration = args.duration or (3 if args.quick else 10)
    args.warmup = args.warmup or (1 if args.quick else 3)

    load_at_start = os.getloadavg()[0]
    load_test_protos()
    servers = all_servers(args.souk_bin)
    if args.servers:
        wanted = args.servers.split(",")
        servers = [s for s in servers if s.name in wanted]
    workloads = args.workloads.split(",") if args.workloads else list(WORKLOADS)
    OUT.mkdir(parents=True, exist_ok=True)
    for old_log in OUT.glob("*.log"):
        old_log.unlink()
    bodies = {}
    for workload in WORKLOADS:
        bodies[workload] = OUT / f"{workload}.bin"
        bodies[workload].write_bytes(request_body(workload))

    print(f"server on CPU {SERVER_CPU}, h2load on CPU {CLIENT_CPU}; {args.rounds} round(s), "
          f"{args.warmup} s warm-up, {args.duration} s measured window", flush=True)
    skipped = []
    for server in servers:
        server.skip_reason = verify(server, bodies)
        if server.skip_reason:
            label = "Souk" if server.name == "souk" else server.name
            message = f"{label} skipped: {server.skip_reason}"
            skipped.append(message)
            print(message, flush=True)
        else:
            print(f"{server.name}: answers every workload correctly", flush=True)
    measured = [s for s in servers if not s.skip_reason]

    records = []
    for round_index in range(args.rounds):
        order = measured[round_index % len(measured):] + measured[:round_index % len(measured)] if measured else []
        for workload in workloads:
            for shape in SHAPES:
                for server in order:
                    record = measure(server, workload, shape, bodies, args)
                    record["round"] = round_index + 1
                    records.append(record)
                    print(f"round {round_index + 1} {workload:<15} {shape[0]:>2}×{shape[1]:<3} {server.name:<10} "
                          + (f"INVALID: {record['invalid']}" if "invalid" in record else
                             f"{record['rate']:>10,.0f} req/s  p50 {record['p50_ms']:.2f} ms  p99 {record['p99_ms']:.2f} ms  "
                             f"cpu {record['cpu_per_100k']:.2f} s/100k  client cpu {record['client_cpu']:.0%}"),
                          flush=True)
        if args.idle_connections:
            for server in order:
                record = measure_idle(server, args.idle_connections)
                record["round"] = round_index + 1
                records.append(record)
                print(f"round {round_index + 1} idle {args.idle_connections} {server.name:<10} "
                      + (f"INVALID: {record['invalid']}" if "invalid" in record else
                         f"{record['bytes_per_connection']:,} bytes per connection"), flush=True)

    (OUT / "runs.json").write_text(json.dumps(records, indent=1))
    souk_measured = any(s.name == "souk" for s in measured)
    now = datetime.datetime.now(datetime.timezone.utc)
    report = [
        "# Souk against the servers people would pick instead" + ("" if souk_measured else " (peers only)"), "",
        f"- date: {now:%Y-%m-%d %H:%M} UTC",
        f"- machine: {machine()}; {load_note(load_at_start)}",
        f"- command: `{args.command}`",
        f"- method: each server started fresh per run, pinned to CPU {SERVER_CPU} (`taskset`); h2load pinned to "
        f"CPU {CLIENT_CPU}; {args.warmup} s warm-up, then a {args.duration} s measured window; {args.rounds} "
        "round(s), servers interleaved (order rotated each round); medians over rounds (peak RSS: maximum). "
        "Latency from h2load's per-request log; server CPU from /proc/PID/stat utime+stime over the window; "
        "peak RSS is VmHWM. A client CPU use near 100% (⚠) means h2load, not the server, was the limit.",
    ]
    report += [f"- {name}: {version}" for name, version in tool_versions().items()]
    if load_at_start > 0.5 or os.nice(0) > 0:
        report += ["", "**The machine was not idle (see the load average above): other processes took CPU time "
                   "from both sides, so these figures check that the harness works and do not compare the "
                   "servers.** A server CPU use well under 100% with a client CPU use well under 100% shows it."]
    if not souk_measured:
        report += ["", "**Peers only: Souk was not measured.**"]
    report += [f"- {message}" for message in skipped]
    report += ["", "Targets for Souk: ≥1.0× grpc C++, ≥1.5× grpc-go, ≥3× grpc-swift req/s with p99 no worse; "
               "≥60% of nghttpd (the HTTP/2 ceiling: a static file of the same bytes as the gRPC response).", ""]
    report += summarize(records, servers, workloads, args)
    text = "\n".join(report) + "\n"
    (OUT / "report.md").write_text(text)
    print()
    print(text)
    if args.record:
        (ROOT / "bench" / "RESULTS.md").write_text(text)
        print("written to bench/RESULTS.md")


if __name__ == "__main__":
    main()
