"""The journeys' races across two souk-server nodes on one etcd cluster (souk_nodes.py), each with
its racers released together, half on node A's channel and half on node B's, and exactly one
winner, the final state read through both nodes: Dashers asking at once for work from a Drip 'n
Dash queue, confirmations racing for one MARA listing (and two of one lease), DineSwift
restaurants offering one driver at once. And a marketplace changed through node B is what node A
answers by: its settings, its archiving and restoring."""
import time
import uuid

import grpc
import pytest

from souk_food import approved_open_restaurant, pizza_input
from souk_identity import STRONG_PASSWORD, TIMEOUT, Api, FieldMask, Party, Reason, Role, create_marketplace, login_party, \
    operator_party, pb, race, request_id, sign_up
from souk_nodes import channels, etcd, nodes  # noqa: F401  (the module's cluster and nodes)
from souk_protos import Stub, enum, error_reason
from test_food_journey import approved_driver, place_order, point
from test_laundry_jobs import Dorm, submit, work
from test_rentals_leases import lessee, published, request_lease

Code = grpc.StatusCode
BookingStatus = enum("souk.v1.BookingStatus")
ListingStatus = enum("souk.v1.ListingStatus")
OrderStatus = enum("souk.v1.OrderStatus")
DeliveryStatus = enum("souk.v1.DeliveryStatus")
SERVICES = ("Laundry", "Rentals", "Carts", "Orders", "Payments")


def node_api(channel):
    """The stubs these tests call, over one node's channel."""
    api = Api(channel)
    for service in SERVICES:
        setattr(api, service.lower(), Stub(channel, f"souk.v1.{service}"))
    return api


@pytest.fixture(scope="module")
def apis(channels):
    """Node A's stubs, node B's stubs."""
    return tuple(node_api(ch) for ch in channels)


def on(party, api):
    """`party`, its calls and token refreshes from now on over `api`'s node."""
    party.api = api
    return party


def fresh_marketplace(apis, a, template, admin_name="Maya"):
    """A marketplace of its own (a copy of the demo `template`, made through node A) and an admin of it."""
    operator = operator_party(apis[0], a)
    market = create_marketplace(apis[0], operator, a.marketplace_id(template))
    email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    apis[0].accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=market.id, request_id=request_id(), email=email, initial_password=STRONG_PASSWORD, given_name=admin_name,
        family_name="Azar", roles=[Role.ROLE_ADMIN]), metadata=operator.md(), timeout=TIMEOUT)
    return market, operator, Party.login(apis[0], market.id, email, STRONG_PASSWORD)


# ---- Drip 'n Dash: Dashers asking at once for work from one queue ----

def test_dashers_asking_at_once_through_two_nodes_each_take_a_job_of_their_own(nodes, apis):
    a, _ = nodes
    market, operator, _ = fresh_marketplace(apis, a, "Drip 'n Dash")
    drip = {"id": market.id, "operator": operator, "settings": market.settings.laundry}
    for jobs, asking in ((1, 6), (4, 10)):
        dorm = Dorm(apis[0], drip)
        customer = dorm.student("casey")
        queued = [submit(apis[0], customer, loads=1).id for _ in range(jobs)]
        dashers = [on(dorm.student(f"dasher{i}", dasher=True), apis[i % 2]) for i in range(asking)]
        for dasher in dashers:
            dasher.md()  # fresh tokens before the start line
        outcomes = race([lambda i=i: work(apis[i % 2], dashers[i]) for i in range(asking)])
        assert not [o for o in outcomes if isinstance(o, grpc.RpcError)], \
            [(o.code(), o.details()) for o in outcomes if isinstance(o, grpc.RpcError)]
        # Every job offered to exactly one Dasher; the others were answered OK with no job.
        taken = {o.id: dashers[i] for i, o in enumerate(outcomes) if o is not None}
        assert sorted(taken) == sorted(queued) and len([o for o in outcomes if o is not None]) == jobs, outcomes
        assert outcomes.count(None) == asking - jobs
        # Through both nodes, each job names the one Dasher it was offered to.
        for api in apis:
            for job_id, dasher in taken.items():
                job = api.laundry.GetJob(pb.GetJobRequest(marketplace_id=market.id, job_id=job_id), metadata=customer.md(), timeout=TIMEOUT)
                assert job.offered_to_account_id == dasher.account_id
            # A Dasher who got nothing asking again, on either node, finds the queue empty.
            idle = next(d for i, d in enumerate(dashers) if outcomes[i] is None)
            assert work(api, idle) is None


# ---- MARA: confirmations racing for one listing ----

def confirm(api, lessor, booking_id):
    return api.rentals.ConfirmBooking(pb.ConfirmBookingRequest(marketplace_id=lessor.marketplace_id, booking_id=booking_id),
                                      metadata=lessor.md(), timeout=TIMEOUT)


def rentals_call(api, method, party, **fields):
    request = getattr(pb, f"{method}Request")(marketplace_id=party.marketplace_id, **fields)
    return getattr(api.rentals, method)(request, metadata=party.md(), timeout=TIMEOUT)


def test_confirmations_racing_through_two_nodes_for_one_listing_end_with_one_lease(nodes, apis):
    a, _ = nodes
    mara = a.marketplace_id("MARA")
    admin = login_party(apis[0], a.demo_login("MARA", "admin"))
    regions = apis[1].rentals.ListRegions(pb.ListRegionsRequest(marketplace_id=mara, page_size=100), timeout=TIMEOUT).regions
    hcmc = next(r for r in regions if r.name == "Thành phố Hồ Chí Minh")
    lessor = sign_up(apis[0], mara, given_name="Lê", family_name="Hoa", requested_roles=[Role.ROLE_PROVIDER])
    apis[1].accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=mara, account_id=lessor.account_id, role=Role.ROLE_PROVIDER),
                                 metadata=admin.md(), timeout=TIMEOUT)
    for round in range(3):
        listing = published(apis[round % 2], lessor, hcmc, title=f"Phòng trọ hai nút số {round}")
        bookings = [request_lease(apis[i % 2], lessee(apis[i % 2], mara, name), listing)
                    for i, name in enumerate(("An", "Bình", "Cường", "Dung"))]
        lessor.md()
        outcomes = race([lambda i=i: confirm(apis[i % 2], lessor, bookings[i].id) for i in range(len(bookings))])
        winners = [o for o in outcomes if not isinstance(o, grpc.RpcError)]
        losers = [o for o in outcomes if isinstance(o, grpc.RpcError)]
        assert len(winners) == 1, [(o.code(), o.details()) for o in losers]
        assert winners[0].status == BookingStatus.BOOKING_STATUS_CONFIRMED
        # Held off by the lease, or found already declined by the winner's confirmation.
        for loser in losers:
            assert loser.code() == Code.FAILED_PRECONDITION, loser.details()
            assert error_reason(loser) in (Reason.ERROR_REASON_LISTING_LEASED, Reason.ERROR_REASON_INVALID_TRANSITION), loser.details()
        for api in apis:
            for booking in bookings:
                read = rentals_call(api, "GetBooking", lessor, booking_id=booking.id)
                if booking.id == winners[0].id:
                    assert read.status == BookingStatus.BOOKING_STATUS_CONFIRMED
                else:
                    assert read.status == BookingStatus.BOOKING_STATUS_DECLINED
                    assert read.reason == "another request for this listing was confirmed"
            assert rentals_call(api, "GetListing", lessor, listing_id=listing.id).status == ListingStatus.LISTING_STATUS_RENTED

    # Two confirmations of one lease, one through each node: one confirms, one bill of deposit.
    listing = published(apis[0], lessor, hcmc, title="Nhà nguyên căn hai nút")
    booking = request_lease(apis[1], lessee(apis[1], mara, "Chi"), listing)
    lessor.md()
    outcomes = race([lambda i=i: confirm(apis[i], lessor, booking.id) for i in range(2)])
    losers = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert len(losers) == 1, outcomes
    assert (losers[0].code(), error_reason(losers[0])) == (Code.FAILED_PRECONDITION, Reason.ERROR_REASON_INVALID_TRANSITION), \
        losers[0].details()
    for api in apis:
        assert rentals_call(api, "GetBooking", lessor, booking_id=booking.id).status == BookingStatus.BOOKING_STATUS_CONFIRMED
        assert len(rentals_call(api, "ListBills", lessor, booking_id=booking.id).bills) == 1


# ---- DineSwift: two restaurants offering one driver at once ----

def test_restaurants_offering_one_driver_at_once_through_two_nodes_give_it_one_delivery(nodes, apis):
    a, _ = nodes
    fresh, _, admin = fresh_marketplace(apis, a, "DineSwift")
    market = {"id": fresh.id, "admin": admin}
    driver = approved_driver(apis[0], market, "Nabil", point(north_meters=-300))
    kitchens, orders = [], []
    for i, (name, east) in enumerate((("Two Node Oven", 100), ("Two Node Grill", -100), ("Two Node Saj", 200), ("Two Node Mezze", -200))):
        api = apis[i % 2]
        customer = sign_up(api, fresh.id, given_name="Rami")
        restaurant, owner = approved_open_restaurant(api, market, name, point(east_meters=east))
        item = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
            marketplace_id=fresh.id, request_id=request_id(), menu_item=pizza_input(restaurant.id, f"{name} pizza")),
            metadata=owner.md(), timeout=TIMEOUT)
        order = place_order(api, market, customer, item, [("size", "small")])
        api.orders.AcceptOrder(pb.AcceptOrderRequest(marketplace_id=fresh.id, order_id=order.id), metadata=owner.md(), timeout=TIMEOUT)
        kitchens.append(on(owner, api))
        orders.append(order)

    def offer(i):
        return apis[i % 2].deliveries.OfferDelivery(pb.OfferDeliveryRequest(
            marketplace_id=fresh.id, request_id=request_id(), order_id=orders[i].id, courier_account_id=driver.account_id),
            metadata=kitchens[i].md(), timeout=TIMEOUT)

    outcomes = race([lambda i=i: offer(i) for i in range(len(orders))])
    offered = [o for o in outcomes if not isinstance(o, grpc.RpcError)]
    failed = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert len(offered) == 1, [(e.code(), e.details()) for e in failed]
    for error in failed:
        assert (error.code(), error_reason(error)) == (Code.FAILED_PRECONDITION, Reason.ERROR_REASON_COURIER_BUSY), error.details()
    won = next(i for i in range(len(orders)) if orders[i].id == offered[0].order_id)
    for api in apis:
        mine = api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(marketplace_id=fresh.id), metadata=driver.md(), timeout=TIMEOUT)
        assert [(d.order_id, d.status) for d in mine.deliveries] == [(orders[won].id, DeliveryStatus.DELIVERY_STATUS_OFFERED)]
        for i, order in enumerate(orders):
            read = api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=fresh.id, order_id=order.id), metadata=kitchens[i].md(),
                                       timeout=TIMEOUT)
            assert read.status == OrderStatus.ORDER_STATUS_PREPARING
            assert read.delivery_id == (offered[0].id if i == won else "")


# ---- A marketplace changed through node B, answered by node A ----

def until(condition, what):
    """Polls `condition` until it holds: node A hears of node B's commit through etcd's watch, a
    moment after it."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_marketplace_changed_through_one_node_is_what_the_other_answers_by(nodes, apis):
    a, _ = nodes
    api_a, api_b = apis
    operator = operator_party(api_a, a)
    market = create_marketplace(api_a, operator, a.marketplace_id("Chateau Du Nox"))

    def on_a():
        return api_a.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=market.id), timeout=TIMEOUT)

    assert on_a().version == market.version  # node A now answers it from its memory
    settings = pb.MarketplaceSettings()
    settings.CopyFrom(market.settings)
    settings.support.response_target.seconds = market.settings.support.response_target.seconds + 3600
    changed = api_b.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=market.id, settings=settings, update_mask=FieldMask(paths=["support.response_target"]),
        expected_version=market.version), metadata=operator.md(), timeout=TIMEOUT)
    assert changed.version > market.version
    until(lambda: on_a().version == changed.version, "node A still answers the marketplace's settings before node B's change")
    assert on_a().settings.support.response_target.seconds == settings.support.response_target.seconds

    # Archived through node B: node A refuses the marketplace's calls; restored, it serves them again.
    def sign_up_on_a():
        try:
            return sign_up(api_a, market.id)
        except grpc.RpcError as error:
            return error

    assert not isinstance(sign_up_on_a(), grpc.RpcError)
    archived = api_b.marketplaces.ArchiveMarketplace(pb.ArchiveMarketplaceRequest(marketplace_id=market.id), metadata=operator.md(),
                                                     timeout=TIMEOUT)
    assert archived.archived
    until(lambda: isinstance(sign_up_on_a(), grpc.RpcError), "node A still serves a marketplace archived through node B")
    refusal = sign_up_on_a()
    assert (refusal.code(), error_reason(refusal)) == (Code.FAILED_PRECONDITION, Reason.ERROR_REASON_MARKETPLACE_ARCHIVED), refusal.details()
    api_b.marketplaces.RestoreMarketplace(pb.RestoreMarketplaceRequest(marketplace_id=market.id), metadata=operator.md(), timeout=TIMEOUT)
    until(lambda: not isinstance(sign_up_on_a(), grpc.RpcError), "node A still refuses a marketplace restored through node B")
