"""Laundry work requests under contention, against a real souk-server (see bench/laundry/run).

Setup (unmeasured): the platform operator makes a laundry marketplace with one dorm, `--dashers`
Dashers and `--customers` customers (accounts an admin creates count as verified), each signed
in, and `--prefill` jobs already queued.

Measured: every Dasher loops RequestWork → AcceptJob on what it is offered → RequestWork again,
all at once, while the customers submit jobs at `--submit-rate` per second in total. RequestWork
calls that end inside the window (after `--warmup` s, for `--seconds` s) count; their latency is
the client's, from the call to its answer.

Checked afterwards: no job was offered to two Dashers or accepted twice, every AcceptJob of an
offered job succeeded, and the server's stored Dasher of every job is the one the client saw
accept it (ListJobs of the dorm, every page)."""
import argparse
import asyncio
import os
import pathlib
import platform
import socket
import subprocess
import sys
import time
import uuid

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "e2e"))
from souk_protos import Stub, enum, message  # noqa: E402

Role = enum("souk.v1.Role")
Vertical = enum("souk.v1.Vertical")
OPERATOR_EMAIL = "operator@souk-bench.example.com"
OPERATOR_PASSWORD = "Operat0r!Bench"
PASSWORD = "Str0ng!Passw0rd"


def pb(name):
    return message(f"souk.v1.{name}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid) -> float:
    """User + system CPU time of a process so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(binary, data_dir):
    port = free_port()
    log = open(pathlib.Path(data_dir) / "server.log", "w")
    process = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(pathlib.Path(data_dir) / "store"),
         "--log-level", "warning", "--password-hash-memory-kib", "8192", "--access-token-ttl", "3600"],
        stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "SOUK_OPERATOR_EMAIL": OPERATOR_EMAIL, "SOUK_OPERATOR_PASSWORD": OPERATOR_PASSWORD})
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise SystemExit(f"souk-server exited with {process.returncode}: {pathlib.Path(log.name).read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, f"127.0.0.1:{port}"
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("souk-server did not start listening")
            time.sleep(0.05)


class Client:
    """Stubs over several HTTP/2 connections (the server allows 100 streams on each)."""

    def __init__(self, address, connections):
        # A distinct channel argument each, so grpcio opens a connection per channel.
        self.channels = [grpc.aio.insecure_channel(address, options=[("souk.bench.connection", i)])
                         for i in range(connections)]
        self.accounts = [Stub(c, "souk.v1.Accounts") for c in self.channels]
        self.laundry = [Stub(c, "souk.v1.Laundry") for c in self.channels]
        self.marketplaces = Stub(self.channels[0], "souk.v1.Marketplaces")

    async def close(self):
        for channel in self.channels:
            await channel.close()


def md(token):
    return (("authorization", f"Bearer {token}"),)


async def login(client, index, marketplace_id, email, password):
    session = await client.accounts[index % len(client.accounts)].Login(
        pb("LoginRequest")(marketplace_id=marketplace_id, email=email, password=password, device_name="bench"))
    return session.access_token, session.account.id


async def setup(client, args):
    operator, _ = await login(client, 0, "", OPERATOR_EMAIL, OPERATOR_PASSWORD)
    usd = lambda minor: pb("Money")(amount_minor=minor, currency_code="USD")  # noqa: E731
    marketplace = await client.marketplaces.CreateMarketplace(pb("CreateMarketplaceRequest")(
        request_id=str(uuid.uuid4()), marketplace=pb("Marketplace")(
            slug="bench-laundry", display_name="Bench Laundry", vertical=Vertical.VERTICAL_LAUNDRY, currency_code="USD",
            settings=pb("MarketplaceSettings")(laundry=pb("LaundrySettings")(
                machine_cost_per_load=usd(300), service_fee=usd(500), folding_price=usd(250), ironing_price=usd(500),
                last_cancellable_stage=2)))), metadata=md(operator))
    market = marketplace.id
    dorm = await client.laundry[0].CreateDorm(pb("CreateDormRequest")(
        marketplace_id=market, request_id=str(uuid.uuid4()), dorm=pb("Dorm")(campus="Busch", name="Mattia Hall")),
        metadata=md(operator))

    async def person(index, kind):
        email = f"{kind}{index}@rutgers.edu"
        await client.accounts[index % len(client.accounts)].CreateAccount(pb("CreateAccountRequest")(
            marketplace_id=market, request_id=str(uuid.uuid4()), email=email, initial_password=PASSWORD,
            given_name=f"{kind.capitalize()}{index}", roles=[Role.ROLE_COURIER] if kind == "dasher" else [],
            laundry_profile=pb("LaundryProfile")(campus="Busch", dorm_id=dorm.id, room=str(100 + index))),
            metadata=md(operator))
        return await login(client, index, market, email, PASSWORD)

    people = []
    for kind, count in (("dasher", args.dashers), ("customer", args.customers)):
        made = []
        for start in range(0, count, 50):
            made += await asyncio.gather(*(person(i, kind) for i in range(start, min(count, start + 50))))
        people.append(made)
    return operator, market, dorm.id, people[0], people[1]


async def submit(client, index, market, token):
    job = await client.laundry[index % len(client.laundry)].SubmitJob(pb("SubmitJobRequest")(
        marketplace_id=market, request_id=str(uuid.uuid4()), loads_estimate=1 + index % 3, instructions="bench"),
        metadata=md(token))
    return job.id


async def run(args):
    process, address = start_server(args.server, args.data_dir)
    client = Client(address, args.connections)
    try:
        operator, market, dorm, dashers, customers = await setup(client, args)
        submitted = []
        for start in range(0, args.prefill, 50):
            submitted += await asyncio.gather(*(submit(client, i, market, customers[i % len(customers)][0])
                                                for i in range(start, min(args.prefill, start + 50))))

        loop = asyncio.get_running_loop()
        begin = loop.time() + 0.5
        window = (begin + args.warmup, begin + args.warmup + args.seconds)
        latencies, empty, calls, errors = [], [0], [0], []
        offered_to, accepted_by = {}, {}
        twice = []

        async def dasher(index, token, account):
            stub = client.laundry[index % len(client.laundry)]
            request = pb("RequestWorkRequest")(marketplace_id=market)
            await asyncio.sleep(begin - loop.time())
            while loop.time() < window[1]:
                started = loop.time()
                try:
                    response = await stub.RequestWork(request, metadata=md(token))
                except grpc.aio.AioRpcError as error:
                    errors.append(f"RequestWork: {error.code().name} {error.details()}")
                    if len(errors) > 1000:
                        return  # the run is failed already; stop hammering
                    continue
                ended = loop.time()
                measured = window[0] <= ended <= window[1]
                if measured:
                    calls[0] += 1
                    latencies.append(ended - started)
                if not response.HasField("job"):
                    if measured:
                        empty[0] += 1
                    await asyncio.sleep(args.idle_pause)
                    continue
                job = response.job.id
                if offered_to.setdefault(job, account) != account:
                    twice.append(f"job {job} offered to {offered_to[job]} and {account}")
                try:
                    await stub.AcceptJob(pb("AcceptJobRequest")(marketplace_id=market, job_id=job), metadata=md(token))
                except grpc.aio.AioRpcError as error:
                    errors.append(f"AcceptJob {job}: {error.code().name} {error.details()}")
                    continue
                if job in accepted_by:
                    twice.append(f"job {job} accepted by {accepted_by[job]} and {account}")
                accepted_by[job] = account

        async def submit_one(index, token):
            try:
                submitted.append(await submit(client, index, market, token))
            except grpc.aio.AioRpcError as error:
                errors.append(f"SubmitJob: {error.code().name} {error.details()}")

        async def customer(index, token):
            # Each customer submits its share of the rate on a fixed schedule, without waiting for
            # the answers (an open load: a slow server does not slow the customers down).
            interval = len(customers) / args.submit_rate
            next_time = begin + interval * index / len(customers)
            sent = []
            while next_time < window[1]:
                await asyncio.sleep(max(0.0, next_time - loop.time()))
                next_time += interval
                sent.append(asyncio.create_task(submit_one(index, token)))
            await asyncio.gather(*sent)

        server_cpu, client_cpu = cpu_seconds(process.pid), time.process_time()
        await asyncio.gather(*(dasher(i, token, account) for i, (token, account) in enumerate(dashers)),
                             *(customer(i, token) for i, (token, _) in enumerate(customers)))
        elapsed = loop.time() - begin
        server_cpu, client_cpu = cpu_seconds(process.pid) - server_cpu, time.process_time() - client_cpu

        # The server's view: every job of the dorm with its Dasher.
        stored, token = {}, ""
        while True:
            page = await client.laundry[0].ListJobs(pb("ListJobsRequest")(
                marketplace_id=market, dorm_id=dorm, page_size=100, page_token=token), metadata=md(operator))
            stored.update((j.id, j.dasher_account_id) for j in page.jobs)
            token = page.next_page_token
            if not token:
                break
        mismatched = [j for j, a in accepted_by.items() if stored.get(j) != a]
        unknown = [j for j, a in stored.items() if a and j not in accepted_by]
    finally:
        await client.close()
        process.terminate()
        process.wait(timeout=30)

    latencies.sort()
    quantile = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0.0  # noqa: E731
    print(f"machine: {os.cpu_count()} CPUs ({cpu_name()}), {platform.system()} {platform.release()}; "
          f"load average {os.getloadavg()[0]:.2f} at end")
    print(f"dashers {args.dashers}, customers {args.customers}, connections {args.connections}, prefill {args.prefill}, "
          f"submit rate {args.submit_rate}/s, window {args.seconds} s after {args.warmup} s")
    print(f"work requests/s {calls[0] / args.seconds:,.0f}   p50 {quantile(0.5):.2f} ms   p99 {quantile(0.99):.2f} ms   "
          f"max {quantile(1.0):.2f} ms")
    print(f"work requests in window {calls[0]:,}, empty answers {empty[0]:,}; over the whole run: jobs submitted "
          f"{len(submitted):,}, assignments {len(accepted_by):,}, still queued {len(stored) - len(accepted_by):,}")
    print(f"CPU over the run ({elapsed:.1f} s): server {server_cpu:.1f} s ({100 * server_cpu / elapsed:.0f}%), "
          f"client {client_cpu:.1f} s ({100 * client_cpu / elapsed:.0f}%)")
    problems = twice + mismatched + unknown + errors
    print(f"checks: offered or accepted twice {len(twice)}, stored Dasher differs {len(mismatched)}, "
          f"assigned unseen {len(unknown)}, call errors {len(errors)}, jobs stored {len(stored):,} of {len(submitted):,} submitted")
    for problem in problems[:10]:
        print("  ", problem)
    if problems or len(stored) != len(submitted):
        raise SystemExit("the answers are wrong")


def cpu_name() -> str:
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the souk-server binary (release)")
    parser.add_argument("--data-dir", required=True, help="an empty directory for the store and the server log")
    parser.add_argument("--dashers", type=int, default=200)
    parser.add_argument("--customers", type=int, default=20)
    parser.add_argument("--connections", type=int, default=8, help="HTTP/2 connections the clients share")
    parser.add_argument("--prefill", type=int, default=1000, help="jobs queued before the start")
    parser.add_argument("--submit-rate", type=float, default=200, help="jobs submitted per second, all customers together")
    parser.add_argument("--idle-pause", type=float, default=0.0,
                        help="seconds a Dasher waits after an empty answer before asking again")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--seconds", type=float, default=10)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
