"""Only the scheduler's offer-lapse timer expires a food delivery offer. Until it fires, calls go
by the offer as it will be: a read shows it EXPIRED, the driver's answer is refused with
OFFER_EXPIRED, its driver shows no open delivery and may be offered work again, and a new offer of
its order goes ahead; none of these calls writes the expiry (the order is not passed on to the
next nearest driver). The timer then expires it: an offer made to the nearest goes on to the next
nearest, a superseded one only tells its driver. A timer that fell due while the server was down
fires at start.

The first server looks at its due timers only at start (`--timer-tick-seconds`), so an offer past
its time stays unexpired in the store for as long as the test needs; the restart fires it."""
import tempfile
import time

import grpc

from conftest import IdentityServer, stop_cleanly
from souk_identity import TIMEOUT, Api, Party, Reason, pb, refused
from souk_protos import Stub, enum
from test_dispatch_rules import courier_status, food_market, offer, preparing_order, set_offer_timeout
from test_food_journey import approved_driver, point
from test_laundry_design import poll

Code = grpc.StatusCode
DeliveryStatus = enum("souk.v1.DeliveryStatus")
EXPIRED, OFFERED = DeliveryStatus.DELIVERY_STATUS_EXPIRED, DeliveryStatus.DELIVERY_STATUS_OFFERED
# Past the offer timeout of one second: the offer's time has come.
PAST_THE_OFFER_TIME = 1.5


def dispatch_api(channel) -> Api:
    api = Api(channel)
    for service in ("Carts", "Orders", "Notifications", "Payments"):
        setattr(api, service.lower(), Stub(channel, f"souk.v1.{service}"))
    return api


def again(api: Api, party: Party) -> Party:
    """The same account signed in on the restarted server."""
    return Party.login(api, party.marketplace_id, party.email, party.password)


def deliveries(api, market_id, order, kitchen):
    return list(api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(marketplace_id=market_id, order_id=order.id),
                                              metadata=kitchen.md(), timeout=TIMEOUT).deliveries)


def get(api, market_id, delivery_id, party):
    return api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=market_id, delivery_id=delivery_id), metadata=party.md(),
                                      timeout=TIMEOUT)


def titles(api, market_id, party):
    return [n.title for n in api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=market_id),
                                                                 metadata=party.md(), timeout=TIMEOUT).notifications]


def test_a_due_offer_reads_expired_is_refused_and_only_its_timer_expires_it():
    data_dir = tempfile.mkdtemp(prefix="souk-e2e-offers-")
    held = IdentityServer(60, "--timer-tick-seconds", "3600", data_dir=data_dir)
    try:
        with held.channel() as channel:
            api = dispatch_api(channel)
            market = food_market(api, held)
            market_id, admin = market["id"], market["admin"]
            set_offer_timeout(api, market, 1)
            order, kitchen, item, _ = preparing_order(api, market)
            other, _, _, _ = preparing_order(api, market, kitchen, item)
            near = approved_driver(api, market, "Karim", point(north_meters=-500))
            next_ = approved_driver(api, market, "Sami", point(north_meters=-1000))
            far = approved_driver(api, market, "Fadi", point(north_meters=-1500))
            lapsing = offer(api, market, order, kitchen)
            named = offer(api, market, other, kitchen, far)
            assert lapsing.courier_account_id == near.account_id and lapsing.status == OFFERED
            time.sleep(PAST_THE_OFFER_TIME)

            # Every read shows the offer as its timer will leave it.
            shown = get(api, market_id, lapsing.id, kitchen)
            assert shown.status == EXPIRED and not shown.available_transitions
            assert get(api, market_id, lapsing.id, near).status == EXPIRED
            assert [d.status for d in deliveries(api, market_id, order, kitchen)] == [EXPIRED]
            assert courier_status(api, market_id, admin, near).active_delivery_id == ""
            # The driver's answer and the restaurant's withdrawal are refused.
            refused(lambda: api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(marketplace_id=market_id, delivery_id=lapsing.id),
                                                          metadata=near.md(), timeout=TIMEOUT),
                    Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_OFFER_EXPIRED)
            refused(lambda: api.deliveries.RejectDelivery(pb.RejectDeliveryRequest(marketplace_id=market_id, delivery_id=lapsing.id),
                                                          metadata=near.md(), timeout=TIMEOUT),
                    Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_OFFER_EXPIRED)
            refused(lambda: api.deliveries.CancelDelivery(pb.CancelDeliveryRequest(marketplace_id=market_id, delivery_id=lapsing.id,
                                                                                   reason="Too late"),
                                                          metadata=kitchen.md(), timeout=TIMEOUT),
                    Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_INVALID_TRANSITION)
            # A due offer holds neither its order nor its driver: offering the other order to the
            # same driver again goes ahead, and supersedes the due offer.
            set_offer_timeout(api, market, 600)
            renewed = offer(api, market, other, kitchen, far)
            assert renewed.status == OFFERED and renewed.id != named.id
            assert courier_status(api, market_id, admin, far).active_delivery_id == renewed.id
            # No call wrote the expiry: nothing was passed on to the next nearest driver.
            assert [d.id for d in deliveries(api, market_id, order, kitchen)] == [lapsing.id]
            assert not [t for t in titles(api, market_id, kitchen) if "expired" in t]
    finally:
        stop_cleanly(held)

    # At start the scheduler fires both timers, which fell due while it was not looking.
    restarted = IdentityServer(60, data_dir=data_dir)
    try:
        with restarted.channel() as channel:
            api = dispatch_api(channel)
            admin, kitchen, next_, far = (again(api, p) for p in (admin, kitchen, next_, far))
            passed_on = poll("the lapsed offer passed on to the next nearest driver",
                             lambda: [d for d in deliveries(api, market_id, order, kitchen) if d.status == OFFERED])
            assert [d.courier_account_id for d in passed_on] == [next_.account_id]
            assert get(api, market_id, lapsing.id, kitchen).status == EXPIRED
            assert f"Offer of order {order.order_number} expired" in titles(api, market_id, kitchen)
            # The superseded offer is expired and its driver told; its order stays with the newer offer.
            poll("the superseded offer's driver told", lambda: titles(api, market_id, far).count("Offer expired") == 1)
            assert {(d.id, d.status) for d in deliveries(api, market_id, other, kitchen)} == {(named.id, EXPIRED), (renewed.id, OFFERED)}
            assert courier_status(api, market_id, admin, far).active_delivery_id == renewed.id
            assert f"Offer of order {other.order_number} expired" not in titles(api, market_id, kitchen)
    finally:
        stop_cleanly(restarted)


def test_an_offer_that_lapsed_while_the_server_was_down_goes_to_the_next_nearest_at_start():
    data_dir = tempfile.mkdtemp(prefix="souk-e2e-offers-")
    first = IdentityServer(60, data_dir=data_dir)
    try:
        with first.channel() as channel:
            api = dispatch_api(channel)
            market = food_market(api, first)
            set_offer_timeout(api, market, 1)
            order, kitchen, _, _ = preparing_order(api, market)
            near = approved_driver(api, market, "Karim", point(north_meters=-500))
            next_ = approved_driver(api, market, "Sami", point(north_meters=-1000))
            lapsing = offer(api, market, order, kitchen)
            assert lapsing.courier_account_id == near.account_id
    finally:
        stop_cleanly(first)
    # Down past the offer's time.
    time.sleep(PAST_THE_OFFER_TIME)
    second = IdentityServer(60, data_dir=data_dir)
    try:
        with second.channel() as channel:
            api = dispatch_api(channel)
            kitchen = again(api, kitchen)
            passed_on = poll("the lapsed offer passed on at start",
                             lambda: [d for d in deliveries(api, market["id"], order, kitchen) if d.status == OFFERED])
            assert [d.courier_account_id for d in passed_on] == [next_.account_id]
    finally:
        stop_cleanly(second)
