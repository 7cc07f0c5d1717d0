"""The rules of dispatch and deliveries through grpcio: a blocked courier leaves dispatch at once
(a driver goes offline and the offer waiting for them passes to the next nearest; a Dasher stops
accepting), rankings start from a restaurant only and show rounded distances, Aqua Hub's staff
are tracked like DineSwift's drivers, each refusal has its own reason listed on its RPC's
`Errors:` line, and every wrong field of a request is named at once."""
import datetime
import queue
import threading
import time

import grpc
import pytest

from souk_food import approved_open_restaurant, pizza_input
from souk_identity import STRONG_PASSWORD, TIMEOUT, Api, Duration, FieldMask, Party, Reason, Role, create_marketplace, \
    login_party, operator_party, pb, refused, request_id, sign_up, unique_email
from souk_protos import Stub, enum, enum_name, error_reason, field_violations, methods
from test_food_journey import approved_driver, place_order, point
from test_laundry_people import dasher, dorms
from test_water import RIYADH, order_request, services

Code = grpc.StatusCode
DeliveryStatus = enum("souk.v1.DeliveryStatus")
PaymentStatus = enum("souk.v1.PaymentStatus")
Kind = enum("souk.v1.NotificationKind")
ResourceType = enum("souk.v1.ResourceType")
ERRORS = {m.short: m.errors_text() for m in methods("souk.v1")}


def documented(method, error):
    """The refusal's reason (for wrong fields: each field) is one its RPC's `Errors:` line lists."""
    reason = error_reason(error)
    names = named(error) if reason == Reason.ERROR_REASON_FIELD_INVALID else \
        [enum_name("souk.v1.ErrorReason", reason).removeprefix("ERROR_REASON_")]
    for name in names:
        assert name in ERRORS[method], f"{method}'s Errors line does not list {name}: {ERRORS[method]!r}"
    return error


def named(error):
    return [v.field for v in field_violations(error)]


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    for service in ("Carts", "Orders", "Notifications", "Payments", "Laundry"):
        setattr(api, service.lower(), Stub(identity_channel, f"souk.v1.{service}"))
    return api


def food_market(api, identity_server):
    """A marketplace of its own (a copy of DineSwift), so no other test's drivers are near, and its admin."""
    operator = operator_party(api, identity_server)
    fresh = create_marketplace(api, operator, identity_server.marketplace_id("DineSwift"))
    return {"id": fresh.id, "admin": staff(api, fresh.id, operator, Role.ROLE_ADMIN), "operator": operator}


def set_offer_timeout(api, market, seconds):
    settings = pb.MarketplaceSettings()
    settings.delivery.offer_timeout.CopyFrom(Duration(seconds=seconds))
    api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=market["id"], settings=settings, update_mask=FieldMask(paths=["delivery.offer_timeout"])),
        metadata=market["operator"].md(), timeout=TIMEOUT)


def staff(api, market_id, creator, role):
    """An account an admin or operator creates with an active role, signed in."""
    email = unique_email("staff")
    api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=market_id, request_id=request_id(), email=email, initial_password=STRONG_PASSWORD, given_name="Nour",
        family_name="Haddad", roles=[role]), metadata=creator.md(), timeout=TIMEOUT)
    return Party.login(api, market_id, email, STRONG_PASSWORD)


def preparing_order(api, market, kitchen=None, item=None):
    """A PREPARING cash order of a restaurant at the kitchen point: (order, owner, item, customer)."""
    if kitchen is None:
        restaurant, kitchen = approved_open_restaurant(api, market, "Rules Kitchen", point())
        item = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
            marketplace_id=market["id"], request_id=request_id(), menu_item=pizza_input(restaurant.id, "Margherita")),
            metadata=kitchen.md(), timeout=TIMEOUT)
    customer = sign_up(api, market["id"], given_name="Rami")
    order = place_order(api, market, customer, item, [("size", "small")])
    api.orders.AcceptOrder(pb.AcceptOrderRequest(marketplace_id=market["id"], order_id=order.id), metadata=kitchen.md(), timeout=TIMEOUT)
    return order, kitchen, item, customer


def offer(api, market, order, kitchen, driver=None):
    choice = {"courier_account_id": driver.account_id} if driver else {"nearest_available": True}
    return api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
        marketplace_id=market["id"], request_id=request_id(), order_id=order.id, **choice), metadata=kitchen.md(), timeout=TIMEOUT)


def block(api, market_id, admin, party):
    return api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=market_id, account_id=party.account_id, reason="Fraud"),
                                     metadata=admin.md(), timeout=TIMEOUT)


def courier_status(api, market_id, admin, party):
    return api.deliveries.GetCourierStatus(pb.GetCourierStatusRequest(marketplace_id=market_id, courier_account_id=party.account_id),
                                           metadata=admin.md(), timeout=TIMEOUT)


def test_a_blocked_driver_leaves_dispatch_at_once_and_their_offer_goes_to_the_next_nearest(api, identity_server):
    market = food_market(api, identity_server)
    market_id, admin = market["id"], market["admin"]
    order, kitchen, _, _ = preparing_order(api, market)
    near = approved_driver(api, market, "Karim", point(north_meters=-500))
    far = approved_driver(api, market, "Sami", point(north_meters=-1500))
    first = offer(api, market, order, kitchen)
    assert first.courier_account_id == near.account_id

    block(api, market_id, admin, near)
    # In the block's own transaction: offline, the waiting offer withdrawn and passed on.
    assert not courier_status(api, market_id, admin, near).online
    assert api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=market_id, delivery_id=first.id), metadata=kitchen.md(),
                                      timeout=TIMEOUT).status == DeliveryStatus.DELIVERY_STATUS_CANCELLED
    attempts = api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(marketplace_id=market_id, order_id=order.id),
                                             metadata=kitchen.md(), timeout=TIMEOUT).deliveries
    passed_on = [d for d in attempts if d.status == DeliveryStatus.DELIVERY_STATUS_OFFERED]
    assert [d.courier_account_id for d in passed_on] == [far.account_id]
    told = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=market_id), metadata=kitchen.md(),
                                               timeout=TIMEOUT).notifications
    assert any(n.title == f"Offer of order {order.order_number} withdrawn" and n.kind == Kind.NOTIFICATION_KIND_ORDER
               and n.subject.id == order.id for n in told)
    ranked = api.deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market_id, order_id=order.id),
                                                  metadata=kitchen.md(), timeout=TIMEOUT).couriers
    assert near.account_id not in [c.courier.account_id for c in ranked]

    # An offer naming the blocked driver is refused with a reason saying so.
    api.deliveries.CancelDelivery(pb.CancelDeliveryRequest(marketplace_id=market_id, delivery_id=passed_on[0].id, reason="Wrong driver"),
                                  metadata=kitchen.md(), timeout=TIMEOUT)
    documented("Deliveries/OfferDelivery", refused(lambda: offer(api, market, order, kitchen, near), Code.FAILED_PRECONDITION,
                                                   reason=Reason.ERROR_REASON_COURIER_BLOCKED))
    # Unblocked, the driver stays offline until they go online themself.
    api.accounts.UnblockAccount(pb.UnblockAccountRequest(marketplace_id=market_id, account_id=near.account_id), metadata=admin.md(),
                                timeout=TIMEOUT)
    assert not courier_status(api, market_id, admin, near).online


def test_a_blocked_dasher_stops_accepting_and_stays_off_after_an_unblock(api, identity_server):
    drip = identity_server.marketplace_id("Drip 'n Dash")
    admin = login_party(api, identity_server.demo_login("Drip 'n Dash", "admin"))
    operator = operator_party(api, identity_server)
    dorm = dorms(api, drip)[-1]
    worker = dasher(api, drip, admin, operator, dorm, "Jordan")
    block(api, drip, admin, worker)
    api.accounts.UnblockAccount(pb.UnblockAccountRequest(marketplace_id=drip, account_id=worker.account_id), metadata=admin.md(),
                                timeout=TIMEOUT)
    account = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=drip, account_id=worker.account_id), metadata=admin.md(),
                                      timeout=TIMEOUT)
    assert not account.dasher_profile.accepting_requests
    customer = sign_up(api, drip, email=unique_email("student", "rutgers.edu"),
                       laundry_profile=pb.LaundryProfile(campus=dorm.campus, dorm_id=dorm.id, room="12"))
    listed = api.laundry.ListAcceptingDashers(pb.ListAcceptingDashersRequest(marketplace_id=drip), metadata=customer.md(),
                                              timeout=TIMEOUT).dashers
    assert worker.account_id not in [d.person.account_id for d in listed]


def test_rankings_start_from_the_restaurant_only_and_show_distances_rounded_to_100_m(api, identity_server):
    market = food_market(api, identity_server)
    market_id, admin = market["id"], market["admin"]
    order, kitchen, _, _ = preparing_order(api, market)
    driver = approved_driver(api, market, "Nadim", point(north_meters=-1234))
    assert "near" not in pb.ListAvailableCouriersRequest.DESCRIPTOR.fields_by_name

    def ranked(caller, **fields):
        return api.deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market_id, **fields),
                                                    metadata=caller.md(), timeout=TIMEOUT).couriers

    # From the order's pickup point, or (without an order) from the calling restaurant itself.
    for fields in ({"order_id": order.id}, {}):
        assert [(c.courier.account_id, c.distance_meters) for c in ranked(kitchen, **fields)] == [(driver.account_id, 1200)]
    # The radius is compared with the shown distance: it tells no more than the rounding does.
    assert ranked(kitchen, radius_meters=1150) == []
    assert [c.distance_meters for c in ranked(kitchen, radius_meters=1200)] == [1200]
    assert [c.distance_meters for c in ranked(admin, order_id=order.id)] == [1200]
    documented("Deliveries/ListAvailableCouriers", refused(lambda: ranked(admin), Code.INVALID_ARGUMENT, field="order_id"))
    assert offer(api, market, order, kitchen, driver).offer_distance_meters == 1200


def test_refusals_of_offers_and_answers_each_have_their_own_reason(api, identity_server):
    market = food_market(api, identity_server)
    market_id = market["id"]
    order, kitchen, item, customer = preparing_order(api, market)
    second, _, _, second_customer = preparing_order(api, market, kitchen, item)
    karim = approved_driver(api, market, "Karim", point(north_meters=-300))
    sami = approved_driver(api, market, "Sami", point(north_meters=-800))
    first = offer(api, market, order, kitchen, karim)

    def refusal(call, method, reason):
        return documented(f"Deliveries/{method}", refused(call, Code.FAILED_PRECONDITION, reason=reason))

    refusal(lambda: offer(api, market, order, kitchen, sami), "OfferDelivery", Reason.ERROR_REASON_DELIVERY_OPEN)
    refusal(lambda: offer(api, market, second, kitchen, karim), "OfferDelivery", Reason.ERROR_REASON_COURIER_BUSY)
    refusal(lambda: api.deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(marketplace_id=market_id, online=False),
                                                          metadata=karim.md(), timeout=TIMEOUT),
            "SetCourierAvailability", Reason.ERROR_REASON_COURIER_BUSY)
    refusal(lambda: offer(api, market, second, kitchen, customer), "OfferDelivery", Reason.ERROR_REASON_NOT_A_COURIER)
    pending = sign_up(api, market_id, requested_roles=[Role.ROLE_COURIER])
    refusal(lambda: offer(api, market, second, kitchen, pending), "OfferDelivery", Reason.ERROR_REASON_COURIER_ROLE_PENDING)
    api.deliveries.RejectDelivery(pb.RejectDeliveryRequest(marketplace_id=market_id, delivery_id=first.id, reason="Flat tyre"),
                                  metadata=karim.md(), timeout=TIMEOUT)
    refusal(lambda: offer(api, market, order, kitchen, karim), "OfferDelivery", Reason.ERROR_REASON_COURIER_DECLINED_ORDER)

    # An answer after offer_timeout: the offer expired, whether or not a read expired it first.
    set_offer_timeout(api, market, 1)
    lapsing = offer(api, market, order, kitchen, sami)
    time.sleep(1.5)
    refusal(lambda: api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(marketplace_id=market_id, delivery_id=lapsing.id),
                                                  metadata=sami.md(), timeout=TIMEOUT), "AcceptDelivery", Reason.ERROR_REASON_OFFER_EXPIRED)
    refusal(lambda: api.deliveries.RejectDelivery(pb.RejectDeliveryRequest(marketplace_id=market_id, delivery_id=lapsing.id),
                                                  metadata=sami.md(), timeout=TIMEOUT), "RejectDelivery", Reason.ERROR_REASON_OFFER_EXPIRED)

    # Nothing to watch before a driver accepts; once one does, "on the way" is about the order.
    refusal(lambda: next(api.deliveries.WatchCourierLocation(pb.WatchCourierLocationRequest(marketplace_id=market_id, order_id=second.id),
                                                             metadata=second_customer.md(), timeout=TIMEOUT)),
            "WatchCourierLocation", Reason.ERROR_REASON_NO_DELIVERY_IN_PROGRESS)
    set_offer_timeout(api, market, 90)
    taken = offer(api, market, second, kitchen, karim)
    api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(marketplace_id=market_id, delivery_id=taken.id), metadata=karim.md(),
                                  timeout=TIMEOUT)
    told = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=market_id), metadata=second_customer.md(),
                                               timeout=TIMEOUT).notifications
    on_the_way = [n for n in told if n.title == f"Order {second.order_number} is on the way"]
    assert [(n.kind, n.subject.type, n.subject.id) for n in on_the_way] == \
        [(Kind.NOTIFICATION_KIND_ORDER, ResourceType.RESOURCE_TYPE_ORDER, second.id)]
    driver_told = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=market_id), metadata=karim.md(),
                                                      timeout=TIMEOUT).notifications
    assert all((n.kind == Kind.NOTIFICATION_KIND_DELIVERY) == (n.subject.type == ResourceType.RESOURCE_TYPE_DELIVERY) for n in driver_told)


def test_every_wrong_field_of_a_dispatch_request_is_named_at_once(api, identity_server):
    market = food_market(api, identity_server)
    market_id, admin = market["id"], market["admin"]
    order, kitchen, _, customer = preparing_order(api, market)
    driver = approved_driver(api, market, "Fadi", point(north_meters=-400))
    cases = [
        (lambda: api.deliveries.CancelDelivery(pb.CancelDeliveryRequest(marketplace_id=market_id, delivery_id="x", expected_version=-1),
                                               metadata=admin.md(), timeout=TIMEOUT), ["delivery_id", "reason", "expected_version"]),
        (lambda: api.deliveries.RejectDelivery(pb.RejectDeliveryRequest(marketplace_id=market_id, delivery_id="x", reason="r" * 1001),
                                               metadata=driver.md(), timeout=TIMEOUT), ["delivery_id", "reason"]),
        (lambda: api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(marketplace_id=market_id, order_id="x"), metadata=kitchen.md(),
                                              timeout=TIMEOUT), ["request_id", "order_id", "courier"]),
        (lambda: api.deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market_id, order_id="x",
                                                                                      radius_meters=60_000, page_size=-1),
                                                      metadata=admin.md(), timeout=TIMEOUT), ["order_id", "radius_meters", "page_size"]),
        (lambda: api.deliveries.UpdateCourierLocation(pb.UpdateCourierLocationRequest(
            marketplace_id=market_id, location=pb.GeoPoint(latitude=95, longitude=200)), metadata=driver.md(), timeout=TIMEOUT),
         ["location.latitude", "location.longitude"]),
        (lambda: api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(marketplace_id=market_id, order_id="x", courier_account_id="y",
                                                                        page_size=-1), metadata=admin.md(), timeout=TIMEOUT),
         ["order_id", "courier_account_id", "page_size"]),
        (lambda: next(api.deliveries.WatchCourierLocation(pb.WatchCourierLocationRequest(
            marketplace_id=market_id, order_id="x", resume_after_sequence=-1), metadata=customer.md(), timeout=TIMEOUT)),
         ["order_id", "resume_after_sequence"]),
    ]
    for call, fields in cases:
        error = refused(call, Code.INVALID_ARGUMENT, field=fields[0])
        assert named(error) == fields, (fields, named(error))
    # The bounds of offer_timeout that marketplaces.proto states are kept.
    for seconds, nanos in ((0, 500_000_000), (601, 0)):
        settings = pb.MarketplaceSettings()
        settings.delivery.offer_timeout.CopyFrom(Duration(seconds=seconds, nanos=nanos))
        error = refused(lambda: api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
            marketplace_id=market_id, settings=settings, update_mask=FieldMask(paths=["delivery.offer_timeout"])),
            metadata=market["operator"].md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
        assert any(f.endswith("delivery.offer_timeout") for f in named(error)), named(error)


@pytest.fixture(scope="module")
def aqua(api, identity_server):
    market_id = identity_server.marketplace_id("Aqua Hub")
    admin = login_party(api, identity_server.demo_login("Aqua Hub", "admin"))
    return {"id": market_id, "admin": admin}


def water_order(api, aqua, customer):
    """A Safi Water order (approved at once, cash) in a window of the day after tomorrow, which
    the journey of test_water leaves alone."""
    water = next(s for s in services(api, aqua["id"], "en").values() if s.name == "Safi Water")
    day = datetime.datetime.now(RIYADH).date() + datetime.timedelta(days=2)
    windows = api.orders.ListServiceWindows(pb.ListServiceWindowsRequest(
        marketplace_id=aqua["id"], date=pb.Date(year=day.year, month=day.month, day=day.day)), metadata=customer.md(), timeout=TIMEOUT).windows
    window = next(w for w in windows if w.available)
    return api.orders.PlaceServiceOrder(order_request(aqua["id"], water, window.window, option=water.options[0]),
                                        metadata=customer.md(), timeout=TIMEOUT)


def test_aqua_hub_staff_are_tracked_and_a_delayed_delivery_completes_with_its_cash(api, aqua):
    market_id, admin = aqua["id"], aqua["admin"]
    courier = staff(api, market_id, admin, Role.ROLE_COURIER)
    customer = sign_up(api, market_id, given_name="Huda")
    order = water_order(api, aqua, customer)
    truck = pb.GeoPoint(latitude=30.9753, longitude=41.0381)
    api.deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(marketplace_id=market_id, online=True, location=truck),
                                          metadata=courier.md(), timeout=TIMEOUT)
    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
        marketplace_id=market_id, request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
        metadata=admin.md(), timeout=TIMEOUT)
    move = lambda rpc, **fields: getattr(api.deliveries, rpc)(getattr(pb, f"{rpc}Request")(
        marketplace_id=market_id, delivery_id=delivery.id, **fields), metadata=courier.md(), timeout=TIMEOUT)
    move("StartDelivery")

    events = queue.Queue()
    watch = api.deliveries.WatchCourierLocation(pb.WatchCourierLocationRequest(marketplace_id=market_id, order_id=order.id),
                                                metadata=customer.md(), timeout=30)
    watcher = threading.Thread(target=lambda: [events.put(e) for e in watch], daemon=True)
    watcher.start()

    def report(north):
        where = pb.GeoPoint(latitude=truck.latitude + north / 111_195, longitude=truck.longitude)
        api.deliveries.UpdateCourierLocation(pb.UpdateCourierLocationRequest(marketplace_id=market_id, location=where),
                                             metadata=courier.md(), timeout=TIMEOUT)
        return where

    assert events.get(timeout=TIMEOUT).location == truck
    moved = report(500)
    assert events.get(timeout=TIMEOUT).location == moved
    move("DelayDelivery", note="Traffic on the ring road")
    moved = report(900)
    seen = events.get(timeout=TIMEOUT)
    assert seen.location == moved and seen.delivery_id == delivery.id
    # A delayed delivery arrives without resuming first; the watch ends with it.
    done = move("CompleteDelivery")
    assert done.status == DeliveryStatus.DELIVERY_STATUS_COMPLETED
    watcher.join(timeout=TIMEOUT)
    assert not watcher.is_alive() and events.empty()
    assert "DELAYED" in [m for m in methods("souk.v1") if m.short == "Deliveries/CompleteDelivery"][0].comment
    # Completing collected the cash: the courier has no step of its own left.
    paid = api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=market_id, order_id=order.id), metadata=customer.md(), timeout=TIMEOUT)
    assert paid.payment_status == PaymentStatus.PAYMENT_STATUS_COLLECTED
    refused(lambda: api.payments.MarkCashCollected(pb.MarkCashCollectedRequest(marketplace_id=market_id, payment_id=order.payment_id),
                                                   metadata=courier.md(), timeout=TIMEOUT), Code.FAILED_PRECONDITION)
    told = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=market_id), metadata=customer.md(),
                                               timeout=TIMEOUT).notifications
    # In the customer's language: Aqua Hub's accounts speak Arabic ("Delivery delayed: order <n>").
    delayed = [n for n in told if n.title.startswith("تأخر التوصيل")]
    assert [n.body for n in delayed] == ["Traffic on the ring road"]
    assert [(n.kind, n.subject.id) for n in delayed] == [(Kind.NOTIFICATION_KIND_ORDER, order.id)]


def test_assigning_water_deliveries_names_each_cause_of_a_refusal(api, aqua):
    market_id, admin = aqua["id"], aqua["admin"]
    customer = sign_up(api, market_id, given_name="Huda")
    order = water_order(api, aqua, customer)

    def assign(courier_id, order_id=None):
        return api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
            marketplace_id=market_id, request_id=request_id(), order_id=order_id or order.id, courier_account_id=courier_id),
            metadata=admin.md(), timeout=TIMEOUT)

    def refusal(courier_id, reason):
        return documented("Deliveries/AssignDelivery", refused(lambda: assign(courier_id), Code.FAILED_PRECONDITION, reason=reason))

    blocked = staff(api, market_id, admin, Role.ROLE_COURIER)
    block(api, market_id, admin, blocked)
    refusal(blocked.account_id, Reason.ERROR_REASON_COURIER_BLOCKED)
    refusal(customer.account_id, Reason.ERROR_REASON_NOT_A_COURIER)
    pending = sign_up(api, market_id, requested_roles=[Role.ROLE_COURIER])
    refusal(pending.account_id, Reason.ERROR_REASON_COURIER_ROLE_PENDING)
    courier = staff(api, market_id, admin, Role.ROLE_COURIER)
    delivery = assign(courier.account_id)
    refusal(courier.account_id, Reason.ERROR_REASON_DELIVERY_OPEN)
    error = refused(lambda: api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(marketplace_id=market_id, order_id="x",
                                                                                   courier_account_id="y"),
                                                          metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="request_id")
    assert named(error) == ["request_id", "order_id", "courier_account_id"]
    # Water staff do not cancel (an admin reassigns), as CancelDelivery says.
    documented("Deliveries/CancelDelivery", refused(lambda: api.deliveries.CancelDelivery(pb.CancelDeliveryRequest(
        marketplace_id=market_id, delivery_id=delivery.id, reason="Truck broke down"), metadata=courier.md(), timeout=TIMEOUT),
        Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED))


def test_the_food_dashboards_count_a_completed_and_a_cancelled_order(api, identity_server):
    """DineSwift's overview and transactions: an order delivered by a driver and completed by the
    restaurant (its subtotal is revenue, its commission owed), one cancelled; the cash collected,
    confirmed, and voided."""
    market = food_market(api, identity_server)
    market_id, admin = market["id"], market["admin"]
    order, kitchen, item, _ = preparing_order(api, market)
    other, _, _, _ = preparing_order(api, market, kitchen, item)
    driver = approved_driver(api, market, "Karim", point(north_meters=-500))
    delivery = offer(api, market, order, kitchen, driver)
    for rpc in ("AcceptDelivery", "CompleteDelivery"):
        getattr(api.deliveries, rpc)(getattr(pb, f"{rpc}Request")(marketplace_id=market_id, delivery_id=delivery.id),
                                     metadata=driver.md(), timeout=TIMEOUT)
    completed = api.orders.CompleteOrder(pb.CompleteOrderRequest(marketplace_id=market_id, order_id=order.id),
                                         metadata=kitchen.md(), timeout=TIMEOUT)
    api.orders.CancelOrder(pb.CancelOrderRequest(marketplace_id=market_id, order_id=other.id, reason="out of dough"),
                           metadata=kitchen.md(), timeout=TIMEOUT)
    reports = Stub(api.channel, "souk.v1.Reports")
    week = enum("souk.v1.ReportPeriod").REPORT_PERIOD_WEEK
    overview = reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, period=week), metadata=admin.md(),
                                         timeout=TIMEOUT)
    Status = enum("souk.v1.OrderStatus")
    assert {c.status: c.count for c in overview.orders_by_status} == {Status.ORDER_STATUS_COMPLETED: 1, Status.ORDER_STATUS_CANCELLED: 1}
    assert (overview.orders_placed, overview.orders_completed, overview.orders_cancelled, overview.deliveries_completed) == (2, 1, 1, 1)
    assert overview.revenue.amount_minor == completed.price.subtotal.amount_minor > 0
    assert overview.commission.amount_minor == completed.commission.amount_minor
    assert overview.fees.amount_minor == completed.price.fees_total.amount_minor
    assert overview.active_couriers == 1 and overview.active_customers == 2
    report = reports.GetTransactionReport(pb.GetTransactionReportRequest(marketplace_id=market_id, period=week), metadata=admin.md(),
                                          timeout=TIMEOUT)
    Method, Paid = enum("souk.v1.PaymentMethod"), enum("souk.v1.PaymentStatus")
    assert {(b.method, b.status): (b.count, b.amount.amount_minor) for b in report.buckets} == {
        (Method.PAYMENT_METHOD_CASH, Paid.PAYMENT_STATUS_SUCCESSFUL): (1, completed.price.total.amount_minor),
        (Method.PAYMENT_METHOD_CASH, Paid.PAYMENT_STATUS_FAILED): (1, other.price.total.amount_minor)}
    assert report.received.amount_minor == report.cash_collected.amount_minor == completed.price.total.amount_minor
    assert report.refunded.amount_minor == 0
