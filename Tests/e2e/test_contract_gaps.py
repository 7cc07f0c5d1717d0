"""The contract says one thing one way (issue 25, items 2, 15 and 16): listings sort only by
AIP-132 `order_by`; a commission of 0 is told from an unset one; a payment lists the moves its
caller may make now; and the watches, the dashers list, monthly bills and the order and payment
lists name every wrong field of a request at once."""
import datetime
import uuid

import grpc
import pytest

from souk_food import a_point, approved_open_restaurant
from souk_identity import TIMEOUT, Api, FieldMask, login_party, pb, refused, request_id, sign_up
from souk_protos import Stub, enum, field_violations, message
from test_laundry_jobs import Dorm, drip  # noqa: F401
from test_rentals_leases import call as rentals_call, lessee, lessor, published, request_lease  # noqa: F401
from test_rentals_listings import admin, apartment, create, hcmc, mara, regions  # noqa: F401

Code = grpc.StatusCode
PaymentStatus = enum("souk.v1.PaymentStatus")
Timestamp = message("google.protobuf.Timestamp")


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    for service in ("Orders", "Laundry", "Rentals", "Media", "Payments", "Marketplaces"):
        setattr(api, service.lower(), Stub(identity_channel, f"souk.v1.{service}"))
    return api


def named(error):
    return sorted(v.field for v in field_violations(error))


def moves(resource):
    return [(t.name, t.to_state) for t in resource.available_transitions]


# ---- One sorting convention (item 16) ----

def test_search_listings_sorts_by_order_by_alone(api, mara, lessor, hcmc):
    request = pb.SearchListingsRequest.DESCRIPTOR
    assert "sort" not in request.fields_by_name and 6 not in request.fields_by_number
    with pytest.raises(KeyError):
        request.file.pool.FindEnumTypeByName("souk.v1.ListingSort")

    marker = f"g{uuid.uuid4().hex[:10]}"
    cheap = published(api, lessor, hcmc, title=f"Phòng {marker} rẻ")
    dear = create(api, lessor, apartment(hcmc, title=f"Phòng {marker} đắt"))
    dear.monthly_rent.amount_minor = 30_000_000
    dear = rentals_call(api, "UpdateListing", lessor, listing=pb.Listing(id=dear.id, monthly_rent=dear.monthly_rent),
                        update_mask=FieldMask(paths=["monthly_rent"]), expected_version=dear.version)
    dear = rentals_call(api, "PublishListing", lessor, listing_id=dear.id)

    # A client built on the former contract still sends field 6 (2 was RENT_ASCENDING): the
    # server no longer reads it, so the order is the default, newest first.
    search = api.channel.unary_unary("/souk.v1.Rentals/SearchListings", request_serializer=lambda raw: raw,
                                     response_deserializer=pb.SearchListingsResponse.FromString)
    raw = pb.SearchListingsRequest(marketplace_id=mara, query=marker).SerializeToString() + b"\x30\x02"
    assert [r.listing.id for r in search(raw, timeout=TIMEOUT).listings] == [dear.id, cheap.id]

    def searched(order_by):
        return [r.listing.id for r in api.rentals.SearchListings(
            pb.SearchListingsRequest(marketplace_id=mara, query=marker, order_by=order_by), timeout=TIMEOUT).listings]
    # Each former value's order_by, as the RPC documents it.
    assert searched("create_time desc") == [dear.id, cheap.id]
    assert searched("monthly_rent") == [cheap.id, dear.id]
    assert searched("monthly_rent desc") == [dear.id, cheap.id]
    near = pb.GeoPoint(latitude=10.772, longitude=106.698)
    nearest = api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query=marker, order_by="distance", near=near),
                                         timeout=TIMEOUT).listings
    assert [r.distance_meters for r in nearest] == sorted(r.distance_meters for r in nearest)

    # A wrong order_by is named with the request's other wrong fields.
    error = refused(lambda: api.rentals.SearchListings(pb.SearchListingsRequest(
        marketplace_id=mara, query=" ".join(f"w{n}" for n in range(11)), order_by="title", page_token="junk"), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["order_by", "page_token", "query"]
    error = refused(lambda: api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, order_by="distance"),
                                                       timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="near")


# ---- Meaningful zeros (item 16) ----

def test_a_commission_of_zero_is_told_from_an_unset_one(api, identity_server):
    market = {"id": identity_server.marketplace_id("DineSwift"),
              "admin": login_party(api, identity_server.demo_login("DineSwift", "admin"))}
    restaurant, _ = approved_open_restaurant(api, market, f"Zero Oven {uuid.uuid4().hex[:6]}", a_point())
    assert restaurant.commission_bps == 1500

    def commission(**fields):
        return api.catalog.SetRestaurantCommission(pb.SetRestaurantCommissionRequest(
            marketplace_id=market["id"], restaurant_id=restaurant.id, **fields), metadata=market["admin"].md(), timeout=TIMEOUT)
    # Unset is refused naming the field, and changes nothing.
    error = refused(lambda: commission(), Code.INVALID_ARGUMENT, field="commission_bps")
    assert "required" in error.details()
    assert api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=market["id"], restaurant_id=restaurant.id),
                                     metadata=market["admin"].md(), timeout=TIMEOUT).commission_bps == 1500
    # A set 0 is a commission of its own.
    zero = commission(commission_bps=0)
    assert zero.commission_bps == 0 and zero.version > restaurant.version
    # Every wrong field at once.
    error = refused(lambda: api.catalog.SetRestaurantCommission(pb.SetRestaurantCommissionRequest(
        marketplace_id=market["id"], restaurant_id="nope", commission_bps=10_001, expected_version=-1),
        metadata=market["admin"].md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named(error) == ["commission_bps", "expected_version", "restaurant_id"]


# ---- Payments list their caller's moves (item 15) ----

def test_a_cash_payment_shows_each_party_its_moves(api, identity_server):
    from test_water import order_request, services
    mp = identity_server.marketplace_id("Aqua Hub")
    admin = login_party(api, identity_server.demo_login("Aqua Hub", "admin"))
    staff = login_party(api, identity_server.demo_login("Aqua Hub", "provider"))
    courier = login_party(api, identity_server.demo_login("Aqua Hub", "courier"))
    customer = sign_up(api, mp, given_name="Huda")
    water = next(s for s in services(api, mp, "en").values() if s.name == "Safi Water")
    # A window three days ahead: the water journey counts tomorrow's bookings.
    day = datetime.date.today() + datetime.timedelta(days=3)
    window = next(w for w in api.orders.ListServiceWindows(pb.ListServiceWindowsRequest(
        marketplace_id=mp, date=pb.Date(year=day.year, month=day.month, day=day.day)), metadata=customer.md(), timeout=TIMEOUT).windows
        if w.available).window
    order = api.orders.PlaceServiceOrder(order_request(mp, water, window, option=water.options[0]), metadata=customer.md(), timeout=TIMEOUT)

    def payment_seen_by(party):
        return api.payments.GetPayment(pb.GetPaymentRequest(marketplace_id=mp, payment_id=order.payment_id), metadata=party.md(),
                                       timeout=TIMEOUT)
    confirm = [("confirm", "PAYMENT_STATUS_SUCCESSFUL")]
    assert payment_seen_by(customer).status == PaymentStatus.PAYMENT_STATUS_PENDING
    assert moves(payment_seen_by(customer)) == []
    # The marketplace sells water: every provider is its seller.
    assert moves(payment_seen_by(staff)) == confirm
    assert moves(payment_seen_by(admin)) == confirm

    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
        marketplace_id=mp, request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
        metadata=admin.md(), timeout=TIMEOUT)
    for rpc in ("StartDelivery", "CompleteDelivery"):
        getattr(api.deliveries, rpc)(getattr(pb, f"{rpc}Request")(marketplace_id=mp, delivery_id=delivery.id), metadata=courier.md(),
                                     timeout=TIMEOUT)
    collected = payment_seen_by(staff)
    assert collected.status == PaymentStatus.PAYMENT_STATUS_COLLECTED and moves(collected) == confirm
    # The courier's collection was recorded by CompleteDelivery, never offered as a move of its own.
    assert collected.collected_by_account_id == courier.account_id and moves(payment_seen_by(courier)) == []

    paid = api.payments.ConfirmCashPayment(pb.ConfirmCashPaymentRequest(marketplace_id=mp, payment_id=order.payment_id),
                                           metadata=staff.md(), timeout=TIMEOUT)
    assert paid.status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL and moves(paid) == []
    refunds = [("refund_part", "PAYMENT_STATUS_PARTIALLY_REFUNDED"), ("refund", "PAYMENT_STATUS_REFUNDED")]
    listed = api.payments.ListPayments(pb.ListPaymentsRequest(marketplace_id=mp, target_id=order.id), metadata=admin.md(),
                                       timeout=TIMEOUT).payments
    assert [(p.id, moves(p)) for p in listed] == [(order.payment_id, refunds)]
    refunded = api.payments.RefundPayment(pb.RefundPaymentRequest(
        marketplace_id=mp, request_id=request_id(), payment_id=order.payment_id, reason="Bottle leaked",
        amount=pb.Money(amount_minor=100, currency_code=paid.amount.currency_code)), metadata=admin.md(), timeout=TIMEOUT)
    assert refunded.status == PaymentStatus.PAYMENT_STATUS_PARTIALLY_REFUNDED and moves(refunded) == refunds


def test_a_card_payment_of_a_bill_offers_its_lessee_nothing_and_an_admin_refunds(api, mara, lessor, hcmc, admin):
    listing = published(api, lessor, hcmc, title="Căn hộ trả bằng thẻ")
    minh = lessee(api, mara)
    booking = request_lease(api, minh, listing)
    deposit_id = rentals_call(api, "ConfirmBooking", lessor, booking_id=booking.id).deposit_bill_id
    paid = api.payments.CreatePayment(pb.CreatePaymentRequest(
        marketplace_id=mara, request_id=request_id(), bill_id=deposit_id, method=pb.PaymentMethodInput(card_token="tok_visa")),
        metadata=minh.md(), timeout=TIMEOUT)
    assert paid.status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL and moves(paid) == []
    as_admin = api.payments.GetPayment(pb.GetPaymentRequest(marketplace_id=mara, payment_id=paid.id), metadata=admin.md(),
                                       timeout=TIMEOUT)
    assert moves(as_admin) == [("refund_part", "PAYMENT_STATUS_PARTIALLY_REFUNDED"), ("refund", "PAYMENT_STATUS_REFUNDED")]
    assert moves(api.payments.GetPayment(pb.GetPaymentRequest(marketplace_id=mara, payment_id=paid.id), metadata=lessor.md(),
                                         timeout=TIMEOUT)) == []


# ---- Every wrong field at once (item 2) ----

def test_watches_name_the_id_and_the_resume_point_together(api, identity_server, drip, mara, lessor):  # noqa: F811
    water = identity_server.marketplace_id("Aqua Hub")
    water_customer = sign_up(api, water)
    error = refused(lambda: list(api.orders.WatchOrder(pb.WatchOrderRequest(
        marketplace_id=water, order_id="nope", resume_after_sequence=-1), metadata=water_customer.md(), timeout=TIMEOUT)),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["order_id", "resume_after_sequence"]

    student = Dorm(api, drip).student("wren")
    error = refused(lambda: list(api.laundry.WatchJob(pb.WatchJobRequest(
        marketplace_id=drip["id"], job_id="nope", resume_after_sequence=-1), metadata=student.md(), timeout=TIMEOUT)),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["job_id", "resume_after_sequence"]

    error = refused(lambda: list(api.rentals.WatchBooking(pb.WatchBookingRequest(
        marketplace_id=mara, booking_id="nope", resume_after_sequence=-1), metadata=lessor.md(), timeout=TIMEOUT)),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["booking_id", "resume_after_sequence"]


def test_accepting_dashers_name_the_dorm_and_the_page_together(api, drip):  # noqa: F811
    student = Dorm(api, drip).student("yara")
    error = refused(lambda: api.laundry.ListAcceptingDashers(pb.ListAcceptingDashersRequest(
        marketplace_id=drip["id"], dorm_id="nope", page_size=-1, page_token="junk"), metadata=student.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["dorm_id", "page_size", "page_token"]


def test_a_monthly_bill_names_every_wrong_utility_line(api, mara, lessor):
    error = refused(lambda: rentals_call(api, "CreateMonthlyBill", lessor, request_id=request_id(), booking_id="nope",
                                         period=pb.BillingPeriod(year=2030, month=13),
                                         utilities=[pb.UtilityCharge(amount=pb.Money(amount_minor=100)),
                                                    pb.UtilityCharge(kind=1, amount=pb.Money(amount_minor=-5), description="x" * 201)]),
                    Code.INVALID_ARGUMENT)
    assert named(error) == ["booking_id", "period", "utilities[0].kind", "utilities[1].amount", "utilities[1].description"]


def test_order_and_payment_lists_name_every_wrong_filter(api, identity_server):
    mp = identity_server.marketplace_id("Aqua Hub")
    admin = login_party(api, identity_server.demo_login("Aqua Hub", "admin"))
    error = refused(lambda: api.orders.ListOrders(pb.ListOrdersRequest(
        marketplace_id=mp, as_seller=True, courier_account_id="nope", page_token="junk"), metadata=admin.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["as_seller", "courier_account_id", "page_token"]
    error = refused(lambda: api.orders.ListOrders(pb.ListOrdersRequest(
        marketplace_id=mp, customer_account_id="nope", restaurant_id="nada",
        delivered_after=Timestamp(seconds=2_000_000_000), delivered_before=Timestamp(seconds=1_000_000_000)),
        metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named(error) == ["customer_account_id", "customer_account_id", "delivered_before", "restaurant_id"]

    error = refused(lambda: api.payments.ListPayments(pb.ListPaymentsRequest(
        marketplace_id=mp, payer_account_id="nope", target_id="nada", page_token="junk"), metadata=admin.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert named(error) == ["as_seller", "page_token", "payer_account_id", "target_id"]
    customer = sign_up(api, mp)
    error = refused(lambda: api.payments.ListPayments(pb.ListPaymentsRequest(
        marketplace_id=mp, payer_account_id=customer.account_id, page_size=-1, page_token="junk"), metadata=customer.md(),
        timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named(error) == ["page_size", "page_token"]
