"""Open account streams at scale against a real souk-server (see bench/streams/run).

Streams are held by a small raw HTTP/2 client (asyncio, hand-made frames: a stream costs the
client a few bytes, so 10,000 fit in one Python process), `--per-connection` streams on each
connection. The server's windows are opened wide at the start (SETTINGS_INITIAL_WINDOW_SIZE and a
connection WINDOW_UPDATE), so flow control never holds a delivery back.

1. Memory per idle stream: `--streams` WatchAccount streams of one Drip 'n Dash student are
   opened over `--streams / --per-connection` connections. The server's RSS is read with every
   connection open and no stream, with half the streams open, and with all open, each time once
   it has settled (the server's jemalloc returns freed pages at once, `dirty_decay_ms:0`, so the
   transient of opening 5,000 streams at once does not count); the figure
   is the slope between half and all (it leaves out the connections and one-time growth), and
   all the streams' growth over the connections alone is shown beside it.
2. Commit to delivery on every stream: `--commits` changes of the student's laundry job (each
   stage a Dasher advances notifies the student: one commit appends one event to the student's
   stream, which all `--streams` streams follow), one at a time; for each, the time from the
   event's commit (its `event_time`, taken when its transaction starts, so the figure includes
   the commit's own work; with --sync none, the default here, no fsync) to its arrival on each stream, read by the client as it reads the
   socket. p50/p99/max over all deliveries; and the spread, each arrival's time after the
   commit's first arrival (what the fan-out to 10,000 adds, without the transaction's own time).
3. Chat: `--conversations` students each watch their own account on one stream; each has a
   laundry job with a Dasher of its own and a conversation with that Dasher about the job. The
   Dashers send `--messages` messages each (`Messaging.SendMessage`, `--writers` threads at once);
   each message reaches its reader's stream as a notification (kind MESSAGE) and as the
   conversation's new state. Messages per second = messages whose notification arrived on the
   reader's stream / wall time from the first send to the last arrival, with each stream checked
   to get its messages in order, each once.
"""
import argparse
import asyncio
import os
import pathlib
import platform
import statistics
import struct
import sys
import tempfile
import threading
import time
import uuid

import grpc
import hpack

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
os.environ.setdefault("SOUK_SERVER", str(ROOT / ".build" / "release" / "souk-server"))

from conftest import IdentityServer  # noqa: E402
from souk_identity import Api, create_marketplace, operator_party, pb  # noqa: E402
from souk_protos import Stub, enum, message  # noqa: E402
from test_laundry_jobs import STAGES, Dorm, advance, call, submit, work  # noqa: E402

Stage = enum("souk.v1.JobStage")
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST, SETTINGS, PING, GOAWAY = 0, 1, 3, 4, 6, 7
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
MAX_WINDOW = 2**31 - 1


def frame(kind, flags, stream_id, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream_id) + payload


def rss_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Streams(asyncio.Protocol):
    """One connection holding many server-streaming calls of one method."""

    def __init__(self):
        self.buffer = bytearray()
        self.transport = None
        self.live = 0          # streams whose response headers came
        self.ended = {}        # stream id -> trailers' raw block (they end a stream)
        self.arrivals = []     # (stream id, arrival time, payload) of each DATA frame
        self.on_data = None
        # While measuring, what arrives is only kept with its arrival time (`parse` later), so
        # the client's own parsing never delays reading the next connection's socket.
        self.deferred = False
        self.chunks = []
        self.received = 0
        self.connected = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        self.transport = transport
        settings = struct.pack(">HI", 0x4, MAX_WINDOW) + struct.pack(">HI", 0x2, 0)
        transport.write(PREFACE + frame(SETTINGS, 0, 0, settings) + frame(8, 0, 0, struct.pack(">I", MAX_WINDOW - 65535)))
        self.connected.set_result(None)

    def open(self, first_id, count, header_block, body):
        out = bytearray()
        for n in range(count):
            stream_id = first_id + 2 * n
            out += frame(HEADERS, END_HEADERS, stream_id, header_block)
            out += frame(DATA, END_STREAM, stream_id, body)
        self.transport.write(bytes(out))

    def data_received(self, data):
        now = time.time()
        self.received += len(data)
        if self.deferred:
            self.chunks.append((now, data))
        else:
            self.parse_chunk(now, data)

    def parse(self):
        """Parses what arrived while deferred, each frame with the time its chunk was read."""
        chunks, self.chunks = self.chunks, []
        for now, data in chunks:
            self.parse_chunk(now, data)

    def parse_chunk(self, now, data):
        buffer = self.buffer
        buffer += data
        offset = 0
        while len(buffer) - offset >= 9:
            length = int.from_bytes(buffer[offset:offset + 3], "big")
            if len(buffer) - offset < 9 + length:
                break
            kind, flags = buffer[offset + 3], buffer[offset + 4]
            stream_id = int.from_bytes(buffer[offset + 5:offset + 9], "big") & 0x7FFFFFFF
            payload = bytes(buffer[offset + 9:offset + 9 + length])
            offset += 9 + length
            if kind == DATA and length:
                self.arrivals.append((stream_id, now, payload))
                if self.on_data:
                    self.on_data()
            elif kind == HEADERS:
                if flags & END_STREAM:
                    self.ended[stream_id] = payload
                else:
                    self.live += 1
            elif kind == SETTINGS and not flags & ACK:
                self.transport.write(frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                self.transport.write(frame(PING, ACK, 0, payload))
            elif kind == GOAWAY:
                print("GOAWAY", payload[:8].hex(), payload[8:].decode(errors="replace"), file=sys.stderr)
        del buffer[:offset]

    def connection_lost(self, exc):
        print("connection lost", exc, file=sys.stderr)


def header_block(method, token):
    """A header block the client can send on every stream: literals never indexed, so the
    server's decoder table never changes."""
    encoder = hpack.Encoder()
    fields = [(":method", "POST"), (":scheme", "http"), (":path", method), (":authority", "localhost"),
              ("content-type", "application/grpc"), ("te", "trailers"), ("authorization", f"Bearer {token}")]
    return encoder.encode([hpack.NeverIndexedHeaderTuple(k, v) for k, v in fields])


def grpc_body(request):
    payload = request.SerializeToString()
    return struct.pack(">BI", 0, len(payload)) + payload


async def connect(port, count):
    loop = asyncio.get_running_loop()
    connections = []
    for _ in range(count):
        _, protocol = await loop.create_connection(Streams, "127.0.0.1", port)
        await protocol.connected
        connections.append(protocol)
    await asyncio.sleep(0.5)  # settings exchanged
    return connections


async def settled_rss(pid, timeout=60):
    """The server's RSS once it has stopped moving: opening thousands of streams at once leaves
    freed memory that the allocator (its background threads, see main) returns within seconds;
    what stays is what the open streams hold."""
    previous = rss_kib(pid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await asyncio.sleep(3)
        now = rss_kib(pid)
        if abs(now - previous) < 512:
            return now
        previous = now
    return previous


async def wait_until(what, check, timeout=120):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def laundry_api(channel):
    api = Api(channel)
    api.laundry = Stub(channel, "souk.v1.Laundry")
    api.notifications = Stub(channel, "souk.v1.Notifications")
    return api


def drip_market(api, server):
    operator = operator_party(api, server)
    marketplace = create_marketplace(api, operator, server.marketplace_id("Drip 'n Dash"))
    # Every account of the run signs in from this one address.
    settings = pb.MarketplaceSettings()
    settings.accounts.rate_limits.CopyFrom(marketplace.settings.accounts.rate_limits)
    settings.accounts.rate_limits.sign_in_per_address.count = 100_000
    settings.accounts.rate_limits.sign_in_per_address.window.seconds = 60
    api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=marketplace.id, settings=settings,
        update_mask=message("google.protobuf.FieldMask")(paths=["accounts.rate_limits"])),
        metadata=operator.md(), timeout=10)
    return {"id": marketplace.id, "operator": operator, "settings": marketplace.settings.laundry}


def stage_changes(api, dorm, customer, dasher, submitted=False):
    """A job of `customer` that `dasher` accepted (with `submitted`: the job the queue gives
    `dasher`, of whichever customer), and the commits that notify its customer, one per call."""
    if submitted:
        job = work(api, dasher)
    else:
        job = submit(api, customer)
        assert work(api, dasher).id == job.id
    job = call(api, "AcceptJob", dasher, job_id=job.id)
    steps = [(s, {}) for s in STAGES] + [
        (Stage.JOB_STAGE_FINISHED_DRYING, dict(actual_loads=2, machine_cost_total=pb.Money(amount_minor=700, currency_code="USD"))),
        (Stage.JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF, {}), (Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY, {})]
    for stage, fields in steps:
        yield lambda stage=stage, fields=fields: advance(api, job, dasher, stage, **fields)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def fan_out(args, server, api, method):
    market = drip_market(api, server)
    dorm = Dorm(api, market)
    student, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    pid = server.process.pid
    connections_count = args.streams // args.per_connection
    connections = await connect(server.port, connections_count)
    rss = {"connections": await settled_rss(pid)}
    block = header_block(method, student.session.access_token)
    body = grpc_body(pb.WatchAccountRequest(marketplace_id=student.marketplace_id))
    half = connections_count // 2
    for c in connections[:half]:
        c.open(1, args.per_connection, block, body)
    target = half * args.per_connection
    headers_sent = method.endswith("WatchAccount")
    if headers_sent:
        await wait_until("half the streams live", lambda: sum(c.live for c in connections) >= target)
    rss["half"] = await settled_rss(pid)
    for c in connections[half:]:
        c.open(1, args.per_connection, block, body)
    if headers_sent:
        await wait_until("every stream live", lambda: sum(c.live for c in connections) >= args.streams)
    rss["all"] = await settled_rss(pid)
    ended = sum(len(c.ended) for c in connections)
    per_stream = (rss["all"] - rss["half"]) * 1024 / (args.streams - target)
    overall = (rss["all"] - rss["connections"]) * 1024 / args.streams
    print(f"RSS KiB: {rss}; ended early: {ended}; per idle stream: {per_stream:.0f} B (slope), "
          f"{overall:.0f} B (all streams over the connections alone)", flush=True)

    loop = asyncio.get_running_loop()
    latencies, commit_calls, spreads = [], [], []
    changes = []
    while len(changes) < args.commits:
        changes += list(stage_changes(api, dorm, student, dasher))
    await asyncio.sleep(2)  # what setting the jobs up told the student is delivered
    for c in connections:
        c.arrivals.clear()
        c.deferred = True
    event_type = message("souk.v1.AccountEvent")

    def delivered():
        """Every stream's delivery is in: checked (by parsing) once nothing arrived for 0.2 s."""
        received = sum(c.received for c in connections)
        if received != delivered.received:
            delivered.received, delivered.quiet_since = received, time.monotonic()
            return False
        if time.monotonic() - delivered.quiet_since < 0.2:
            return False
        for c in connections:
            c.parse()
        return all(len(c.arrivals) >= args.per_connection for c in connections)

    for change in changes[:args.commits]:
        delivered.received, delivered.quiet_since = sum(c.received for c in connections), time.monotonic()
        started = time.time()
        await loop.run_in_executor(None, change)
        commit_calls.append(time.time() - started)
        await wait_until("every stream's delivery", delivered)
        first = min(t for c in connections for _, t, _ in c.arrivals)
        spreads += [(t - first) * 1000 for c in connections for _, t, _ in c.arrivals]
        committed = {}
        for c in connections:
            for _, t, payload in c.arrivals:
                if payload not in committed:
                    event = event_type.FromString(payload[5:])
                    committed[payload] = event.event_time.seconds + event.event_time.nanos / 1e9
                latencies.append((t - committed[payload]) * 1000)
        for c in connections:
            c.arrivals.clear()
    for c in connections:
        c.transport.close()
    return {"rss_kib": rss, "per_idle_stream_bytes": per_stream, "per_stream_over_connections_bytes": overall,
            "ended_early": ended,
            "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99), "max_ms": max(latencies),
            "deliveries": len(latencies), "commit_call_ms_median": statistics.median(commit_calls) * 1000,
            "spread_p50_ms": percentile(spreads, 50), "spread_p99_ms": percentile(spreads, 99)}


async def chat(args, server, api, method):
    """`--conversations` readers, one stream each; every Dasher sends its messages at once."""
    market = drip_market(api, server)
    dorm = Dorm(api, market)
    loop = asyncio.get_running_loop()
    api.messaging = Stub(api.channel, "souk.v1.Messaging")
    job_type = enum("souk.v1.ResourceType").RESOURCE_TYPE_JOB

    def pair(_):
        return dorm.student("casey"), dorm.student("dana", dasher=True)

    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(16) as pool:
        pairs = list(pool.map(pair, range(args.conversations)))

    def conversation(dasher):
        """The Dasher takes whichever job the queue gives it and opens a chat with its customer."""
        job = call(api, "AcceptJob", dasher, job_id=work(api, dasher).id)
        return api.messaging.CreateConversation(pb.CreateConversationRequest(
            marketplace_id=dasher.marketplace_id, request_id=str(uuid.uuid4()), participant_account_ids=[job.customer_account_id],
            subject=pb.ResourceRef(type=job_type, id=job.id)), metadata=dasher.md(), timeout=30)

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda p: submit(api, p[0]), pairs))
        conversations = list(pool.map(conversation, [dasher for _, dasher in pairs]))
    students = {student.account_id for student, _ in pairs}
    assert len({a for c in conversations for a in c.participant_account_ids} & students) == len(pairs)
    connections = await connect(server.port, max(1, args.conversations // args.per_connection))
    for index, (student, _) in enumerate(pairs):
        connection = connections[index % len(connections)]
        stream_id = 1 + 2 * (index // len(connections))
        connection.open(stream_id, 1, header_block(method, student.session.access_token),
                        grpc_body(pb.WatchAccountRequest(marketplace_id=student.marketplace_id)))
    await wait_until("every reader live", lambda: sum(c.live for c in connections) >= args.conversations)
    await asyncio.sleep(1)
    for c in connections:
        c.arrivals.clear()
    total = args.messages * len(pairs)
    event_type = message("souk.v1.AccountEvent")
    message_kind = enum("souk.v1.NotificationKind").NOTIFICATION_KIND_MESSAGE

    def send_all(p_conversation):
        (_, dasher), conversation = p_conversation
        for n in range(args.messages):
            api.messaging.SendMessage(pb.SendMessageRequest(
                marketplace_id=dasher.marketplace_id, conversation_id=conversation.id, request_id=str(uuid.uuid4()),
                text=f"message {n}"), metadata=dasher.md(), timeout=30)

    counted = {id(c): 0 for c in connections}

    def notifications():
        """Messages whose notification arrived so far (each arrival parsed once)."""
        for c in connections:
            for _, _, payload in c.arrivals[counted[id(c)]:]:
                event = event_type.FromString(payload[5:])
                if event.WhichOneof("event") == "notification" and event.notification.kind == message_kind:
                    notifications.count += 1
            counted[id(c)] = len(c.arrivals)
        return notifications.count

    notifications.count = 0

    started = time.time()
    with ThreadPoolExecutor(args.writers) as pool:
        futures = [loop.run_in_executor(pool, send_all, item) for item in zip(pairs, conversations)]
        await asyncio.gather(*futures)
        sent = time.time()
        await wait_until("every message delivered", lambda: notifications() >= total)
    elapsed = time.time() - started
    # Each reader got its messages in order, each once.
    bad = 0
    for c in connections:
        by_stream = {}
        for stream_id, _, payload in c.arrivals:
            event = event_type.FromString(payload[5:])
            if event.WhichOneof("event") == "notification" and event.notification.kind == message_kind:
                by_stream.setdefault(stream_id, []).append((event.sequence, event.notification.body))
        for got in by_stream.values():
            texts = [body for _, body in got]
            if len(got) != args.messages or [s for s, _ in got] != sorted({s for s, _ in got}) \
                    or not all(f"message {n}" in text for n, text in enumerate(texts)):
                bad += 1
    events = sum(len(c.arrivals) for c in connections)
    for c in connections:
        c.transport.close()
    return {"conversations": args.conversations, "messages": total, "events_delivered": events, "seconds": elapsed,
            "sending_seconds": sent - started, "messages_per_second": total / elapsed, "readers_with_wrong_messages": bad}


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--per-connection", type=int, default=200)
    parser.add_argument("--commits", type=int, default=20)
    parser.add_argument("--conversations", type=int, default=1_000)
    parser.add_argument("--messages", type=int, default=8, help="messages each Dasher sends in the chat run")
    parser.add_argument("--writers", type=int, default=32, help="threads sending the chat run's messages")
    parser.add_argument("--method", default="/souk.v1.Notifications/WatchAccount",
                        help="the stream's method (a build before WatchAccount: /souk.v1.Notifications/WatchNotifications)")
    parser.add_argument("--skip", choices=["fanout", "chat"], action="append", default=[])
    parser.add_argument("--sync", default="none", choices=["none", "sync"],
                        help="the server's --sync: none (default) leaves the disk's fsync out of commit-to-delivery")
    args = parser.parse_args()
    # Freed pages go back to the system at once, so a settled RSS is what the streams hold
    # (souk-server links jemalloc; its own options stay).
    os.environ["MALLOC_CONF"] = "dirty_decay_ms:0,muzzy_decay_ms:0"
    print(f"server: {os.environ['SOUK_SERVER']}; {platform.node()} {os.cpu_count()} CPUs; load {os.getloadavg()}", flush=True)
    flags = ["--max-streams-per-account", str(args.streams + 100), "--max-streams-per-connection", str(args.per_connection),
             "--max-concurrent-streams", str(args.per_connection), "--idle-timeout", "3600", "--log-level", "error",
             "--sync", args.sync]
    results = {}
    if "fanout" not in args.skip:
        server = IdentityServer(3600, *flags)
        try:
            with server.channel() as channel:
                results["fan_out"] = await fan_out(args, server, laundry_api(channel), args.method)
                print(results["fan_out"], flush=True)
        finally:
            server.stop()
    if "chat" not in args.skip:
        server = IdentityServer(3600, *flags)
        try:
            with server.channel() as channel:
                results["chat"] = await chat(args, server, laundry_api(channel), args.method)
                print(results["chat"], flush=True)
        finally:
            server.stop()
    print(f"load at end {os.getloadavg()}")
    return results


if __name__ == "__main__":
    asyncio.run(main())
