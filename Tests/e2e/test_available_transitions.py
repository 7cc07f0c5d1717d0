"""Every resource with a lifecycle says what its caller may do now (`available_transitions`,
common.proto AvailableTransition), computed from the lifecycle's declaration: the customer, the
provider and the courier of one resource see different moves, and each move leaves once made."""
import pytest

from souk_identity import TIMEOUT, Api, login_party, pb, request_id, sign_up
from souk_protos import Stub
from test_laundry_jobs import Dorm, call as laundry_call, drip, submit, work  # noqa: F401
from test_rentals_leases import call as rentals_call, lessee, lessor, next_month, published  # noqa: F401
from test_rentals_listings import admin, hcmc, mara, regions  # noqa: F401
from test_retail import SHOP, Shop, add, checkout_request, new_wine


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    for service in ("Orders", "Laundry", "Rentals", "Media", "Payments"):
        setattr(api, service.lower(), Stub(identity_channel, f"souk.v1.{service}"))
    return api


def moves(resource):
    return [(t.name, t.to_state) for t in resource.available_transitions]


def test_a_laundry_jobs_customer_and_dasher_see_their_own_moves(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    job = submit(api, customer)
    assert moves(job) == [("cancel", "JOB_STATE_CANCELLED")]
    assert work(api, dasher).id == job.id
    as_dasher = laundry_call(api, "GetJob", dasher, job_id=job.id)
    assert moves(as_dasher) == [("accept", "JOB_STAGE_DASHER_ACCEPTED_REQUEST")]
    as_operator = api.laundry.GetJob(pb.GetJobRequest(marketplace_id=drip["id"], job_id=job.id), metadata=drip["operator"].md(),
                                     timeout=TIMEOUT)
    assert moves(as_operator) == []

    accepted = laundry_call(api, "AcceptJob", dasher, job_id=job.id)
    assert moves(accepted) == [("advance", "JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP")]
    assert moves(laundry_call(api, "GetJob", customer, job_id=job.id)) == [
        ("reject_dasher", "JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT"), ("cancel", "JOB_STATE_CANCELLED")]


def test_a_retail_orders_customer_and_shop_see_their_own_moves(api, identity_channel, identity_server):
    shop = Shop(identity_channel)
    mp = identity_server.marketplace_id(SHOP)
    staff = login_party(api, identity_server.demo_login(SHOP, "provider"))
    customer = sign_up(api, mp)
    wine = new_wine(shop, mp, staff, "Buttoned Grenache", 7990, 10)
    add(shop, mp, customer, wine.id, 1)
    order = shop.orders.Checkout(checkout_request(mp), metadata=customer.md(), timeout=TIMEOUT)
    assert moves(order) == [("cancel", "ORDER_STATUS_CANCELLED")]

    def seen_by(party):
        return moves(shop.orders.GetOrder(pb.GetOrderRequest(marketplace_id=mp, order_id=order.id), metadata=party.md(), timeout=TIMEOUT))
    assert seen_by(staff) == [("ship", "ORDER_STATUS_SHIPPED"), ("cancel", "ORDER_STATUS_CANCELLED")]
    shipped = shop.orders.ShipOrder(pb.ShipOrderRequest(marketplace_id=mp, order_id=order.id, shipping_carrier="DHL", tracking_number="1",
                                                        expected_version=order.version), metadata=staff.md(), timeout=TIMEOUT)
    assert moves(shipped) == [("deliver", "ORDER_STATUS_DELIVERED")]
    assert seen_by(customer) == []
    shop.orders.DeliverOrder(pb.DeliverOrderRequest(marketplace_id=mp, order_id=order.id), metadata=staff.md(), timeout=TIMEOUT)
    assert seen_by(customer) == [("receive", "ORDER_STATUS_RECEIVED")]
    assert seen_by(staff) == []


def test_a_bookings_lessee_and_lessor_see_their_own_moves(api, mara, lessor, hcmc):
    listing = published(api, lessor, hcmc, title="Căn hộ có nút bấm")
    minh = lessee(api, mara)
    start = next_month()
    booking = rentals_call(api, "RequestBooking", minh, request_id=request_id(), listing_id=listing.id, months=6,
                           start_date=pb.Date(year=start.year, month=start.month, day=start.day))
    assert moves(booking) == [("cancel", "BOOKING_STATUS_CANCELLED")]
    assert moves(rentals_call(api, "GetBooking", lessor, booking_id=booking.id)) == [
        ("confirm", "BOOKING_STATUS_CONFIRMED"), ("decline", "BOOKING_STATUS_DECLINED")]
    confirmed = rentals_call(api, "ConfirmBooking", lessor, booking_id=booking.id)
    assert moves(confirmed) == []
    assert moves(rentals_call(api, "GetBooking", minh, booking_id=booking.id)) == [("cancel", "BOOKING_STATUS_CANCELLED")]


def test_a_water_deliverys_courier_and_customer_see_different_moves(api, identity_server):
    from test_water import free_windows, order_request, services
    mp = identity_server.marketplace_id("Aqua Hub")
    admin = login_party(api, identity_server.demo_login("Aqua Hub", "admin"))
    courier = login_party(api, identity_server.demo_login("Aqua Hub", "courier"))
    customer = sign_up(api, mp, given_name="Huda")
    water = next(s for s in services(api, mp, "en").values() if s.name == "Safi Water")
    window = next(w for w in free_windows(api, customer, days=3) if w.available).window
    order = api.orders.PlaceServiceOrder(order_request(mp, water, window, option=water.options[0]), metadata=customer.md(), timeout=TIMEOUT)
    assert moves(order) == [("cancel", "ORDER_STATUS_CANCELLED")]
    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(marketplace_id=mp, request_id=request_id(), order_id=order.id,
                                                                      courier_account_id=courier.account_id),
                                             metadata=admin.md(), timeout=TIMEOUT)

    def delivery_seen_by(party):
        return moves(api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=mp, delivery_id=delivery.id),
                                                metadata=party.md(), timeout=TIMEOUT))
    assert delivery_seen_by(courier) == [("start", "DELIVERY_STATUS_IN_PROGRESS")]
    assert delivery_seen_by(admin) == [("start", "DELIVERY_STATUS_IN_PROGRESS"), ("cancel", "DELIVERY_STATUS_CANCELLED")]
    started = api.deliveries.StartDelivery(pb.StartDeliveryRequest(marketplace_id=mp, delivery_id=delivery.id), metadata=courier.md(),
                                           timeout=TIMEOUT)
    assert moves(started) == [("delay", "DELIVERY_STATUS_DELAYED"), ("complete", "DELIVERY_STATUS_COMPLETED")]
    # The order's own move is now the courier's: completing its delivery completes it.
    as_courier = api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=mp, order_id=order.id), metadata=courier.md(), timeout=TIMEOUT)
    assert moves(as_courier) == [("complete", "ORDER_STATUS_COMPLETED")]
    as_customer = api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=mp, order_id=order.id), metadata=customer.md(), timeout=TIMEOUT)
    assert moves(as_customer) == [("cancel", "ORDER_STATUS_CANCELLED")]


def test_a_bills_lessee_may_pay_it_and_its_lessor_may_not(api, mara, lessor, hcmc):
    listing = published(api, lessor, hcmc, title="Căn hộ có hóa đơn")
    minh = lessee(api, mara)
    start = next_month()
    booking = rentals_call(api, "RequestBooking", minh, request_id=request_id(), listing_id=listing.id, months=6,
                           start_date=pb.Date(year=start.year, month=start.month, day=start.day))
    deposit_id = rentals_call(api, "ConfirmBooking", lessor, booking_id=booking.id).deposit_bill_id
    assert moves(rentals_call(api, "GetBill", minh, bill_id=deposit_id)) == [("pay", "BILL_STATUS_PAID"), ("void", "BILL_STATUS_VOID")]
    assert moves(rentals_call(api, "GetBill", lessor, bill_id=deposit_id)) == []
