"""Two souk-server nodes on a fresh 3-member etcd cluster under write load through the API, while
one etcd member is killed (kill -9) and restarted, then the leader, then one souk-server node:
writes go on after each failure (on the other member, after the election, on the other node), no
acknowledged write is lost, and `store verify` (through the surviving node's control socket, and
run on the etcd store directly with no server) finds every index consistent.

The writers are customers adding a bottle to their cart and checking out, and shop staff creating
products: each write carries a request id, and a write that fails with UNAVAILABLE (a node or a
member gone, an election under way), DEADLINE_EXCEEDED or ABORTED is sent again with the same
request id, to the other node when its node does not answer. Every write is retried until it is
acknowledged, so the store must end holding exactly the acknowledged writes: every order and
product, and each customer's wine's stock less one bottle per order. (Each customer buys its own
wine: the race for one wine is test_nodes.py's; here the writes should go on, not collide.)"""
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

import grpc
import pytest

from conftest import ROOT, IdentityServer, Server, stop_cleanly
from souk_identity import TIMEOUT, Api, login_party, pb, request_id, sign_up
from souk_protos import enum
from test_retail import SHOP, Shop, checkout_request, myr

Code = grpc.StatusCode
Category = enum("souk.v1.ProductCategory")
CLUSTER = str(ROOT / "scripts" / "etcd-cluster")
# Failures a write may meet while a member, the leader or a node dies; sent again with the same request id.
TRANSIENT = (Code.UNAVAILABLE, Code.DEADLINE_EXCEEDED, Code.ABORTED)
# Generous bounds on a loaded machine (2 cores shared): each is a wait for a condition, not a measure.
RETRY_WINDOW = 45  # seconds one write keeps being retried
PROGRESS_WAIT = 45  # seconds to wait for the writes after a failure
CUSTOMERS = 4
STAFF = 1
STOCK = 1_000_000


def cluster(*args):
    return subprocess.run([CLUSTER, *args], check=True, capture_output=True, text=True, timeout=90).stdout.strip()


def souk(*args, timeout=120):
    """`souk-server ...` as a command (not a server)."""
    binary = os.environ.get("SOUK_SERVER") or str(ROOT / ".build" / "debug" / "souk-server")
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def etcd():
    """A fresh cluster of this module's own: its directory and the store URL."""
    directory = tempfile.mkdtemp(prefix="souk-etcd-failures-")
    url = cluster("start", directory)
    yield directory, url
    subprocess.run([CLUSTER, "stop", directory], check=False, timeout=90)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def nodes(etcd):
    """Node A loads the demo marketplaces (its access tokens outlive the test: no refresh needed
    while a node is down); node B serves the same store."""
    _, url = etcd
    a = IdentityServer(600, "--store", url)
    b = Server("--store", url, "--password-hash-memory-kib", "8192")
    yield a, b
    stop_cleanly(b)
    a.stop()  # killed by the test: nothing to stop


class Load:
    """Writer threads over both nodes, each write retried with its request id until acknowledged."""

    def __init__(self, shops, mp, customers, staff, wines):
        self.shops = shops
        self.mp = mp
        self.wines = wines
        self.lock = threading.Lock()
        self.stop = threading.Event()
        # (acknowledged at, kind, id): kind "order" or "product".
        self.acks: list[tuple[float, str, str]] = []
        self.orders_of = [0] * len(customers)
        self.failures: list[str] = []
        self.retries = 0
        self.threads = [threading.Thread(target=self._customer, args=(i, c), daemon=True) for i, c in enumerate(customers)]
        self.threads += [threading.Thread(target=self._staff, args=(i, s), daemon=True) for i, s in enumerate(staff)]

    def start(self):
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=RETRY_WINDOW + 2 * TIMEOUT)
        assert not any(t.is_alive() for t in self.threads), "a writer is still waiting for an answer"

    def _ack(self, kind, ident):
        with self.lock:
            self.acks.append((time.monotonic(), kind, ident))

    def count(self):
        with self.lock:
            return len(self.acks)

    def acked(self, kind):
        with self.lock:
            return [ident for _, k, ident in self.acks if k == kind]

    def times(self):
        with self.lock:
            return [at for at, _, _ in self.acks]

    def _send(self, node, call):
        """Runs `call(shop)` on `node`, then on whichever node answers, until it is acknowledged
        or RETRY_WINDOW passes: the same request (the same request id) every time. Answers the
        response and the node that gave it."""
        deadline = time.monotonic() + RETRY_WINDOW
        while True:
            try:
                return call(self.shops[node]), node
            except grpc.RpcError as error:
                if error.code() not in TRANSIENT or time.monotonic() > deadline:
                    raise
                with self.lock:
                    self.retries += 1
                # A node that does not answer (killed) refuses at once: the other one is tried next.
                node = 1 - node
                time.sleep(0.05)

    def _run(self, name, node, step):
        try:
            while not self.stop.is_set():
                node = step(node)
        except Exception as error:  # noqa: BLE001 - every failure is reported by the test
            with self.lock:
                self.failures.append(f"{name}: {getattr(error, 'code', lambda: '')()} {getattr(error, 'details', lambda: error)()}")

    def _customer(self, index, party):
        def step(node):
            add = pb.AddCartLineRequest(marketplace_id=self.mp, request_id=request_id(), item_id=self.wines[index], quantity=1)
            _, node = self._send(node, lambda shop: shop.carts.AddCartLine(add, metadata=party.md(), timeout=TIMEOUT))
            checkout = checkout_request(self.mp, rid=request_id())
            order, node = self._send(node, lambda shop: shop.orders.Checkout(checkout, metadata=party.md(), timeout=TIMEOUT))
            with self.lock:
                self.orders_of[index] += 1
            self._ack("order", order.id)
            return node

        self._run(f"customer {index}", index % 2, step)

    def _staff(self, index, party):
        counter = iter(range(1_000_000))

        def step(node):
            create = pb.CreateProductRequest(marketplace_id=self.mp, request_id=request_id(), product=pb.Product(
                name=f"Failover Cuvée {index}-{next(counter)}", category=Category.PRODUCT_CATEGORY_RED, price=myr(4200),
                stock=6, available=True))
            product, node = self._send(node, lambda shop: shop.catalog.CreateProduct(create, metadata=party.md(), timeout=TIMEOUT))
            self._ack("product", product.id)
            return node

        self._run(f"staff {index}", index % 2, step)


def wait_for_writes(load, since, count, what):
    """Waits until `count` writes were acknowledged after `since` (a time.monotonic()); answers how
    long after `since` the first one came, and the longest gap between acknowledgements."""
    deadline = time.monotonic() + PROGRESS_WAIT
    while True:
        assert not load.failures, f"{what}: a write failed for good: {load.failures}"
        after = [t for t in load.times() if t > since]
        if len(after) >= count:
            points = [since] + sorted(after)
            return after[0] - since, max(b - a for a, b in zip(points, points[1:]))
        assert time.monotonic() < deadline, f"{what}: {len(after)} of {count} writes acknowledged in {PROGRESS_WAIT} s"
        time.sleep(0.05)


def verified(output):
    match = re.search(r"checked (\d+) records, (\d+) index entries", output)
    assert match, output
    return int(match.group(1)), int(match.group(2))


def test_no_acknowledged_write_is_lost_when_a_member_the_leader_and_a_node_die(etcd, nodes):
    directory, _ = etcd
    a, b = nodes
    started = time.monotonic()
    with a.channel() as ca, b.channel() as cb:
        for ch in (ca, cb):
            grpc.channel_ready_future(ch).result(timeout=30)
        apis = [Api(ca), Api(cb)]
        shops = [Shop(ca), Shop(cb)]
        mp = a.marketplace_id(SHOP)
        staff = [login_party(apis[i % 2], a.demo_login(SHOP, "provider")) for i in range(STAFF)]
        wines = [shops[0].catalog.CreateProduct(pb.CreateProductRequest(
            marketplace_id=mp, request_id=request_id(), product=pb.Product(
                name=f"Failover Reserve {i}", category=Category.PRODUCT_CATEGORY_RED, price=myr(9900), stock=STOCK, available=True)),
            metadata=staff[0].md(), timeout=TIMEOUT).id for i in range(CUSTOMERS)]
        customers = [sign_up(apis[i % 2], mp) for i in range(CUSTOMERS)]
        load = Load(shops, mp, customers, staff, wines)
        figures = {}
        load.start()
        try:
            wait_for_writes(load, started, 10, "before any failure")

            # (a) A member that is not the leader dies; the other two keep a majority.
            leader = int(cluster("leader", directory))
            follower = 1 + leader % 3
            killed = time.monotonic()
            cluster("kill", directory, str(follower))
            figures["member killed"] = wait_for_writes(load, killed, 10, f"member {follower} killed")
            cluster("restart", directory, str(follower))
            wait_for_writes(load, time.monotonic(), 5, f"member {follower} restarted")

            # (b) The leader dies: writes stop until the other two elect one, then go on.
            leader = int(cluster("leader", directory))
            killed = time.monotonic()
            cluster("kill", directory, str(leader))
            figures["leader killed"] = wait_for_writes(load, killed, 10, f"leader {leader} killed")
            cluster("restart", directory, str(leader))
            wait_for_writes(load, time.monotonic(), 5, f"member {leader} restarted")

            # (c) Node A dies: every writer goes on through node B.
            killed = time.monotonic()
            a.process.kill()
            a.process.wait(timeout=30)
            mark = load.count()
            figures["node killed"] = wait_for_writes(load, killed, 10, "node A killed")
            # Every writer went on through node B: each acknowledged a write after node A died.
            wait_for_writes(load, time.monotonic(), CUSTOMERS + STAFF, "after node A died")
        finally:
            load.finish()
        assert not load.failures, load.failures
        assert load.count() > mark

        # Every acknowledged write is there, read through the surviving node.
        orders = load.acked("order")
        products = load.acked("product")
        assert len(set(orders)) == len(orders) and len(set(products)) == len(products)
        for order_id in orders:
            order = shops[1].orders.GetOrder(pb.GetOrderRequest(marketplace_id=mp, order_id=order_id),
                                             metadata=staff[0].md(), timeout=TIMEOUT)
            assert order.id == order_id
        for product_id in products:
            product = shops[1].catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=product_id), timeout=TIMEOUT)
            assert product.id == product_id
        # One bottle per acknowledged order, and none for a write that was not acknowledged.
        stocks = [shops[1].catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=w), timeout=TIMEOUT).stock
                  for w in wines]
        assert stocks == [STOCK - n for n in load.orders_of], (stocks, load.orders_of)

    # Every index consistent, checked by the surviving node through its control socket.
    verifying = time.monotonic()
    check = souk("store", "verify", "--data-dir", b.data_dir)
    verify_seconds = time.monotonic() - verifying
    assert check.returncode == 0, check.stdout + check.stderr
    assert "consistent" in check.stdout and "NOT consistent" not in check.stdout, check.stdout
    records, _ = verified(check.stdout)
    assert records >= len(orders) + len(products)

    print(f"\n{len(orders)} orders and {len(products)} products acknowledged ({load.retries} retries) "
          f"in {time.monotonic() - started:.1f} s; store verify ({verify_seconds:.1f} s): {check.stdout.strip()}")
    for what, (first, gap) in figures.items():
        print(f"{what}: first write acknowledged {first:.2f} s after, longest wait between acknowledgements {gap:.2f} s")


def test_store_verify_opens_the_etcd_store_itself_when_no_server_answers(etcd, nodes, tmp_path):
    """`store verify --store etcd://...` with a data directory no server runs on: the command
    opens the store over the cluster (the nodes may go on serving meanwhile)."""
    _, url = etcd
    check = souk("store", "verify", "--store", url, "--data-dir", str(tmp_path / "verifier"))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "consistent" in check.stdout and "NOT consistent" not in check.stdout, check.stdout
    records, entries = verified(check.stdout)
    assert records > 0 and entries > 0
    # An engine the command does not know is refused.
    wrong = souk("store", "verify", "--store", "tikv://127.0.0.1:1", "--data-dir", str(tmp_path / "other"))
    assert wrong.returncode != 0 and "--store" in wrong.stderr, wrong.stdout + wrong.stderr
