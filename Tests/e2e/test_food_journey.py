"""DineSwift's whole journey through grpcio, as its four apps would run it: a restaurant and its
drivers sign up; the admin sees the restaurant's details, approves it and the drivers, and sets the
commission; the restaurant builds a menu with a size option; a customer searches near home and
orders a pizza with a size and a note (an item of a second restaurant is refused); the restaurant
accepts and ranks the drivers; the nearest rejects, the offer to the next lapses and goes on; a
driver accepts, streams its position while the customer watches, delivers and collects the cash;
the restaurant completes; the customer rates both; the admin's week report equals a recount.
Then the races of dispatch through the server, and what other parties may not see."""
import concurrent.futures
import threading
import time

import grpc
import pytest

from souk_food import approved_open_restaurant, pizza_input, restaurant_input, usd
from souk_identity import STRONG_PASSWORD, TIMEOUT, Api, Duration, FieldMask, code_of, Party, Role, create_marketplace, login_party, operator_party, pb, \
    refused, request_id, sign_up, unique_email
from souk_protos import Stub, enum
from test_laundry_design import poll

Code = grpc.StatusCode
Approval = enum("souk.v1.RestaurantApprovalState")
OrderStatus = enum("souk.v1.OrderStatus")
DeliveryStatus = enum("souk.v1.DeliveryStatus")
PaymentStatus = enum("souk.v1.PaymentStatus")
Target = enum("souk.v1.FeedbackTarget")
Period = enum("souk.v1.ReportPeriod")
DINESWIFT = "DineSwift"
# A street in Jounieh, north of Beirut: the restaurant, and the customer's home 800 m away.
KITCHEN = (33.9808, 35.6178)
OFFER_TIMEOUT_SECONDS = 1


def point(north_meters=0.0, east_meters=0.0):
    return pb.GeoPoint(latitude=KITCHEN[0] + north_meters / 111_195, longitude=KITCHEN[1] + east_meters / 92_200)


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    for service in ("Carts", "Orders", "Deliveries", "Feedback", "Reports", "Payments"):
        setattr(api, service.lower(), Stub(identity_channel, f"souk.v1.{service}"))
    return api


@pytest.fixture(scope="module")
def market(api, identity_server):
    """A marketplace of its own (a copy of DineSwift whose offers lapse after one second) and its admin."""
    operator = operator_party(api, identity_server)
    fresh = create_marketplace(api, operator, identity_server.marketplace_id(DINESWIFT))
    settings = pb.MarketplaceSettings()
    settings.CopyFrom(fresh.settings)
    settings.delivery.offer_timeout.CopyFrom(Duration(seconds=OFFER_TIMEOUT_SECONDS))
    fresh = api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=fresh.id, settings=settings, update_mask=FieldMask(paths=["delivery.offer_timeout"])),
        metadata=operator.md(), timeout=TIMEOUT)
    email = unique_email("admin")
    api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=fresh.id, request_id=request_id(), email=email, initial_password=STRONG_PASSWORD, given_name="Maya",
        family_name="Azar", roles=[Role.ROLE_ADMIN]), metadata=operator.md(), timeout=TIMEOUT)
    return {"id": fresh.id, "admin": Party.login(api, fresh.id, email, STRONG_PASSWORD)}


def approved_driver(api, market, name, where):
    """A driver who signed up, was approved by the admin and went online at `where`."""
    pending = sign_up(api, market["id"], given_name=name, requested_roles=[Role.ROLE_COURIER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=market["id"], account_id=pending.account_id, role=Role.ROLE_COURIER),
                             metadata=market["admin"].md(), timeout=TIMEOUT)
    driver = Party.login(api, market["id"], pending.email, pending.password)
    api.deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(marketplace_id=market["id"], online=True, location=where),
                                          metadata=driver.md(), timeout=TIMEOUT)
    return driver


def place_order(api, market, customer, item, options, note="", quantity=1):
    api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market["id"], request_id=request_id(), item_id=item.id, quantity=quantity, note=note,
        options=[pb.CartLineOption(group_id=g, choice_id=c) for g, c in options]), metadata=customer.md(), timeout=TIMEOUT)
    home = pb.Address(recipient_name="Rami", phone="+9613555123", line1="Rue Maarad 4", city="Jounieh", country_code="LB",
                      location=point(north_meters=800))
    return api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=market["id"], request_id=request_id(), address=pb.AddressChoice(address=home), address_confirmed=True,
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)


def delivery(api, market, party, delivery_id):
    return api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=market["id"], delivery_id=delivery_id),
                                      metadata=party.md(), timeout=TIMEOUT)


def test_dineswift_from_sign_up_to_the_admins_report(api, market):
    market_id, admin = market["id"], market["admin"]

    # A restaurant account signs up and describes its restaurant while its role is pending.
    owner = sign_up(api, market_id, given_name="Lina", requested_roles=[Role.ROLE_PROVIDER])
    created = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=market_id, request_id=request_id(), restaurant=restaurant_input("Pizza Jounieh", point())),
        metadata=owner.md(), timeout=TIMEOUT)
    # The admin sees what it approves, approves it with its owner, and sets the commission.
    pending = api.catalog.ListRestaurants(pb.ListRestaurantsRequest(
        marketplace_id=market_id, approval_states=[Approval.RESTAURANT_APPROVAL_STATE_PENDING]), metadata=admin.md(), timeout=TIMEOUT)
    assert [r.restaurant.name for r in pending.restaurants] == ["Pizza Jounieh"]
    assert pending.restaurants[0].restaurant.address.location.latitude == KITCHEN[0]
    api.catalog.ApproveRestaurant(pb.ApproveRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id),
                                  metadata=admin.md(), timeout=TIMEOUT)
    restaurant = api.catalog.SetRestaurantCommission(pb.SetRestaurantCommissionRequest(
        marketplace_id=market_id, restaurant_id=created.id, commission_bps=1200), metadata=admin.md(), timeout=TIMEOUT)
    assert restaurant.commission_bps == 1200 and restaurant.approval_state == Approval.RESTAURANT_APPROVAL_STATE_APPROVED
    kitchen = Party.login(api, market_id, owner.email, owner.password)
    api.catalog.UpdateRestaurant(pb.UpdateRestaurantRequest(
        marketplace_id=market_id, restaurant=pb.Restaurant(id=created.id, open=True), update_mask=FieldMask(paths=["open"])),
        metadata=kitchen.md(), timeout=TIMEOUT)
    # The menu: a pizza with a required size.
    pizza = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market_id, request_id=request_id(), menu_item=pizza_input(created.id, "Margherita")),
        metadata=kitchen.md(), timeout=TIMEOUT)
    # Three drivers, approved by the admin, online at 600 m, 1.2 km and 2 km from the kitchen.
    near, next_, far = (approved_driver(api, market, name, point(north_meters=m)) for name, m in
                        (("Karim", -600), ("Sami", -1200), ("Hadi", -2000)))

    # A customer searches near home and orders a large pizza with a note.
    customer = sign_up(api, market_id, given_name="Rami")
    found = api.catalog.SearchRestaurants(pb.SearchRestaurantsRequest(
        marketplace_id=market_id, query="pizza", near=point(north_meters=800), open_only=True), timeout=TIMEOUT)
    assert [(r.restaurant.id, r.distance_meters) for r in found.restaurants] == [(created.id, 800)]
    other, other_owner = approved_open_restaurant(api, market, "Burger Hill", point(east_meters=3000))
    burger = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market_id, request_id=request_id(), menu_item=pizza_input(other.id, "Cheeseburger")),
        metadata=other_owner.md(), timeout=TIMEOUT)
    api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market_id, request_id=request_id(), item_id=pizza.id, quantity=1, note="Extra crispy, please",
        options=[pb.CartLineOption(group_id="size", choice_id="large")]), metadata=customer.md(), timeout=TIMEOUT)
    error = refused(lambda: api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market_id, request_id=request_id(), item_id=burger.id, quantity=1,
        options=[pb.CartLineOption(group_id="size", choice_id="small")]), metadata=customer.md(), timeout=TIMEOUT),
        Code.FAILED_PRECONDITION)
    assert "Pizza Jounieh" in error.details()
    home = pb.Address(recipient_name="Rami", phone="+9613555123", line1="Rue Maarad 4", city="Jounieh", country_code="LB",
                      location=point(north_meters=800))
    order = api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=market_id, request_id=request_id(), address=pb.AddressChoice(address=home), address_confirmed=True,
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)
    # (10.00 − 10 % + 4.00 large) = 13.00; delivery 3.00; commission 12 % of 13.00 = 1.56.
    assert order.status == OrderStatus.ORDER_STATUS_PLACED and order.restaurant_name == "Pizza Jounieh"
    assert (order.price.subtotal.amount_minor, order.price.total.amount_minor, order.commission.amount_minor) == (1300, 1600, 156)
    assert order.lines[0].note == "Extra crispy, please" and [o.choice_name for o in order.lines[0].options] == ["Large"]

    # The restaurant accepts and sees the drivers ranked by distance, without their positions.
    api.orders.AcceptOrder(pb.AcceptOrderRequest(marketplace_id=market_id, order_id=order.id), metadata=kitchen.md(), timeout=TIMEOUT)
    ranked = api.deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market_id, order_id=order.id),
                                                  metadata=kitchen.md(), timeout=TIMEOUT)
    assert [(c.courier.account_id, c.distance_meters) for c in ranked.couriers] == \
        [(near.account_id, 600), (next_.account_id, 1200), (far.account_id, 2000)]
    assert ranked.couriers[0].courier.display_name.startswith("Karim")

    # The nearest is offered the order and rejects it.
    offer = api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
        marketplace_id=market_id, request_id=request_id(), order_id=order.id, nearest_available=True), metadata=kitchen.md(), timeout=TIMEOUT)
    assert offer.courier_account_id == near.account_id and offer.status == DeliveryStatus.DELIVERY_STATUS_OFFERED
    api.deliveries.RejectDelivery(pb.RejectDeliveryRequest(marketplace_id=market_id, delivery_id=offer.id, reason="Flat tyre"),
                                  metadata=near.md(), timeout=TIMEOUT)
    # The next nearest lets the offer lapse; the server offers it to the next one.
    offer = api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
        marketplace_id=market_id, request_id=request_id(), order_id=order.id, nearest_available=True), metadata=kitchen.md(), timeout=TIMEOUT)
    assert offer.courier_account_id == next_.account_id
    time.sleep(OFFER_TIMEOUT_SECONDS + 0.5)
    assert delivery(api, market, kitchen, offer.id).status == DeliveryStatus.DELIVERY_STATUS_EXPIRED
    # The scheduler's offer-lapse timer expires it and passes it on (a read only shows it expired).
    open_offers = poll("the lapsed offer passed on", lambda: [
        d for d in api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(marketplace_id=market_id, order_id=order.id),
                                                 metadata=kitchen.md(), timeout=TIMEOUT).deliveries
        if d.status == DeliveryStatus.DELIVERY_STATUS_OFFERED])
    assert [d.courier_account_id for d in open_offers] == [far.account_id]
    offer = open_offers[0]

    # The driver accepts, streams its way while the customer watches, delivers and collects the cash.
    accepted = api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(marketplace_id=market_id, delivery_id=offer.id),
                                             metadata=far.md(), timeout=TIMEOUT)
    assert accepted.status == DeliveryStatus.DELIVERY_STATUS_IN_PROGRESS
    assert api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=market_id, order_id=order.id), metadata=far.md(),
                               timeout=TIMEOUT).address.phone == "+9613555123"
    watch = api.deliveries.WatchCourierLocation(pb.WatchCourierLocationRequest(marketplace_id=market_id, order_id=order.id),
                                                metadata=customer.md(), timeout=TIMEOUT)
    seen = []
    watcher = threading.Thread(target=lambda: seen.extend(event for _, event in zip(range(2), watch)))
    watcher.start()
    now = time.time()
    fixes = [pb.ReportLocationRequest(marketplace_id=market_id, location=point(north_meters=m),
                                      location_time={"seconds": int(now) + i, "nanos": 0}) for i, m in enumerate((-1000, 0, 400))]
    streamed = api.deliveries.ReportLocation(iter(fixes), metadata=far.md(), timeout=TIMEOUT)
    assert streamed.accepted_count == 3
    watcher.join(timeout=TIMEOUT)
    watch.cancel()
    assert len(seen) == 2 and seen[-1].remaining_distance_meters <= 1800
    done = api.deliveries.CompleteDelivery(pb.CompleteDeliveryRequest(marketplace_id=market_id, delivery_id=offer.id),
                                           metadata=far.md(), timeout=TIMEOUT)
    assert done.status == DeliveryStatus.DELIVERY_STATUS_COMPLETED and done.delivery_fee.amount_minor == 300
    delivered = api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=market_id, order_id=order.id), metadata=customer.md(), timeout=TIMEOUT)
    assert delivered.status == OrderStatus.ORDER_STATUS_DELIVERED and delivered.payment_status == PaymentStatus.PAYMENT_STATUS_COLLECTED

    # The restaurant completes; the driver no longer sees the customer's phone.
    completed = api.orders.CompleteOrder(pb.CompleteOrderRequest(marketplace_id=market_id, order_id=order.id),
                                         metadata=kitchen.md(), timeout=TIMEOUT)
    assert completed.status == OrderStatus.ORDER_STATUS_COMPLETED and completed.payment_status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL
    assert api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=market_id, order_id=order.id), metadata=far.md(),
                               timeout=TIMEOUT).address.phone == ""

    # The customer rates the restaurant and the driver; the averages follow.
    for target, stars in ((Target.FEEDBACK_TARGET_RESTAURANT, 4), (Target.FEEDBACK_TARGET_COURIER, 5)):
        api.feedback.CreateFeedback(pb.CreateFeedbackRequest(
            marketplace_id=market_id, request_id=request_id(), order_id=order.id, stars=stars, target=target, comment="Hot and fast"),
            metadata=customer.md(), timeout=TIMEOUT)
    rated = api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id), timeout=TIMEOUT)
    assert (rated.rating.count, rated.rating.average_hundredths) == (1, 400)
    driver_rating = api.feedback.GetRatingSummary(pb.GetRatingSummaryRequest(marketplace_id=market_id, account_id=far.account_id),
                                                  timeout=TIMEOUT)
    assert (driver_rating.count, driver_rating.average_hundredths) == (1, 500)

    # The admin's week report equals a recount of the orders.
    orders = api.orders.ListOrders(pb.ListOrdersRequest(marketplace_id=market_id, restaurant_id=created.id, page_size=100),
                                   metadata=admin.md(), timeout=TIMEOUT).orders
    completed_orders = [o for o in orders if o.status == OrderStatus.ORDER_STATUS_COMPLETED]
    week = api.reports.ListRestaurantReports(pb.ListRestaurantReportsRequest(marketplace_id=market_id, period=Period.REPORT_PERIOD_WEEK),
                                             metadata=admin.md(), timeout=TIMEOUT)
    ours = [r for r in week.restaurants if r.restaurant_id == created.id]
    assert len(ours) == 1 and ours[0].restaurant_name == "Pizza Jounieh"
    assert (ours[0].orders_placed, ours[0].orders_completed, ours[0].orders_cancelled) == (len(orders), len(completed_orders), 0)
    assert ours[0].revenue.amount_minor == sum(o.price.subtotal.amount_minor for o in completed_orders)
    assert ours[0].commission.amount_minor == sum(o.commission.amount_minor for o in completed_orders)
    earnings = api.reports.ListCourierEarnings(pb.ListCourierEarningsRequest(marketplace_id=market_id, period=Period.REPORT_PERIOD_WEEK),
                                               metadata=admin.md(), timeout=TIMEOUT)
    assert [(e.courier.account_id, e.deliveries_completed, e.earnings.amount_minor, e.cash_collected.amount_minor)
            for e in earnings.couriers] == [(far.account_id, 1, 300, 1600)]
    # The restaurant sees its own report only.
    own = api.reports.ListRestaurantReports(pb.ListRestaurantReportsRequest(marketplace_id=market_id, period=Period.REPORT_PERIOD_MONTH),
                                            metadata=kitchen.md(), timeout=TIMEOUT)
    assert [r.restaurant_id for r in own.restaurants] == [created.id]
    refused(lambda: api.reports.ListRestaurantReports(pb.ListRestaurantReportsRequest(
        marketplace_id=market_id, period=Period.REPORT_PERIOD_WEEK, restaurant_id=other.id), metadata=kitchen.md(), timeout=TIMEOUT),
        Code.PERMISSION_DENIED)


def test_two_restaurants_offering_to_one_driver_at_once_give_it_one_delivery(api, market, identity_server):
    market_id = market["id"]
    driver = approved_driver(api, market, "Nabil", point(north_meters=-300))
    customer = sign_up(api, market_id, given_name="Rami")
    second_customer = sign_up(api, market_id, given_name="Yara")
    kitchens, orders = [], []
    for name, who, east in (("Race Oven", customer, 100), ("Race Grill", second_customer, -100)):
        restaurant, owner = approved_open_restaurant(api, market, name, point(east_meters=east))
        item = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
            marketplace_id=market_id, request_id=request_id(), menu_item=pizza_input(restaurant.id, f"{name} pizza")),
            metadata=owner.md(), timeout=TIMEOUT)
        order = place_order(api, market, who, item, [("size", "small")])
        api.orders.AcceptOrder(pb.AcceptOrderRequest(marketplace_id=market_id, order_id=order.id), metadata=owner.md(), timeout=TIMEOUT)
        kitchens.append(owner)
        orders.append(order)

    def offer(i):
        try:
            return api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
                marketplace_id=market_id, request_id=request_id(), order_id=orders[i].id, courier_account_id=driver.account_id),
                metadata=kitchens[i].md(), timeout=TIMEOUT)
        except grpc.RpcError as error:
            return error

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(offer, range(2)))
    offered = [o for o in outcomes if isinstance(o, pb.Delivery)]
    failed = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert len(offered) == 1 and len(failed) == 1 and failed[0].code() == Code.FAILED_PRECONDITION

    # A driver never sees another restaurant's order; a customer of another marketplace sees none of it.
    other = next(o for o in orders if o.id != offered[0].order_id)
    refused(lambda: api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=market_id, order_id=other.id), metadata=driver.md(),
                                        timeout=TIMEOUT), Code.PERMISSION_DENIED)
    mine = api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(marketplace_id=market_id), metadata=driver.md(), timeout=TIMEOUT)
    assert [d.order_id for d in mine.deliveries] == [offered[0].order_id]
    stranger = login_party(api, identity_server.demo_login(DINESWIFT, "customer"))
    for call in (lambda: api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=market_id, order_id=other.id), metadata=stranger.md(),
                                             timeout=TIMEOUT),
                 lambda: api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=stranger.marketplace_id, order_id=other.id),
                                             metadata=stranger.md(), timeout=TIMEOUT),
                 lambda: api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=market_id, delivery_id=offered[0].id),
                                                    metadata=stranger.md(), timeout=TIMEOUT)):
        assert code_of(call) in (Code.PERMISSION_DENIED, Code.NOT_FOUND)
