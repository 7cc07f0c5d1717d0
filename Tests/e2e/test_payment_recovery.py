"""Payments in two phases survive a crash: the card is authorized outside the checkout's
transaction, so a server killed (SIGKILL) after the gateway authorized and before the order
committed leaves an authorization that no payment references. At the next start payment
recovery voids it: no charge stands, no order or payment exists, the cart and the stock are as
they were, and the same checkout then goes through.

The simulated gateway stands for an outside provider: it keeps its authorizations in a journal
file outside the store (--simulated-gateway-journal), which this test reads as the provider's
own record; --simulated-gateway-fault stall-after-authorize (a fault for tests) holds every
authorization's answer back, so the kill lands between authorize and commit."""
import json
import pathlib
import signal
import tempfile
import time

import grpc

from conftest import IdentityServer, Server
from souk_identity import TIMEOUT, Api, Party, login_party, pb, request_id, sign_up
from souk_protos import Stub, enum

Code = grpc.StatusCode
Category = enum("souk.v1.ProductCategory")
PaymentStatus = enum("souk.v1.PaymentStatus")
SHOP = "Chateau Du Nox"


def journal_entries(path: pathlib.Path) -> dict:
    """The gateway's last word on each key: {key: entry}."""
    entries = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                decoded = json.loads(line)
                entries[decoded["key"]] = decoded["entry"]
    return entries


def wait_for_authorization(path: pathlib.Path, server: Server, timeout: float = 60) -> str:
    """Waits until the gateway's journal holds an authorization; returns its key."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        authorized = [key for key, entry in journal_entries(path).items() if entry["state"] == "authorized"]
        if authorized:
            return authorized[0]
        assert server.process.poll() is None, server.log_text()[-2000:]
        time.sleep(0.02)
    raise AssertionError(f"the gateway recorded no authorization: {server.log_text()[-2000:]}")


def wait_for_state(path: pathlib.Path, key: str, state: str, server: Server, timeout: float = 60) -> dict:
    """Waits until the gateway's journal shows `key` in `state` (a capture follows the answer
    that its commit allowed); returns the journal's entries."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        entries = journal_entries(path)
        if entries.get(key, {}).get("state") == state:
            return entries
        time.sleep(0.02)
    raise AssertionError(f"{key} is not {state} at the gateway: {journal_entries(path).get(key)}; {server.log_text()[-2000:]}")


def test_a_kill_between_authorize_and_commit_leaves_no_charge():
    journal = pathlib.Path(tempfile.mkdtemp(prefix="souk-e2e-gateway-")) / "gateway.jsonl"
    first = IdentityServer(3600, "--simulated-gateway-journal", str(journal),
                           "--simulated-gateway-fault", "stall-after-authorize")
    mp = first.marketplace_id(SHOP)
    with first.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        api = Api(channel)
        catalog, carts, orders = (Stub(channel, f"souk.v1.{name}") for name in ("Catalog", "Carts", "Orders"))
        staff = login_party(api, first.demo_login(SHOP, "provider"))
        customer = sign_up(api, mp)
        wine = catalog.CreateProduct(pb.CreateProductRequest(
            marketplace_id=mp, request_id=request_id(), product=pb.Product(
                name="Crash Test Merlot", category=Category.PRODUCT_CATEGORY_RED,
                price=pb.Money(amount_minor=15900, currency_code="MYR"), stock=5, available=True)),
            metadata=staff.md(), timeout=TIMEOUT)
        carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=mp, request_id=request_id(), item_id=wine.id, quantity=2),
                          metadata=customer.md(), timeout=TIMEOUT)
        cart_before = carts.GetCart(pb.GetCartRequest(marketplace_id=mp), metadata=customer.md(), timeout=TIMEOUT)
        checkout = pb.CheckoutRequest(
            marketplace_id=mp, request_id=request_id(),
            address=pb.AddressChoice(address=pb.Address(
                recipient_name="Aisyah", line1="12 Jalan Ampang", city="Kuala Lumpur", country_code="MY")),
            address_confirmed=True, payment=pb.PaymentMethodInput(card_token="tok_visa"))
        stalled = orders.Checkout.future(checkout, metadata=customer.md(), timeout=120)

        key = wait_for_authorization(journal, first)
        assert key == f"{mp}/{customer.account_id}/{checkout.request_id}/1"
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=30)
        first.log.close()
        assert stalled.exception(timeout=30).code() == Code.UNAVAILABLE
    # The provider's record after the crash: held, not captured, not released.
    assert journal_entries(journal)[key]["state"] == "authorized"

    # The next start settles what the killed process left before it serves calls.
    second = Server("--access-token-ttl", "3600", "--password-hash-memory-kib", "8192",
                    "--simulated-gateway-journal", str(journal), data_dir=first.data_dir)
    try:
        assert journal_entries(journal)[key]["state"] == "voided"
        with second.channel() as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            api = Api(channel)
            catalog, carts, orders, payments = (
                Stub(channel, f"souk.v1.{name}") for name in ("Catalog", "Carts", "Orders", "Payments"))
            customer = Party.login(api, mp, customer.email, customer.password)
            mine = payments.ListPayments(pb.ListPaymentsRequest(marketplace_id=mp, payer_account_id=customer.account_id),
                                         metadata=customer.md(), timeout=TIMEOUT).payments
            assert list(mine) == []
            assert list(orders.ListOrders(pb.ListOrdersRequest(marketplace_id=mp), metadata=customer.md(),
                                          timeout=TIMEOUT).orders) == []
            cart = carts.GetCart(pb.GetCartRequest(marketplace_id=mp), metadata=customer.md(), timeout=TIMEOUT)
            assert [(line.item_id, line.quantity) for line in cart.lines] == [(wine.id, 2)]
            assert cart.version == cart_before.version
            assert catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), timeout=TIMEOUT).stock == 5

            # The same request goes through now, with a fresh authorization, captured once the
            # order committed (the answer does not wait for the capture).
            order = orders.Checkout(checkout, metadata=customer.md(), timeout=TIMEOUT)
            assert order.payment_status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL
            paid = payments.GetPayment(pb.GetPaymentRequest(marketplace_id=mp, payment_id=order.payment_id),
                                       metadata=customer.md(), timeout=TIMEOUT)
            retried = f"{mp}/{customer.account_id}/{checkout.request_id}/2"
            gateway = wait_for_state(journal, retried, "captured", second)
            assert paid.gateway_reference == gateway[retried]["reference"]
            assert gateway[key]["state"] == "voided"
            assert catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), timeout=TIMEOUT).stock == 3
    finally:
        code = second.stop()
    assert code == 0, f"souk-server did not stop cleanly ({code}): {second.log_text()[-2000:]}"
