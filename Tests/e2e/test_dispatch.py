"""DineSwift drivers end to end through grpcio: two drivers go online, one streams its positions
(client streaming, an older fix dropped), the restaurant ranks them by distance from its own place (rounded,
without seeing where they are), a driver may not rank, bad coordinates name their field, and another
marketplace's tokens see nothing. Offers, acceptance, watching and completion with cash need a
PREPARING food order, which only the food checkout places: the Swift DispatchTests cover them."""
import time

import grpc

from souk_identity import TIMEOUT, Api, Reason, login_party, pb, refused, request_id, sign_up
from souk_protos import Stub, enum

Code = grpc.StatusCode
Role = enum("souk.v1.Role")
MARKETPLACE = "DineSwift"
# Pizza Roma on Hamra Street (the demo restaurant owner's), and points north of it.
RESTAURANT = (33.8959, 35.4828)


def north(meters):
    return pb.GeoPoint(latitude=RESTAURANT[0] + meters / 111_195, longitude=RESTAURANT[1])


def stamp(offset_seconds=0.0):
    nanos = int((time.time() + offset_seconds) * 1e9)
    return {"seconds": nanos // 1_000_000_000, "nanos": nanos % 1_000_000_000}


def test_drivers_go_online_stream_positions_and_are_ranked_for_restaurants(identity_server, identity_channel):
    api = Api(identity_channel)
    deliveries = Stub(identity_channel, "souk.v1.Deliveries")
    market = identity_server.marketplace_id(MARKETPLACE)
    admin = login_party(api, identity_server.demo_login(MARKETPLACE, "admin"))
    restaurant = login_party(api, identity_server.demo_login(MARKETPLACE, "provider"))
    first = login_party(api, identity_server.demo_login(MARKETPLACE, "courier"))
    # A second driver signs up and an admin approves the role.
    pending = sign_up(api, market, given_name="Karim", requested_roles=[Role.ROLE_COURIER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=market, account_id=pending.account_id, role=Role.ROLE_COURIER),
                             metadata=admin.md(), timeout=TIMEOUT)
    second = type(pending).login(api, market, pending.email, pending.password)

    def online(driver, point):
        return deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(marketplace_id=market, online=True, location=point),
                                                 metadata=driver.md(), timeout=TIMEOUT)

    refused(lambda: deliveries.UpdateCourierLocation(pb.UpdateCourierLocationRequest(marketplace_id=market, location=north(10)),
                                                     metadata=second.md(), timeout=TIMEOUT),
            Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_COURIER_OFFLINE)
    refused(lambda: online(first, pb.GeoPoint(latitude=95, longitude=35)), Code.INVALID_ARGUMENT, field="location.latitude")
    assert online(first, north(3000)).online
    assert online(second, north(1200)).online

    # The first driver streams its way to 600 m; a fix older than the last one is dropped.
    fixes = [north(2000), north(1000), north(600)]
    requests = [pb.ReportLocationRequest(marketplace_id=market, location=p, location_time=stamp(i * 0.001)) for i, p in enumerate(fixes)]
    requests.insert(2, pb.ReportLocationRequest(marketplace_id=market, location=north(5000), location_time=stamp(-30)))
    response = deliveries.ReportLocation(iter(requests), metadata=first.md(), timeout=TIMEOUT)
    assert (response.accepted_count, response.dropped_count) == (3, 1)
    status = deliveries.GetCourierStatus(pb.GetCourierStatusRequest(marketplace_id=market), metadata=first.md(), timeout=TIMEOUT)
    assert abs(status.location.latitude - north(600).latitude) < 1e-9
    refused(lambda: deliveries.UpdateCourierLocation(
        pb.UpdateCourierLocationRequest(marketplace_id=market, location=pb.GeoPoint(latitude=33, longitude=-181)),
        metadata=first.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="location.longitude")

    # Ranked from the restaurant's own place (no order needed), to the nearest 100 m.
    ranked = deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market), metadata=restaurant.md(),
                                              timeout=TIMEOUT)
    ours = [c for c in ranked.couriers if c.courier.account_id in (first.account_id, second.account_id)]
    assert [c.courier.account_id for c in ours] == [first.account_id, second.account_id]
    assert [c.distance_meters for c in ours] == [600, 1200]
    assert ours[1].courier.display_name == "Karim U."
    assert "location" not in pb.AvailableCourier.DESCRIPTOR.fields_by_name
    # Drivers never rank each other; an order must exist.
    refused(lambda: deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market),
                                                     metadata=first.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)
    refused(lambda: deliveries.OfferDelivery(pb.OfferDeliveryRequest(marketplace_id=market, request_id=request_id(),
                                                                     order_id="0190f7a0-0000-7000-8000-000000000000", nearest_available=True),
                                             metadata=restaurant.md(), timeout=TIMEOUT), Code.NOT_FOUND)

    # Another marketplace's tokens see nothing.
    aqua_admin = login_party(api, identity_server.demo_login("Aqua Hub", "admin"))
    refused(lambda: deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market),
                                                     metadata=aqua_admin.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)
    refused(lambda: deliveries.GetCourierStatus(pb.GetCourierStatusRequest(marketplace_id=market, courier_account_id=first.account_id),
                                                metadata=aqua_admin.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)

    # Offline drivers are not ranked.
    deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(marketplace_id=market, online=False), metadata=first.md(), timeout=TIMEOUT)
    ranked = deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(marketplace_id=market),
                                              metadata=restaurant.md(), timeout=TIMEOUT)
    assert first.account_id not in [c.courier.account_id for c in ranked.couriers]
    assert second.account_id in [c.courier.account_id for c in ranked.couriers]
