"""Two souk-server nodes on one 3-member etcd cluster (`--store etcd://...`, scripts/etcd-cluster):
the last bottle raced through both nodes has exactly one winner, a watch opened on one node sees
changes committed through the other, a retried checkout with the same request id on the other
node gives the same order, and a session signed out on one node is refused on the other; and
`souk-load etcd-txn`, the etcd benchmark's ceiling, on the same cluster."""
import json
import os
import queue
import subprocess
import threading
import time

import grpc

from conftest import souk_load_binary
from souk_identity import TIMEOUT, Api, bearer, login_party, pb, request_id, sign_up
from souk_nodes import channels, etcd, nodes  # noqa: F401  (the module's cluster and nodes)
from souk_protos import enum
from test_order_watch import collect, next_of
from test_retail import SHOP, Shop, add, checkout_request, new_wine, race_checkouts

Code = grpc.StatusCode
OrderStatus = enum("souk.v1.OrderStatus")


def test_the_last_bottle_raced_through_two_nodes_has_one_winner(nodes, channels):
    a, _ = nodes
    apis = [Api(ch) for ch in channels]
    shops = [Shop(ch) for ch in channels]
    mp = a.marketplace_id(SHOP)
    staff = login_party(apis[0], a.demo_login(SHOP, "provider"))
    wine = new_wine(shops[0], mp, staff, "Two Node Tokaji", 25900, 1)
    racers = [sign_up(apis[i % 2], mp) for i in range(6)]
    for i, racer in enumerate(racers):
        add(shops[i % 2], mp, racer, wine.id, 1)
    outcomes = race_checkouts([(shops[i % 2], racer) for i, racer in enumerate(racers)], mp)
    winners = [o for o in outcomes if not isinstance(o, grpc.RpcError)]
    losers = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert len(winners) == 1, [getattr(o, "details", lambda: o.id)() for o in outcomes]
    assert all(e.code() == Code.FAILED_PRECONDITION and "Two Node Tokaji" in e.details() for e in losers), \
        [(e.code(), e.details()) for e in losers]
    for shop in shops:
        view = shop.catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), metadata=staff.md(), timeout=TIMEOUT)
        assert view.stock == 0 and not view.available


def test_a_watch_on_one_node_sees_changes_committed_through_the_other(nodes, channels):
    a, _ = nodes
    api_a, api_b = (Api(ch) for ch in channels)
    shop_a, shop_b = (Shop(ch) for ch in channels)
    mp = a.marketplace_id(SHOP)
    staff = login_party(api_b, a.demo_login(SHOP, "provider"))
    customer = sign_up(api_a, mp)
    wine = new_wine(shop_b, mp, staff, "Two Node Nebbiolo", 12990, 10)
    add(shop_a, mp, customer, wine.id, 2)
    order = shop_a.orders.Checkout(checkout_request(mp), metadata=customer.md(), timeout=TIMEOUT)

    events: queue.Queue = queue.Queue()
    stream = shop_a.orders.WatchOrder(pb.WatchOrderRequest(marketplace_id=mp, order_id=order.id), metadata=customer.md(), timeout=60)
    threading.Thread(target=collect, args=(stream, events), daemon=True).start()
    first = next_of(events)
    assert first.order.status == OrderStatus.ORDER_STATUS_PENDING

    # Shipped through node B: node A's watcher hears of it from etcd's watch.
    shipped = shop_b.orders.ShipOrder(pb.ShipOrderRequest(marketplace_id=mp, order_id=order.id, shipping_carrier="Pos Laju",
                                                          tracking_number="EP987", expected_version=order.version),
                                      metadata=staff.md(), timeout=TIMEOUT)
    event = next_of(events)
    assert event.sequence == first.sequence + 1 and event.order.status == OrderStatus.ORDER_STATUS_SHIPPED
    assert event.order.version == shipped.version
    stream.cancel()


def test_a_checkout_retried_on_the_other_node_gives_the_same_order(nodes, channels):
    a, _ = nodes
    api_a, _ = (Api(ch) for ch in channels)
    shop_a, shop_b = (Shop(ch) for ch in channels)
    mp = a.marketplace_id(SHOP)
    staff = login_party(api_a, a.demo_login(SHOP, "provider"))
    customer = sign_up(api_a, mp)
    wine = new_wine(shop_a, mp, staff, "Two Node Rosé", 9900, 10)
    add(shop_a, mp, customer, wine.id, 3)
    request = checkout_request(mp, rid=request_id())
    first = shop_a.orders.Checkout(request, metadata=customer.md(), timeout=TIMEOUT)
    again = shop_b.orders.Checkout(request, metadata=customer.md(), timeout=TIMEOUT)
    assert again.id == first.id and again.payment_id == first.payment_id
    assert shop_b.catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), timeout=TIMEOUT).stock == 7


def test_signing_out_on_one_node_ends_the_session_on_the_other(nodes, channels):
    a, _ = nodes
    api_a, api_b = (Api(ch) for ch in channels)
    mp = a.marketplace_id(SHOP)
    party = sign_up(api_a, mp)
    token = party.session.access_token
    for _ in range(3):  # node B now answers this token from its memory
        api_b.accounts.GetMe(pb.GetMeRequest(marketplace_id=mp), metadata=bearer(token), timeout=TIMEOUT)
    api_a.accounts.Logout(pb.LogoutRequest(marketplace_id=mp), metadata=bearer(token), timeout=TIMEOUT)
    # Node B hears of the change through etcd's watch, a moment after the commit.
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            api_b.accounts.GetMe(pb.GetMeRequest(marketplace_id=mp), metadata=bearer(token), timeout=TIMEOUT)
        except grpc.RpcError as error:
            assert error.code() == Code.UNAUTHENTICATED, error
            break
        assert time.monotonic() < deadline, "node B still accepts a token signed out on node A"
        time.sleep(0.05)


def test_souk_load_etcd_txn_inserts_rewrites_and_leaves_no_key(etcd, tmp_path):
    """`souk-load etcd-txn` (bench/etcd/run's ceiling) on the same cluster: Txns that rewrite some
    keys and insert others, every condition true (no ABORTED), and none of its keys left after."""
    report_file = tmp_path / "txn.json"
    done = subprocess.run(
        [souk_load_binary(), "etcd-txn", "--store", etcd, "--concurrency", "2", "--puts", "6", "--compares", "4",
         "--new-puts", "3", "--duration", "1s", "--json", str(report_file)],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(report_file.read_text())
    txn = [r for r in report["rpcs"] if r["name"] == "Txn"][0]
    assert txn["calls"] > 0 and txn["errors"] == 0 and txn["statuses"] == {"OK": txn["calls"]}, txn
    assert report["settings"]["new_puts"] == 3
    endpoints = etcd.removeprefix("etcd://").split("?")[0]
    left = subprocess.run(["etcdctl", f"--endpoints={endpoints}", "get", "souk-load/txn/", "--prefix", "--keys-only"],
                          capture_output=True, text=True, timeout=30, env={**os.environ, "ETCDCTL_API": "3"})
    assert left.returncode == 0, left.stderr
    assert left.stdout.strip() == ""
