"""Helpers for bench/loops/run: seeds a store with accounts, signs in, runs list RPC streams
beside h2load, and reports h2load's latencies."""
import argparse
import concurrent.futures
import json
import pathlib
import re
import sys
import threading
import time

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "e2e"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "runtime"))

from souk_identity import Stub, pb  # noqa: E402
from frames import grpc_body  # noqa: E402

TIMEOUT = 30
PASSWORD = "Bench-pass-1"


def channel(port):
    # A connection of its own (grpcio shares one between channels to the same address otherwise).
    return grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])


def demo_admin(logins_path, marketplace="Chateau Du Nox"):
    for line in pathlib.Path(logins_path).read_text().splitlines():
        if line.startswith("demo login:"):
            name, role, email, password, mp = [part.strip() for part in line[len("demo login:"):].split("|")]
            if name == marketplace and role == "admin":
                return email, password, mp.removeprefix("marketplace_id=")
    raise SystemExit(f"no demo admin of {marketplace} in {logins_path}")


def login(port, email, password, mp):
    accounts = Stub(channel(port), "souk.v1.Accounts")
    return accounts.Login(pb.LoginRequest(marketplace_id=mp, email=email, password=password), timeout=TIMEOUT).access_token


def seed(args):
    """Creates `count` accounts in the demo admin's marketplace, `workers` calls at once."""
    email, password, mp = demo_admin(args.logins)
    token = login(args.port, email, password, mp)
    accounts = Stub(channel(args.port), "souk.v1.Accounts")
    note = "x" * 100

    def create(n):
        accounts.CreateAccount(pb.CreateAccountRequest(
            marketplace_id=mp, request_id=f"bench-{n}", email=f"bench{n}@loops.example", initial_password=PASSWORD,
            given_name=f"Bench {n} {note}", family_name=f"Loops {note}"), metadata=(("authorization", f"Bearer {token}"),),
            timeout=TIMEOUT)

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        for _ in pool.map(create, range(args.count)):
            pass
    print(f"  {args.count} accounts created in {time.monotonic() - started:.0f} s", flush=True)


def bodies(args):
    """Writes the h2load bodies (EmptyCall, GetMe) and the demo admin's token."""
    email, password, mp = demo_admin(args.logins)
    out = pathlib.Path(args.out)
    out.joinpath("EmptyCall.bin").write_bytes(grpc_body(b""))
    out.joinpath("GetMe.bin").write_bytes(grpc_body(pb.GetMeRequest(marketplace_id=mp).SerializeToString()))
    out.joinpath("token").write_text(login(args.port, email, password, mp))


def lists(args):
    """`streams` threads, each on a connection of its own, page through the marketplace's
    accounts (ListAccounts, `page_size` each) from the start again and again until `seconds`
    pass; prints pages/s. Each starts at a different page, so together they read the whole table."""
    email, password, mp = demo_admin(args.logins)
    token = login(args.port, email, password, mp)
    metadata = (("authorization", f"Bearer {token}"),)
    deadline = time.monotonic() + args.seconds
    pages = [0] * args.streams
    errors = []

    def walk(i):
        accounts = Stub(channel(args.port), "souk.v1.Accounts")
        skip, page_token = i * 7, ""
        while time.monotonic() < deadline:
            try:
                reply = accounts.ListAccounts(pb.ListAccountsRequest(
                    marketplace_id=mp, page_size=args.page_size, page_token=page_token), metadata=metadata, timeout=TIMEOUT)
            except grpc.RpcError as error:
                errors.append(f"{error.code()}: {error.details()}")
                return
            page_token = reply.next_page_token
            if skip > 0:
                skip -= 1
            else:
                pages[i] += 1

    threads = [threading.Thread(target=walk, args=(i,)) for i in range(args.streams)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"list streams failed: {errors[:3]}")
    print(json.dumps({"pages_per_second": sum(pages) / args.seconds, "page_size": args.page_size}))


def report(args):
    """One JSON line of an h2load run: req/s, p50 and p99 (ms), failures."""
    summary = pathlib.Path(args.summary).read_text()
    rate = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", summary).group(1))
    ok = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed", summary)
    durations = sorted(int(line.split("\t")[2]) for line in pathlib.Path(args.log).read_text().splitlines() if line)
    print(json.dumps({
        "rps": rate, "p50_ms": durations[len(durations) // 2] / 1000, "p99_ms": durations[int(len(durations) * 0.99)] / 1000,
        "succeeded": int(ok.group(1)), "failed": int(ok.group(2)),
    }))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("seed", "bodies", "lists"):
        command = sub.add_parser(name)
        command.add_argument("--port", type=int, required=True)
        command.add_argument("--logins", required=True)
    sub.choices["seed"].add_argument("--count", type=int, default=20000)
    sub.choices["seed"].add_argument("--workers", type=int, default=16)
    sub.choices["bodies"].add_argument("--out", required=True)
    sub.choices["lists"].add_argument("--streams", type=int, default=8)
    sub.choices["lists"].add_argument("--seconds", type=float, default=10)
    sub.choices["lists"].add_argument("--page-size", type=int, default=50)
    command = sub.add_parser("report")
    command.add_argument("summary")
    command.add_argument("log")
    args = parser.parse_args()
    {"seed": seed, "bodies": bodies, "lists": lists, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
