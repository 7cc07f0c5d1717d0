"""What one checkout costs etcd: round trips, keys read, commits, and the keys each commit writes.

One demo customer of Chateau Du Nox (a souk-server --demo on the etcd store at ADDRESS) puts a
bottle in the cart and checks out by card, N times, one call at a time. Around each call the
members' Prometheus counters (`/metrics` on their client URLs) are read: KV Txn and Range calls
(grpc_server_handled_total, every member), Raft proposals committed (the write Txns, the largest
member's count), keys read (etcd_mvcc_range_total, every member) and keys put and deleted
(etcd_mvcc_put_total / delete_total, one member: every member applies every write). The keys a
checkout wrote are listed from etcd's JSON gateway (a Range of the whole key space with
min_mod_revision) and named by the store's key layout (Sources/SoukStore/KeySpace.swift).

Prints a JSON object on stdout (the medians over the N checkouts, and one checkout's keys by kind);
bench/etcd/run reads it.

Usage: count_checkout.py ADDRESS ETCD_URL MARKETPLACE_ID N
       count_checkout.py --snapshot ETCD_URL     (the summed counters now, as JSON)
"""
import base64
import json
import re
import statistics
import sys
import pathlib
import urllib.request
import uuid
from collections import Counter

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "e2e"))
from souk_protos import Stub, message  # noqa: E402


class Pb:
    def __getattr__(self, name):
        return message(f"souk.v1.{name}")


pb = Pb()
METRIC = re.compile(r'^(\w+)(\{[^}]*\})? ([0-9.e+-]+)$')


def members(url):
    return ["http://" + e for e in re.sub(r"^etcd://", "", url).split("?")[0].split(",")]


def scrape(member):
    out = Counter()
    for line in urllib.request.urlopen(member + "/metrics", timeout=5).read().decode().splitlines():
        m = METRIC.match(line)
        if not m:
            continue
        name, labels, value = m.group(1), m.group(2) or "", float(m.group(3))
        if name == "grpc_server_handled_total" and 'grpc_service="etcdserverpb.KV"' in labels:
            method = re.search(r'grpc_method="(\w+)"', labels).group(1)
            out["kv_" + method] += value
        elif name in ("etcd_server_proposals_committed_total", "etcd_mvcc_range_total", "etcd_mvcc_put_total",
                      "etcd_mvcc_delete_total", "etcd_server_read_indexes_failed_total"):
            out[name] += value
    return out


def snapshot(urls):
    each = [scrape(u) for u in urls]
    return {
        "txn": sum(s["kv_Txn"] for s in each),
        "range": sum(s["kv_Range"] for s in each),
        "put_calls": sum(s["kv_Put"] + s["kv_DeleteRange"] for s in each),
        "commits": max(s["etcd_server_proposals_committed_total"] for s in each),
        "keys_read": sum(s["etcd_mvcc_range_total"] for s in each),
        "keys_put": each[0]["etcd_mvcc_put_total"],
        "keys_deleted": each[0]["etcd_mvcc_delete_total"],
    }


def gateway(member, path, body):
    request = urllib.request.Request(member + path, data=json.dumps(body).encode(), method="POST")
    return json.loads(urllib.request.urlopen(request, timeout=5).read())


def revision(member):
    return int(gateway(member, "/v3/kv/range", {"key": base64.b64encode(b"\0").decode(), "count_only": True})["header"]["revision"])


def written_since(member, after):
    """Keys whose last write is after revision `after`: (key, revision, whether that write created it)."""
    b64 = base64.b64encode(b"\0").decode()
    answer = gateway(member, "/v3/kv/range", {"key": b64, "range_end": b64, "keys_only": True, "min_mod_revision": str(after + 1)})
    return [(base64.b64decode(kv["key"]), int(kv["mod_revision"]), kv.get("create_revision") == kv["mod_revision"])
            for kv in answer.get("kvs", [])]


def kind(key):
    """The store's name for a key: its tag and the table, index or stream name (KeySpace.swift)."""
    tags = {"R": "record", "I": "index entry", "U": "unique entry", "K": "idempotency", "X": "idempotency expiry",
            "E": "event", "S": "stream head", "T": "event by time", "M": "metadata"}
    tag = chr(key[0])
    name = key[1:].split(b"\x00\x01")[0].decode(errors="replace") if tag != "X" else ""
    if tag in ("E", "S", "T"):
        # Streams are per record (an order's, an account's): keep the stream's family only.
        name = re.split(r"[/:|]", name)[0] if tag != "T" else ""
    return f"{tags.get(tag, tag)} {name}".strip()


def main(address, etcd_url, marketplace_id, count):
    urls = members(etcd_url)
    with grpc.insecure_channel(address) as channel:
        accounts = Stub(channel, "souk.v1.Accounts")
        catalog = Stub(channel, "souk.v1.Catalog")
        carts = Stub(channel, "souk.v1.Carts")
        orders = Stub(channel, "souk.v1.Orders")
        shop = accounts.Login(pb.LoginRequest(marketplace_id=marketplace_id, email="sommelier@chateaudunox.example",
                                              password="Chateau-provider-2026")).access_token
        products = catalog.ListProducts(pb.ListProductsRequest(marketplace_id=marketplace_id, page_size=50, order_by="price")).products
        wine = products[-1].id
        catalog.UpdateProduct(pb.UpdateProductRequest(marketplace_id=marketplace_id, product=pb.Product(id=wine, stock=1_000_000),
                                                      update_mask=message("google.protobuf.FieldMask")(paths=["stock"])),
                              metadata=(("authorization", f"Bearer {shop}"),))
        email = f"count-{uuid.uuid4().hex[:8]}@chateau-load.example"
        token = accounts.SignUp(pb.SignUpRequest(marketplace_id=marketplace_id, request_id=str(uuid.uuid4()), email=email, password="Load-test-2026-pass",
                                                 given_name="Count", family_name="Buyer")).session.access_token
        md = (("authorization", f"Bearer {token}"),)
        per = {"AddCartLine": [], "Checkout": []}
        keys_of_one = None
        for i in range(count + 1):  # the first round warms the caches and is not counted
            before = snapshot(urls)
            carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=marketplace_id, request_id=str(uuid.uuid4()), item_id=wine, quantity=1),
                              metadata=md)
            middle = snapshot(urls)
            start_revision = revision(urls[0])
            orders.Checkout(pb.CheckoutRequest(
                marketplace_id=marketplace_id, request_id=str(uuid.uuid4()), address_confirmed=True,
                address=pb.AddressChoice(address=pb.Address(recipient_name="Count Buyer", line1="12 Jalan Ampang", city="Kuala Lumpur",
                                                            country_code="MY", phone="+60312345678")),
                payment=pb.PaymentMethodInput(card_token="tok_visa")), metadata=md)
            after = snapshot(urls)
            if i == 0:
                continue
            per["AddCartLine"].append({k: middle[k] - before[k] for k in before})
            per["Checkout"].append({k: after[k] - middle[k] for k in before})
            if keys_of_one is None:
                written = written_since(urls[0], start_revision)
                keys_of_one = {
                    "commits": len({r for _, r, _ in written}),
                    "by_commit": [
                        {"revision": r, "keys": len([k for k, kr, _ in written if kr == r]),
                         "new": len([k for k, kr, new in written if kr == r and new]),
                         "kinds": Counter(kind(k) for k, kr, _ in written if kr == r)}
                        for r in sorted({r for _, r, _ in written})
                    ],
                }
        result = {name: {k: statistics.median(d[k] for d in rows) for k in rows[0]} for name, rows in per.items()}
        result["checkout_keys"] = keys_of_one
        result["iterations"] = count
        print(json.dumps(result, indent=1, default=dict))


if __name__ == "__main__":
    if sys.argv[1] == "--snapshot":  # the counters now, for a run's difference
        print(json.dumps(snapshot(members(sys.argv[2]))))
        sys.exit(0)
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
