"""Chateau Du Nox end to end through grpcio: a guest browses the demo cellar, a customer fills a
cart within the line cap, checks out with a test card to a confirmed address, the shop ships and
delivers, the customer confirms receipt; a declined card changes nothing, the last bottle goes to
exactly one of many racing customers, and a retried checkout charges once."""
import re
import unicodedata

import grpc
import pytest

from souk_identity import TIMEOUT, Api, Reason, login_party, pb, race, refused, request_id, sign_up
from souk_protos import Stub, enum

Code = grpc.StatusCode
Category = enum("souk.v1.ProductCategory")
OrderStatus = enum("souk.v1.OrderStatus")
FeeKind = enum("souk.v1.FeeKind")
PaymentStatus = enum("souk.v1.PaymentStatus")
SHOP = "Chateau Du Nox"


class Shop:
    """Stubs of the commerce services over one channel."""

    def __init__(self, channel):
        self.catalog = Stub(channel, "souk.v1.Catalog")
        self.carts = Stub(channel, "souk.v1.Carts")
        self.orders = Stub(channel, "souk.v1.Orders")
        self.payments = Stub(channel, "souk.v1.Payments")
        self.accounts = Stub(channel, "souk.v1.Accounts")


@pytest.fixture(scope="module")
def shop(identity_channel):
    return Shop(identity_channel)


@pytest.fixture(scope="module")
def mp(identity_server):
    return identity_server.marketplace_id(SHOP)


@pytest.fixture(scope="module")
def staff(api, identity_server):
    return login_party(api, identity_server.demo_login(SHOP, "provider"))


def sort_key(name):
    """The server's name order: lower case, accents and punctuation dropped."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(re.findall(r"[a-z0-9]+", plain))


def myr(minor):
    return pb.Money(amount_minor=minor, currency_code="MYR")


def typed_address(line1="12 Jalan Ampang"):
    return pb.AddressChoice(address=pb.Address(recipient_name="Aisyah", line1=line1, city="Kuala Lumpur", country_code="MY"))


def new_wine(shop, mp, staff, name, price, stock):
    return shop.catalog.CreateProduct(pb.CreateProductRequest(
        marketplace_id=mp, request_id=request_id(), product=pb.Product(
            name=name, category=Category.PRODUCT_CATEGORY_RED, price=myr(price), stock=stock, available=True)),
        metadata=staff.md(), timeout=TIMEOUT)


def add(shop, mp, party, product_id, quantity):
    return shop.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=mp, request_id=request_id(), item_id=product_id, quantity=quantity), metadata=party.md(), timeout=TIMEOUT)


def checkout_request(mp, *, card="tok_visa", confirmed=True, address=None, rid=None):
    return pb.CheckoutRequest(
        marketplace_id=mp, request_id=rid or request_id(), address=address or typed_address(), address_confirmed=confirmed,
        payment=pb.PaymentMethodInput(card_token=card))


def race_checkouts(racers, mp):
    """Checks out every (shop, party) of `racers` at once, all released together; the orders, or
    the errors, in the same order."""
    return race([lambda shop=shop, party=party: shop.orders.Checkout(checkout_request(mp), metadata=party.md(), timeout=TIMEOUT)
                 for shop, party in racers])


def test_a_guest_browses_filters_and_sorts_but_has_no_cart(shop, mp):
    wines = shop.catalog.ListProducts(pb.ListProductsRequest(marketplace_id=mp, page_size=100), timeout=TIMEOUT).products
    names = [w.name for w in wines]
    assert "Barbera d'Alba" in names and names == sorted(names, key=sort_key)
    assert all(w.available and w.stock > 0 and not w.archived for w in wines), "guests see only wines they can buy"
    cheap = shop.catalog.ListProducts(pb.ListProductsRequest(
        marketplace_id=mp, page_size=100, order_by="price",
        filter=pb.ProductFilter(max_price=myr(20000), min_expert_rating=4)), timeout=TIMEOUT).products
    prices = [w.price.amount_minor for w in cheap]
    assert cheap and prices == sorted(prices) and all(p <= 20000 for p in prices)
    assert all(w.expert_rating >= 4 for w in cheap)
    reds = shop.catalog.ListProducts(pb.ListProductsRequest(
        marketplace_id=mp, order_by="price desc", filter=pb.ProductFilter(category=Category.PRODUCT_CATEGORY_RED)), timeout=TIMEOUT).products
    assert reds and all(w.category == Category.PRODUCT_CATEGORY_RED for w in reds)
    assert [w.price.amount_minor for w in reds] == sorted((w.price.amount_minor for w in reds), reverse=True)
    found = shop.catalog.SearchProducts(pb.SearchProductsRequest(marketplace_id=mp, query="chateau"), timeout=TIMEOUT).products
    assert [w.name for w in found] == ["Château Margaux Pavillon Rouge"]
    refused(lambda: shop.catalog.ListProducts(pb.ListProductsRequest(marketplace_id=mp, order_by="colour"), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="order_by")
    barbera = next(w for w in wines if w.name == "Barbera d'Alba")
    refused(lambda: shop.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=mp, request_id=request_id(), item_id=barbera.id, quantity=1), timeout=TIMEOUT), Code.UNAUTHENTICATED)


def test_the_whole_journey(api, shop, mp, staff):
    customer = sign_up(api, mp)
    barbera = new_wine(shop, mp, staff, "Journey Barbera", 8990, 40)
    other = new_wine(shop, mp, staff, "Journey Merlot", 6990, 40)
    error = refused(lambda: add(shop, mp, customer, barbera.id, 13), Code.INVALID_ARGUMENT, field="quantity",
                    reason=Reason.ERROR_REASON_QUANTITY_LIMIT)
    assert "12" in error.details()
    add(shop, mp, customer, barbera.id, 3)
    error = refused(lambda: add(shop, mp, customer, barbera.id, 1), Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_CART_LINE_EXISTS)
    assert "Journey Barbera" in error.details()
    cart = add(shop, mp, customer, other.id, 1)
    cart = shop.carts.RemoveCartLine(pb.RemoveCartLineRequest(marketplace_id=mp, item_id=other.id, expected_version=cart.version),
                                     metadata=customer.md(), timeout=TIMEOUT)
    assert (cart.price.subtotal.amount_minor, cart.price.tax.amount_minor, cart.price.total.amount_minor) == (26970, 7012, 39972)
    assert [(f.kind, f.amount.amount_minor) for f in cart.price.fees] == [(FeeKind.FEE_KIND_SHIPPING, 5990)]

    # The profile address is the default saved one; a different address must be confirmed.
    shop.accounts.CreateAddress(pb.CreateAddressRequest(
        marketplace_id=mp, request_id=request_id(), is_default=True,
        address=pb.Address(line1="1 Jalan Home", city="Petaling Jaya", country_code="MY")), metadata=customer.md(), timeout=TIMEOUT)
    refused(lambda: shop.orders.Checkout(checkout_request(mp, confirmed=False), metadata=customer.md(), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="address_confirmed", reason=Reason.ERROR_REASON_ADDRESS_NOT_CONFIRMED)
    order = shop.orders.Checkout(checkout_request(mp, address=typed_address("99 Jalan Office")), metadata=customer.md(), timeout=TIMEOUT)
    assert order.status == OrderStatus.ORDER_STATUS_PENDING and order.address.line1 == "99 Jalan Office"
    assert (order.price.subtotal.amount_minor, order.price.tax_rate_bps, order.price.tax.amount_minor) == (26970, 2600, 7012)
    assert [f.amount.amount_minor for f in order.price.fees] == [5990] and order.price.total.amount_minor == 39972
    assert order.payment_status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL and order.order_number.startswith("CDN-")
    assert shop.carts.GetCart(pb.GetCartRequest(marketplace_id=mp), metadata=customer.md(), timeout=TIMEOUT).lines == []

    # The shop's staff see the payment as sellers, ship and record delivery.
    sold = shop.payments.ListPayments(pb.ListPaymentsRequest(marketplace_id=mp, as_seller=True, page_size=100),
                                      metadata=staff.md(), timeout=TIMEOUT).payments
    assert order.payment_id in [p.id for p in sold]
    refused(lambda: shop.orders.ShipOrder(pb.ShipOrderRequest(marketplace_id=mp, order_id=order.id), metadata=customer.md(),
                                          timeout=TIMEOUT), Code.PERMISSION_DENIED)
    shipped = shop.orders.ShipOrder(pb.ShipOrderRequest(
        marketplace_id=mp, order_id=order.id, shipping_carrier="Pos Laju", tracking_number="EP123456789MY"),
        metadata=staff.md(), timeout=TIMEOUT)
    assert shipped.status == OrderStatus.ORDER_STATUS_SHIPPED and shipped.tracking_number == "EP123456789MY"
    delivered = shop.orders.DeliverOrder(pb.DeliverOrderRequest(marketplace_id=mp, order_id=order.id), metadata=staff.md(), timeout=TIMEOUT)
    assert delivered.status == OrderStatus.ORDER_STATUS_DELIVERED and delivered.deliver_time.seconds > 0
    received = shop.orders.ConfirmOrderReceived(pb.ConfirmOrderReceivedRequest(marketplace_id=mp, order_id=order.id),
                                                metadata=customer.md(), timeout=TIMEOUT)
    assert received.status == OrderStatus.ORDER_STATUS_RECEIVED and received.receive_time.seconds >= delivered.deliver_time.seconds


def test_a_declined_card_leaves_the_cart_intact(api, shop, mp, staff):
    customer = sign_up(api, mp)
    wine = new_wine(shop, mp, staff, "Decline Shiraz", 12900, 5)
    before = add(shop, mp, customer, wine.id, 2)
    error = refused(lambda: shop.orders.Checkout(checkout_request(mp, card="tok_decline"), metadata=customer.md(), timeout=TIMEOUT),
                    Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_PAYMENT_DECLINED)
    assert "declined" in error.details()
    after = shop.carts.GetCart(pb.GetCartRequest(marketplace_id=mp), metadata=customer.md(), timeout=TIMEOUT)
    assert after == before
    assert shop.catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), timeout=TIMEOUT).stock == 5
    mine = shop.payments.ListPayments(pb.ListPaymentsRequest(marketplace_id=mp, payer_account_id=customer.account_id),
                                      metadata=customer.md(), timeout=TIMEOUT).payments
    assert list(mine) == []


def test_the_last_bottle_has_exactly_one_winner(api, shop, mp, staff):
    wine = new_wine(shop, mp, staff, "Last Bottle Tokaji", 25900, 1)
    racers = [sign_up(api, mp) for _ in range(6)]
    for racer in racers:
        add(shop, mp, racer, wine.id, 1)
    outcomes = race_checkouts([(shop, racer) for racer in racers], mp)
    winners = [o for o in outcomes if not isinstance(o, grpc.RpcError)]
    losers = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert len(winners) == 1, [getattr(o, "details", lambda: o.id)() for o in outcomes]
    assert all(e.code() == Code.FAILED_PRECONDITION and "Last Bottle Tokaji" in e.details() for e in losers)
    staff_view = shop.catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), metadata=staff.md(), timeout=TIMEOUT)
    assert staff_view.stock == 0 and not staff_view.available


def test_a_retried_checkout_gives_one_order_and_one_payment(api, shop, mp, staff):
    customer = sign_up(api, mp)
    wine = new_wine(shop, mp, staff, "Retry Rosé", 12900, 10)
    add(shop, mp, customer, wine.id, 2)
    request = checkout_request(mp)
    first = shop.orders.Checkout(request, metadata=customer.md(), timeout=TIMEOUT)
    again = shop.orders.Checkout(request, metadata=customer.md(), timeout=TIMEOUT)
    assert again.id == first.id and again.payment_id == first.payment_id
    mine = shop.payments.ListPayments(pb.ListPaymentsRequest(marketplace_id=mp, payer_account_id=customer.account_id),
                                      metadata=customer.md(), timeout=TIMEOUT).payments
    assert [p.id for p in mine] == [first.payment_id]
    assert shop.catalog.GetProduct(pb.GetProductRequest(marketplace_id=mp, product_id=wine.id), timeout=TIMEOUT).stock == 8
