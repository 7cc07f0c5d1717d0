"""Watch RPCs replay the past: every event of WatchOrder (each vertical), WatchJob (all ten
stages) and WatchBooking carries the resource as it was right after that event, live or
replayed. Each resource is taken through its lifecycle, then watched again resuming after each
sequence: every resumed watch gives exactly the later events of the first replay, each event's
(previous state, state) pair follows from the event before it, versions only grow, and the
fields each change set appear from that event on."""
import grpc
import pytest

from souk_food import a_point, approved_open_restaurant, pizza_input
from souk_identity import TIMEOUT, Api, login_party, pb, request_id, sign_up
from souk_protos import Stub, enum
from test_food_journey import approved_driver
from test_laundry_jobs import Dorm, advance, call as laundry_call, drip, submit, work  # noqa: F401
from test_rentals_leases import call as rentals_call, lessee, lessor, next_month, pay as pay_bill, published  # noqa: F401
from test_rentals_listings import admin, hcmc, mara, regions  # noqa: F401
from test_retail import SHOP, Shop, add, checkout_request, new_wine
from test_water import free_windows, order_request, services

Code = grpc.StatusCode
OrderStatus = enum("souk.v1.OrderStatus")
BookingStatus = enum("souk.v1.BookingStatus")
PaymentStatus = enum("souk.v1.PaymentStatus")
BillStatus = enum("souk.v1.BillStatus")
Stage = enum("souk.v1.JobStage")
Utility = enum("souk.v1.UtilityKind")


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    for service in ("Orders", "Carts", "Deliveries", "Payments", "Laundry", "Rentals", "Media", "Marketplaces"):
        setattr(api, service.lower(), Stub(identity_channel, f"souk.v1.{service}"))
    return api


def replay_every_resume(watch, key):
    """The events after sequence 1 (the creation), checked against a watch resumed after each
    later sequence: each gives exactly the events after it, equal field by field (`key`)."""
    full = watch(1)
    assert full and [e.sequence for e in full] == list(range(2, len(full) + 2))
    for after in range(2, full[-1].sequence):
        assert [key(e) for e in watch(after)] == [key(e) for e in full[after - 1:]], f"resumed after {after}"
    return full


def check_chain(full, state, previous, first_previous, version):
    """Each event's previous state is the state the event before it left, and versions grow."""
    assert previous(full[0]) == first_previous
    for before, event in zip(full, full[1:]):
        assert previous(event) == state(before), f"event {event.sequence}: previous state is not what event {before.sequence} left"
        assert version(event) > version(before)


def distinct(values):
    """`values` without repeats of the one before."""
    out = []
    for value in values:
        if not out or out[-1] != value:
            out.append(value)
    return out


# ======== Orders ========

def watch_order(api, party, order_id):
    def watch(after):
        return list(api.orders.WatchOrder(pb.WatchOrderRequest(marketplace_id=party.marketplace_id, order_id=order_id,
                                                               resume_after_sequence=after), metadata=party.md(), timeout=TIMEOUT))
    return watch


def order_key(event):
    return event.sequence, event.previous_status, event.order.status, event.order.version, event.actor_account_id


def replayed_order(api, party, order_id, first_status):
    full = replay_every_resume(watch_order(api, party, order_id), order_key)
    check_chain(full, lambda e: e.order.status, lambda e: e.previous_status, first_status, lambda e: e.order.version)
    current = api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=party.marketplace_id, order_id=order_id),
                                  metadata=party.md(), timeout=TIMEOUT)
    assert (full[-1].order.status, full[-1].order.version) == (current.status, current.version)
    return full


def test_a_retail_order_replays_shipping_delivery_and_receipt(api, identity_channel, identity_server):
    shop = Shop(identity_channel)
    mp = identity_server.marketplace_id(SHOP)
    staff = login_party(api, identity_server.demo_login(SHOP, "provider"))
    customer = sign_up(api, mp)
    wine = new_wine(shop, mp, staff, "Replayed Syrah", 9990, 10)
    add(shop, mp, customer, wine.id, 1)
    order = shop.orders.Checkout(checkout_request(mp), metadata=customer.md(), timeout=TIMEOUT)
    shipped = shop.orders.ShipOrder(pb.ShipOrderRequest(marketplace_id=mp, order_id=order.id, shipping_carrier="Pos Laju",
                                                        tracking_number="EP777", expected_version=order.version),
                                    metadata=staff.md(), timeout=TIMEOUT)
    delivered = shop.orders.DeliverOrder(pb.DeliverOrderRequest(marketplace_id=mp, order_id=order.id, expected_version=shipped.version),
                                         metadata=staff.md(), timeout=TIMEOUT)
    shop.orders.ConfirmOrderReceived(pb.ConfirmOrderReceivedRequest(marketplace_id=mp, order_id=order.id,
                                                                    expected_version=delivered.version),
                                     metadata=customer.md(), timeout=TIMEOUT)

    full = replayed_order(api, customer, order.id, OrderStatus.ORDER_STATUS_PENDING)
    assert [(e.previous_status, e.order.status) for e in full] == [
        (OrderStatus.ORDER_STATUS_PENDING, OrderStatus.ORDER_STATUS_SHIPPED),
        (OrderStatus.ORDER_STATUS_SHIPPED, OrderStatus.ORDER_STATUS_DELIVERED),
        (OrderStatus.ORDER_STATUS_DELIVERED, OrderStatus.ORDER_STATUS_RECEIVED)]
    assert [e.actor_account_id for e in full] == [staff.account_id, staff.account_id, customer.account_id]
    assert full[0].order.version == shipped.version and full[1].order.version == delivered.version


def test_a_water_order_replays_approval_reschedule_delivery_and_completion(api, identity_server):
    mp = identity_server.marketplace_id("Aqua Hub")
    admin = login_party(api, identity_server.demo_login("Aqua Hub", "admin"))
    courier = login_party(api, identity_server.demo_login("Aqua Hub", "courier"))
    customer = sign_up(api, mp, given_name="Huda")
    cleaning = next(s for s in services(api, mp, "en").values() if s.name == "Tank Cleaning")
    windows = [w for w in free_windows(api, customer, days=3) if w.available]
    order = api.orders.PlaceServiceOrder(order_request(mp, cleaning, windows[0].window), metadata=customer.md(), timeout=TIMEOUT)
    approved = api.orders.ApproveOrder(pb.ApproveOrderRequest(marketplace_id=mp, order_id=order.id), metadata=admin.md(), timeout=TIMEOUT)
    moved = api.orders.RescheduleOrder(pb.RescheduleOrderRequest(
        marketplace_id=mp, order_id=order.id, scheduled_window=windows[1].window, reason="Out until noon",
        expected_version=approved.version), metadata=customer.md(), timeout=TIMEOUT)
    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(marketplace_id=mp, request_id=request_id(), order_id=order.id,
                                                                      courier_account_id=courier.account_id),
                                             metadata=admin.md(), timeout=TIMEOUT)
    for rpc in ("StartDelivery", "CompleteDelivery"):
        getattr(api.deliveries, rpc)(getattr(pb, f"{rpc}Request")(marketplace_id=mp, delivery_id=delivery.id),
                                     metadata=courier.md(), timeout=TIMEOUT)

    full = replayed_order(api, customer, order.id, OrderStatus.ORDER_STATUS_PENDING)
    assert distinct([e.order.status for e in full]) == [OrderStatus.ORDER_STATUS_APPROVED, OrderStatus.ORDER_STATUS_COMPLETED]
    assert (full[0].previous_status, full[0].order.status) == (OrderStatus.ORDER_STATUS_PENDING, OrderStatus.ORDER_STATUS_APPROVED)
    assert (full[-1].previous_status, full[-1].order.status) == (OrderStatus.ORDER_STATUS_APPROVED, OrderStatus.ORDER_STATUS_COMPLETED)
    # The window is the first until the reschedule's event, the second from it on.
    rescheduled = next(i for i, e in enumerate(full) if e.order.version == moved.version)
    assert all(e.order.scheduled_window == windows[0].window for e in full[:rescheduled])
    assert all(e.order.scheduled_window == windows[1].window for e in full[rescheduled:])


def test_a_food_order_replays_acceptance_dispatch_delivery_and_completion(api, identity_server):
    mp = identity_server.marketplace_id("DineSwift")
    market = {"id": mp, "admin": login_party(api, identity_server.demo_login("DineSwift", "admin"))}
    where = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Replay Pizza", where)
    pizza = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=mp, request_id=request_id(), menu_item=pizza_input(restaurant.id, "Quattro Stagioni")),
        metadata=owner.md(), timeout=TIMEOUT)
    driver = approved_driver(api, market, "Ziad", where)
    customer = sign_up(api, mp, given_name="Rami")
    api.carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=mp, request_id=request_id(), item_id=pizza.id, quantity=1,
                                                options=[pb.CartLineOption(group_id="size", choice_id="small")]),
                          metadata=customer.md(), timeout=TIMEOUT)
    home = pb.Address(recipient_name="Rami", phone="+9613555123", line1="Coast Road 9", city="Jounieh", country_code="LB",
                      location=where)
    order = api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=mp, request_id=request_id(), address=pb.AddressChoice(address=home), address_confirmed=True,
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)
    api.orders.AcceptOrder(pb.AcceptOrderRequest(marketplace_id=mp, order_id=order.id), metadata=owner.md(), timeout=TIMEOUT)
    offer = api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(marketplace_id=mp, request_id=request_id(), order_id=order.id,
                                                                 courier_account_id=driver.account_id), metadata=owner.md(), timeout=TIMEOUT)
    api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(marketplace_id=mp, delivery_id=offer.id), metadata=driver.md(), timeout=TIMEOUT)
    api.deliveries.CompleteDelivery(pb.CompleteDeliveryRequest(marketplace_id=mp, delivery_id=offer.id), metadata=driver.md(), timeout=TIMEOUT)
    api.orders.CompleteOrder(pb.CompleteOrderRequest(marketplace_id=mp, order_id=order.id), metadata=owner.md(), timeout=TIMEOUT)

    full = replayed_order(api, customer, order.id, OrderStatus.ORDER_STATUS_PLACED)
    assert distinct([e.order.status for e in full]) == [
        OrderStatus.ORDER_STATUS_PREPARING, OrderStatus.ORDER_STATUS_OUT_FOR_DELIVERY, OrderStatus.ORDER_STATUS_DELIVERED,
        OrderStatus.ORDER_STATUS_COMPLETED]
    moves = [(e.previous_status, e.order.status) for e in full if e.previous_status != e.order.status]
    assert moves == [(OrderStatus.ORDER_STATUS_PLACED, OrderStatus.ORDER_STATUS_PREPARING),
                     (OrderStatus.ORDER_STATUS_PREPARING, OrderStatus.ORDER_STATUS_OUT_FOR_DELIVERY),
                     (OrderStatus.ORDER_STATUS_OUT_FOR_DELIVERY, OrderStatus.ORDER_STATUS_DELIVERED),
                     (OrderStatus.ORDER_STATUS_DELIVERED, OrderStatus.ORDER_STATUS_COMPLETED)]
    # The driver is on the order from the dispatch on, not before.
    dispatched = next(i for i, e in enumerate(full) if e.order.status == OrderStatus.ORDER_STATUS_OUT_FOR_DELIVERY)
    assert all(e.order.courier_account_id == "" for e in full[:dispatched])
    assert all(e.order.courier_account_id == driver.account_id for e in full[dispatched:])
    # The cash the driver collected with the delivery is on the delivery's event (one transaction).
    delivered = next(e for e in full if e.order.status == OrderStatus.ORDER_STATUS_DELIVERED)
    assert delivered.order.payment_status == PaymentStatus.PAYMENT_STATUS_COLLECTED
    assert all(e.order.payment_status == PaymentStatus.PAYMENT_STATUS_PENDING for e in full[:full.index(delivered)])


# ======== Laundry jobs ========

def job_key(event):
    return (event.sequence, event.previous_stage, event.job.stage, event.job.state, event.job.version, event.job.dasher_account_id,
            event.actor_account_id)


def test_a_job_replays_all_ten_stages_live_and_resumed(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    job = submit(api, customer)

    def watch(after):
        return api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=customer.marketplace_id, job_id=job.id,
                                                       resume_after_sequence=after), metadata=customer.md(), timeout=TIMEOUT * 3)
    live = watch(0)
    first = next(live)
    assert first.job.stage == Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT
    assert work(api, dasher).id == job.id
    laundry_call(api, "AcceptJob", dasher, job_id=job.id)
    for stage in range(2, 10):
        fields = {"actual_loads": 2, "machine_cost_total": pb.Money(amount_minor=800, currency_code="USD")} if stage == 7 else {}
        advance(api, job, dasher, stage, **fields)
        customer.md()  # the watching customer's app keeps its session fresh, so its stream stays open
    seen = [first] + list(live)  # the job is final: the live watch ends after stage 9

    full = replay_every_resume(lambda after: list(watch(after)), job_key)
    assert [job_key(e) for e in seen[1:]] == [job_key(e) for e in full if e.sequence > first.sequence]
    check_chain(full, lambda e: e.job.stage, lambda e: e.previous_stage, Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT,
                lambda e: e.job.version)
    moves = [(e.previous_stage, e.job.stage) for e in full if e.previous_stage != e.job.stage]
    assert moves == [(stage, stage + 1) for stage in range(0, 9)], "each stage seen once, in order"
    assert full[-1].job.stage == Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY
    accepted = next(i for i, e in enumerate(full) if e.job.stage == 1)
    assert all(e.job.dasher_account_id == "" for e in full[:accepted])
    assert all(e.job.dasher_account_id == dasher.account_id for e in full[accepted:])
    priced = next(i for i, e in enumerate(full) if e.job.stage == 7)
    assert not any(e.job.HasField("final_price") for e in full[:priced])
    assert all(e.job.final_price.subtotal.amount_minor == 800 for e in full[priced:])


# ======== Bookings ========

def booking_key(event):
    return (event.sequence, event.booking.status, event.booking.version, event.bill.id, event.bill.status, event.bill.version,
            event.actor_account_id)


def test_a_booking_replays_its_lease_bills_and_deposit_return(api, mara, lessor, hcmc):
    listing = published(api, lessor, hcmc, title="Căn hộ xem lại")
    minh = lessee(api, mara)
    start = next_month()
    booking = rentals_call(api, "RequestBooking", minh, request_id=request_id(), listing_id=listing.id, months=6,
                           start_date=pb.Date(year=start.year, month=start.month, day=start.day), message="6 tháng")
    confirmed = rentals_call(api, "ConfirmBooking", lessor, booking_id=booking.id)
    pay_bill(api, minh, confirmed.deposit_bill_id)
    bill = rentals_call(api, "CreateMonthlyBill", lessor, request_id=request_id(), booking_id=booking.id,
                        period=pb.BillingPeriod(year=start.year, month=start.month), utilities=[
                            pb.UtilityCharge(kind=Utility.UTILITY_KIND_WATER, description="5 m³",
                                             amount=pb.Money(amount_minor=90_000, currency_code="VND"))])
    pay_bill(api, minh, bill.id)
    rentals_call(api, "EndLease", lessor, booking_id=booking.id, reason="moving")
    rentals_call(api, "ReturnDeposit", lessor, booking_id=booking.id, reason="all fine")

    def watch(after):
        return list(api.rentals.WatchBooking(pb.WatchBookingRequest(marketplace_id=mara, booking_id=booking.id, resume_after_sequence=after),
                                             metadata=minh.md(), timeout=TIMEOUT))
    full = replay_every_resume(watch, booking_key)
    versions = [e.booking.version for e in full]
    assert versions == sorted(versions)
    assert distinct([e.booking.status for e in full]) == [
        BookingStatus.BOOKING_STATUS_CONFIRMED, BookingStatus.BOOKING_STATUS_ACTIVE, BookingStatus.BOOKING_STATUS_ENDED]
    # Each bill event shows the bill as that event left it: the deposit due, then paid; the
    # month's bill due, then paid.
    bills = [(e.bill.id, e.bill.status) for e in full if e.HasField("bill")]
    assert bills == [(confirmed.deposit_bill_id, BillStatus.BILL_STATUS_DUE), (confirmed.deposit_bill_id, BillStatus.BILL_STATUS_PAID),
                     (bill.id, BillStatus.BILL_STATUS_DUE), (bill.id, BillStatus.BILL_STATUS_PAID)]
    # The deposit return is on the last event only.
    assert [e.booking.HasField("deposit_return") for e in full] == [False] * (len(full) - 1) + [True]
