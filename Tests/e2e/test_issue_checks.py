"""Independent checks of issue 25 as a new client developer writes them: from the issue, DOMAIN.md
and the contract's comments, through plain grpcio. Accounts and Deliveries: every wrong field
named at once; blocked couriers leave dispatch; each refusal's reason, listed on the RPC's
Errors line; water tracking; rankings from the restaurant only, rounded; rate limits with
RetryInfo."""
import hashlib
import pathlib
import shutil
import subprocess
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from souk_client import SoukError

from conftest import IdentityServer, stop_cleanly
from souk_food import a_point, approved_open_restaurant, pizza_input
from souk_identity import (STRONG_PASSWORD as STRONG, TIMEOUT, Api, Duration, FieldMask, Reason, Role, bearer, create_marketplace, login_party,
                           operator_party, pb, request_id, sign_up, unique_email)
from souk_protos import Stub, enum_name, error_reason, field_violations, message, methods, status_detail

METHODS = {m.short: m for m in methods()}


@pytest.fixture(scope="module")
def server():
    s = IdentityServer(access_token_ttl=3)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(server):
    with server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield Api(ch)


def failure(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def reason_name(error) -> str:
    """The souk.v1 ErrorInfo reason of a refusal ("STALE_VERSION"), or ""."""
    decoded = SoukError.from_rpc_error(error)
    return decoded.reason if decoded.reason_number is not None else ""


def unlisted(rpc: str, error: grpc.RpcError) -> list:
    """What of a refusal its RPC's Errors line leaves out (common.proto, ERRORS LINE): its code,
    and its reason unless that is FIELD_INVALID or RESOURCE_NOT_FOUND (told by the code)."""
    text = METHODS[rpc].errors_text()
    reason = reason_name(error)
    missing = [error.code().name] if error.code().name not in text else []
    if reason and reason not in ("FIELD_INVALID", "RESOURCE_NOT_FOUND") and reason not in text:
        missing.append(reason)
    return [f"{rpc}: {', '.join(missing)} not on its Errors line ({text})"] if missing else []


def assert_listed(rpc: str, error: grpc.RpcError):
    misses = unlisted(rpc, error)
    assert not misses, misses


def refused_with(rpc: str, call, code, reason=None) -> grpc.RpcError:
    """`call()` fails with `code` (and `reason` when given)."""
    error = failure(call)
    assert error.code() == code, f"{rpc}: expected {code.name}, got {error.code().name}: {error.details()!r}"
    if reason is not None:
        assert error_reason(error) == reason, \
            f"{rpc}: expected {enum_name('souk.v1.ErrorReason', reason)}, got {reason_name(error)}: {error.details()!r}"
    return error


def refusal(rpc: str, call, code, reason=None) -> grpc.RpcError:
    """As refused_with, and the refusal is one the RPC's Errors line names."""
    error = refused_with(rpc, call, code, reason)
    assert_listed(rpc, error)
    return error


def named_fields(rpc: str, call) -> set:
    error = refusal(rpc, call, grpc.StatusCode.INVALID_ARGUMENT)
    return {v.field for v in field_violations(error)}


def dineswift(server, api):
    mid = server.marketplace_id("DineSwift")
    return {"id": mid, "admin": login_party(api, server.demo_login("DineSwift", "admin"))}


def approved_courier(api, market):
    courier = sign_up(api, market["id"], requested_roles=[Role.ROLE_COURIER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=market["id"], account_id=courier.account_id,
                                                   role=Role.ROLE_COURIER), metadata=market["admin"].md(),
                             timeout=TIMEOUT)
    return courier


def go_online(api, courier, point):
    return api.deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(
        marketplace_id=courier.marketplace_id, online=True, location=point), metadata=courier.md(), timeout=TIMEOUT)


def ranked(api, owner, radius=50_000):
    return list(api.deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(
        marketplace_id=owner.marketplace_id, radius_meters=radius, page_size=100), metadata=owner.md(),
        timeout=TIMEOUT).couriers)


def block(api, market, account_id):
    return api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=market["id"], account_id=account_id,
                                                            reason="abuse"), metadata=market["admin"].md(),
                                     timeout=TIMEOUT)


# ---- Item 2: every wrong field of a request named at once (Accounts, Deliveries) ----

def test_sign_up_names_every_wrong_field(server, api):
    mid = server.marketplace_id("Drip 'n Dash")
    fields = named_fields("Accounts/SignUp", lambda: api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=mid, request_id=request_id(), email="", password="short", given_name="",
        family_name="X", phone="12", laundry_profile=pb.LaundryProfile(campus="Busch", dorm_id="", room="1")),
        timeout=TIMEOUT))
    assert {"email", "password", "given_name", "phone", "laundry_profile.dorm_id"} <= fields, fields


def test_update_profile_names_every_wrong_field(server, api):
    party = sign_up(api, server.marketplace_id("Aqua Hub"))
    me = party.me()
    fields = named_fields("Accounts/UpdateProfile", lambda: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=party.marketplace_id, account=pb.Account(id=me.id, email="not-an-email", given_name="",
                                                                 phone="0501234"),
        update_mask=FieldMask(paths=["email", "given_name", "phone"]), expected_version=me.version),
        metadata=party.md(), timeout=TIMEOUT))
    assert {"account.email", "account.given_name", "account.phone"} <= fields, fields


def test_create_address_names_every_wrong_field(server, api):
    party = sign_up(api, server.marketplace_id("Aqua Hub"))
    fields = named_fields("Accounts/CreateAddress", lambda: api.accounts.CreateAddress(pb.CreateAddressRequest(
        marketplace_id=party.marketplace_id, request_id=request_id(), address=pb.Address(
            line1="", city="Arar", country_code="Saudi", phone="0501",
            location=pb.GeoPoint(latitude=91, longitude=200))), metadata=party.md(), timeout=TIMEOUT))
    assert {"address.line1", "address.country_code", "address.phone", "address.location.latitude",
            "address.location.longitude"} <= fields, fields


def test_marketplace_settings_name_every_wrong_field(server, api):
    operator = operator_party(api, server)
    market = create_marketplace(api, operator, server.marketplace_id("Aqua Hub"))
    settings = pb.MarketplaceSettings()
    settings.accounts.rate_limits.sign_in_per_account.count = -1
    settings.accounts.rate_limits.sign_up_per_address.window.CopyFrom(Duration(seconds=10 * 86400))
    settings.accounts.refresh_reuse_interval.CopyFrom(Duration(seconds=3600))
    fields = named_fields("Marketplaces/UpdateMarketplaceSettings", lambda: api.marketplaces.UpdateMarketplaceSettings(
        pb.UpdateMarketplaceSettingsRequest(marketplace_id=market.id, settings=settings, update_mask=FieldMask(paths=[
            "accounts.rate_limits", "accounts.refresh_reuse_interval"]), expected_version=market.version),
        metadata=operator.md(), timeout=TIMEOUT))
    assert {"settings.accounts.rate_limits.sign_in_per_account.count",
            "settings.accounts.rate_limits.sign_up_per_address.window",
            "settings.accounts.refresh_reuse_interval"} <= fields, fields


def test_deliveries_name_every_wrong_field(server, api):
    water = login_party(api, server.demo_login("Aqua Hub", "admin"))
    assert {"request_id", "order_id", "courier_account_id"} <= named_fields(
        "Deliveries/AssignDelivery", lambda: api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
            marketplace_id=water.marketplace_id), metadata=water.md(), timeout=TIMEOUT))
    market = dineswift(server, api)
    admin = market["admin"]
    assert {"delivery_id", "reason", "expected_version"} <= named_fields(
        "Deliveries/CancelDelivery", lambda: api.deliveries.CancelDelivery(pb.CancelDeliveryRequest(
            marketplace_id=market["id"], expected_version=-1), metadata=admin.md(), timeout=TIMEOUT))
    assert {"delivery_id", "note", "expected_version"} <= named_fields(
        "Deliveries/DelayDelivery", lambda: api.deliveries.DelayDelivery(pb.DelayDeliveryRequest(
            marketplace_id=water.marketplace_id, note="x" * 1001, expected_version=-1), metadata=water.md(),
            timeout=TIMEOUT))
    assert {"order_id", "radius_meters", "page_size"} <= named_fields(
        "Deliveries/ListAvailableCouriers", lambda: api.deliveries.ListAvailableCouriers(
            pb.ListAvailableCouriersRequest(marketplace_id=market["id"], radius_meters=-5, page_size=-1),
            metadata=admin.md(), timeout=TIMEOUT))
    courier = approved_courier(api, market)
    assert {"location.latitude", "location.longitude"} <= named_fields(
        "Deliveries/SetCourierAvailability", lambda: api.deliveries.SetCourierAvailability(
            pb.SetCourierAvailabilityRequest(marketplace_id=market["id"], online=True,
                                             location=pb.GeoPoint(latitude=100, longitude=-190)),
            metadata=courier.md(), timeout=TIMEOUT))


# ---- Item 5: a blocked driver leaves dispatch at once; a blocked Dasher stops accepting ----

def test_blocked_driver_leaves_the_ranking_and_cannot_be_offered(server, api):
    market = dineswift(server, api)
    point = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Block Check Pizza", point)
    courier = approved_courier(api, market)
    go_online(api, courier, pb.GeoPoint(latitude=point.latitude + 0.001, longitude=point.longitude))
    assert courier.account_id in {c.courier.account_id for c in ranked(api, owner)}
    block(api, market, courier.account_id)
    assert courier.account_id not in {c.courier.account_id for c in ranked(api, owner)}
    status = api.deliveries.GetCourierStatus(pb.GetCourierStatusRequest(
        marketplace_id=market["id"], courier_account_id=courier.account_id), metadata=market["admin"].md(),
        timeout=TIMEOUT)
    assert not status.online


def preparing_food_order(api, market, restaurant, owner, point):
    """A DineSwift order of one pizza, accepted by the restaurant (PREPARING), paid in cash."""
    catalog, carts, orders = (Stub(api.channel, f"souk.v1.{s}") for s in ("Catalog", "Carts", "Orders"))
    item = catalog.CreateMenuItem(pb.CreateMenuItemRequest(marketplace_id=market["id"], request_id=request_id(),
                                                           menu_item=pizza_input(restaurant.id, "Margherita")),
                                  metadata=owner.md(), timeout=TIMEOUT)
    customer = sign_up(api, market["id"])
    carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=market["id"], request_id=request_id(), item_id=item.id,
                                            quantity=1, options=[pb.CartLineOption(group_id="size", choice_id="small")]),
                      metadata=customer.md(), timeout=TIMEOUT)
    order = orders.Checkout(pb.CheckoutRequest(
        marketplace_id=market["id"], request_id=request_id(), address_confirmed=True,
        address=pb.AddressChoice(address=pb.Address(line1="Coast Road 9", city="Jounieh", country_code="LB",
                                                    location=pb.GeoPoint(latitude=point.latitude + 0.01,
                                                                         longitude=point.longitude))),
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)
    return orders.AcceptOrder(pb.AcceptOrderRequest(marketplace_id=market["id"], order_id=order.id),
                              metadata=owner.md(), timeout=TIMEOUT)


def test_blocking_a_driver_withdraws_their_offer_and_refuses_new_ones(server, api):
    market = dineswift(server, api)
    point = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Offer Check Pizza", point)
    order = preparing_food_order(api, market, restaurant, owner, point)
    courier = approved_courier(api, market)
    go_online(api, courier, pb.GeoPoint(latitude=point.latitude + 0.001, longitude=point.longitude))
    offered = api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
        marketplace_id=market["id"], request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
        metadata=owner.md(), timeout=TIMEOUT)
    assert offered.status == 1 and offered.offer_distance_meters == 100, offered  # about 111 m, rounded
    block(api, market, courier.account_id)
    withdrawn = api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=market["id"], delivery_id=offered.id),
                                           metadata=owner.md(), timeout=TIMEOUT)
    assert withdrawn.status == 8, withdrawn.status  # CANCELLED
    refusal("Deliveries/OfferDelivery", lambda: api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
        marketplace_id=market["id"], request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
        metadata=owner.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_COURIER_BLOCKED)


def test_blocked_dasher_stops_accepting(server, api):
    mid = server.marketplace_id("Drip 'n Dash")
    admin = login_party(api, server.demo_login("Drip 'n Dash", "admin"))
    dasher = login_party(api, server.demo_login("Drip 'n Dash", "courier"))
    laundry = message("souk.v1.SetAcceptingRequestsRequest")
    stub = Stub(api.channel, "souk.v1.Laundry")
    on = stub.SetAcceptingRequests(laundry(marketplace_id=mid, accepting_requests=True), metadata=dasher.md(),
                                   timeout=TIMEOUT)
    assert on.dasher_profile.accepting_requests
    blocked = block(api, {"id": mid, "admin": admin}, dasher.account_id)
    assert not blocked.dasher_profile.accepting_requests
    got = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=mid, account_id=dasher.account_id),
                                  metadata=admin.md(), timeout=TIMEOUT)
    assert not got.dasher_profile.accepting_requests
    # Unblocking does not switch it back on: the Dasher does that themself.
    api.accounts.UnblockAccount(pb.UnblockAccountRequest(marketplace_id=mid, account_id=dasher.account_id),
                                metadata=admin.md(), timeout=TIMEOUT)
    again = login_party(api, server.demo_login("Drip 'n Dash", "courier"))
    assert not again.me().dasher_profile.accepting_requests
    assert stub.SetAcceptingRequests(laundry(marketplace_id=mid, accepting_requests=True), metadata=again.md(),
                                     timeout=TIMEOUT).dasher_profile.accepting_requests


# ---- Item 8: auth refusals name their cause; courier refusals each with their reason ----

def test_auth_refusals_name_their_cause(server, api):
    mid = server.marketplace_id("Aqua Hub")
    get_me = lambda md: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=mid), metadata=md, timeout=TIMEOUT)
    guest = failure(lambda: get_me(()))
    assert (guest.code(), error_reason(guest)) == (grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_SIGN_IN_REQUIRED)
    assert "no longer valid" not in (guest.details() or "")

    revoked = sign_up(api, mid)
    token = revoked.session.access_token
    api.accounts.Logout(pb.LogoutRequest(marketplace_id=mid), metadata=bearer(token), timeout=TIMEOUT)
    error = failure(lambda: get_me(bearer(token)))
    assert (error.code(), error_reason(error)) == (grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_SESSION_REVOKED)

    blocked = sign_up(api, mid)
    admin = login_party(api, server.demo_login("Aqua Hub", "admin"))
    block(api, {"id": mid, "admin": admin}, blocked.account_id)
    error = failure(lambda: get_me(bearer(blocked.session.access_token)))
    assert (error.code(), error_reason(error)) == (grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_ACCOUNT_BLOCKED)
    error = refusal("Accounts/Login", lambda: api.accounts.Login(pb.LoginRequest(
        marketplace_id=mid, email=blocked.email, password=blocked.password), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED, Reason.ERROR_REASON_ACCOUNT_BLOCKED)

    expired = sign_up(api, mid)
    left = expired.session.access_token_expire_time.seconds + 1 - time.time()
    time.sleep(max(0.0, left))  # let the token reach its own expiry
    error = failure(lambda: get_me(bearer(expired.session.access_token)))
    assert (error.code(), error_reason(error)) == (grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_TOKEN_EXPIRED)


def test_courier_refusals_each_name_their_reason(server, api):
    market = dineswift(server, api)
    point = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Refusal Check Pizza", point)
    customer = sign_up(api, market["id"])
    pending = sign_up(api, market["id"], requested_roles=[Role.ROLE_COURIER])
    blocked = approved_courier(api, market)
    block(api, market, blocked.account_id)
    stamp = message("google.protobuf.Timestamp")(seconds=int(time.time()))
    for who, reason in ((customer, Reason.ERROR_REASON_NOT_ALLOWED), (pending, Reason.ERROR_REASON_ROLE_PENDING)):
        refusal("Deliveries/SetCourierAvailability", lambda: api.deliveries.SetCourierAvailability(
            pb.SetCourierAvailabilityRequest(marketplace_id=market["id"], online=True, location=point),
            metadata=who.md(), timeout=TIMEOUT), grpc.StatusCode.PERMISSION_DENIED, reason)
        refusal("Deliveries/UpdateCourierLocation", lambda: api.deliveries.UpdateCourierLocation(
            pb.UpdateCourierLocationRequest(marketplace_id=market["id"], location=point, location_time=stamp),
            metadata=who.md(), timeout=TIMEOUT), grpc.StatusCode.PERMISSION_DENIED, reason)

def water_order(server, api):
    """An approved cash order of Aqua Hub's bottled water for tomorrow, by a new customer."""
    mid = server.marketplace_id("Aqua Hub")
    customer = sign_up(api, mid)
    catalog = Stub(api.channel, "souk.v1.Catalog")
    orders = Stub(api.channel, "souk.v1.Orders")
    services = catalog.ListServices(pb.ListServicesRequest(marketplace_id=mid, type=1, available_only=True,
                                                           page_size=100), timeout=TIMEOUT).services
    service = next(s for s in services if not s.requires_approval)
    tomorrow = time.gmtime(time.time() + 86400)
    windows = orders.ListServiceWindows(pb.ListServiceWindowsRequest(marketplace_id=mid, date=pb.Date(
        year=tomorrow.tm_year, month=tomorrow.tm_mon, day=tomorrow.tm_mday)), metadata=customer.md(),
        timeout=TIMEOUT).windows
    window = next(w.window for w in windows if w.available)
    order = orders.PlaceServiceOrder(pb.PlaceServiceOrderRequest(
        marketplace_id=mid, request_id=request_id(), service_id=service.id,
        option_id=service.options[0].id if service.options else "", quantity=1, scheduled_window=window,
        address=pb.AddressChoice(address=pb.Address(line1="King Road 1", city="Arar", country_code="SA",
                                                    location=pb.GeoPoint(latitude=30.97, longitude=41.03))),
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)
    return order, customer, orders


def test_assigning_a_water_delivery_names_why_the_courier_is_refused(server, api):
    mid = server.marketplace_id("Aqua Hub")
    admin = login_party(api, server.demo_login("Aqua Hub", "admin"))
    market = {"id": mid, "admin": admin}
    order, customer, _ = water_order(server, api)
    pending = sign_up(api, mid, requested_roles=[Role.ROLE_COURIER])
    blocked = approved_courier(api, market)
    block(api, market, blocked.account_id)
    for who, reason in ((customer, Reason.ERROR_REASON_NOT_A_COURIER),
                        (pending, Reason.ERROR_REASON_COURIER_ROLE_PENDING),
                        (blocked, Reason.ERROR_REASON_COURIER_BLOCKED)):
        refusal("Deliveries/AssignDelivery", lambda: api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
            marketplace_id=mid, request_id=request_id(), order_id=order.id, courier_account_id=who.account_id),
            metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION, reason)


def test_water_delivery_is_tracked_completed_late_and_collects_cash(server, api):
    mid = server.marketplace_id("Aqua Hub")
    admin = login_party(api, server.demo_login("Aqua Hub", "admin"))
    courier = approved_courier(api, {"id": mid, "admin": admin})
    order, customer, orders = water_order(server, api)
    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
        marketplace_id=mid, request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
        metadata=admin.md(), timeout=TIMEOUT)
    refusal("Deliveries/CancelDelivery", lambda: api.deliveries.CancelDelivery(pb.CancelDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id, reason="flat tyre", expected_version=delivery.version),
        metadata=courier.md(), timeout=TIMEOUT), grpc.StatusCode.PERMISSION_DENIED, Reason.ERROR_REASON_NOT_ALLOWED)
    go_online(api, courier, pb.GeoPoint(latitude=30.98, longitude=41.04))
    delivery = api.deliveries.StartDelivery(pb.StartDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id, expected_version=delivery.version), metadata=courier.md(),
        timeout=TIMEOUT)
    watch = api.deliveries.WatchCourierLocation(pb.WatchCourierLocationRequest(marketplace_id=mid, order_id=order.id),
                                                metadata=customer.md(), timeout=TIMEOUT)
    first = next(watch)
    assert first.courier_account_id == courier.account_id and abs(first.location.latitude - 30.98) < 1e-6
    watch.cancel()
    delivery = api.deliveries.DelayDelivery(pb.DelayDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id, note="traffic", expected_version=delivery.version),
        metadata=courier.md(), timeout=TIMEOUT)
    done = api.deliveries.CompleteDelivery(pb.CompleteDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id, expected_version=delivery.version), metadata=courier.md(),
        timeout=TIMEOUT)
    assert done.status == 5
    after = orders.GetOrder(pb.GetOrderRequest(marketplace_id=mid, order_id=order.id), metadata=customer.md(),
                            timeout=TIMEOUT)
    assert after.payment_status == 2, after.payment_status  # COLLECTED by the courier


# ---- Items 10 and 11: water tracking; rankings only from the restaurant, rounded ----

def test_water_couriers_go_online_and_report_positions(server, api):
    courier = login_party(api, server.demo_login("Aqua Hub", "courier"))
    arar = pb.GeoPoint(latitude=30.9753, longitude=41.0381)
    status = go_online(api, courier, arar)
    assert status.online
    stamp = message("google.protobuf.Timestamp")(seconds=int(time.time()) + 2)
    answer = api.deliveries.UpdateCourierLocation(pb.UpdateCourierLocationRequest(
        marketplace_id=courier.marketplace_id, location=arar, location_time=stamp), metadata=courier.md(),
        timeout=TIMEOUT)
    assert answer.accepted_count == 1
    offline = api.deliveries.SetCourierAvailability(pb.SetCourierAvailabilityRequest(
        marketplace_id=courier.marketplace_id, online=False), metadata=courier.md(), timeout=TIMEOUT)
    assert not offline.online


def test_rankings_start_from_the_restaurant_and_are_rounded(server, api):
    assert "near" not in pb.ListAvailableCouriersRequest.DESCRIPTOR.fields_by_name
    assert "location" not in pb.AvailableCourier.DESCRIPTOR.fields_by_name
    market = dineswift(server, api)
    point = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Ranking Check Pizza", point)
    courier = approved_courier(api, market)
    # About 1234 m north of the restaurant: shown as 1200.
    go_online(api, courier, pb.GeoPoint(latitude=point.latitude + 1234 / 111_195, longitude=point.longitude))
    found = [c for c in ranked(api, owner) if c.courier.account_id == courier.account_id]
    assert len(found) == 1
    assert found[0].distance_meters % 100 == 0 and found[0].distance_meters == 1200, found[0].distance_meters
    refusal("Deliveries/ListAvailableCouriers", lambda: api.deliveries.ListAvailableCouriers(
        pb.ListAvailableCouriersRequest(marketplace_id=market["id"]), metadata=market["admin"].md(),
        timeout=TIMEOUT), grpc.StatusCode.INVALID_ARGUMENT)
    stranger = sign_up(api, market["id"], requested_roles=[Role.ROLE_PROVIDER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=market["id"], account_id=stranger.account_id,
                                                   role=Role.ROLE_PROVIDER), metadata=market["admin"].md(),
                             timeout=TIMEOUT)
    refusal("Deliveries/ListAvailableCouriers", lambda: ranked(api, stranger), grpc.StatusCode.NOT_FOUND)


# ---- Item 12: rate limits with RetryInfo; password reset alike for unknown e-mails ----

def limited_marketplace(server, api):
    operator = operator_party(api, server)
    market = create_marketplace(api, operator, server.marketplace_id("Aqua Hub"))
    settings = pb.MarketplaceSettings()
    tight = pb.RateLimit(count=2, window=Duration(seconds=3600))
    settings.accounts.rate_limits.sign_in_per_account.CopyFrom(tight)
    settings.accounts.rate_limits.password_reset_per_account.CopyFrom(tight)
    updated = api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=market.id, settings=settings, expected_version=market.version, update_mask=FieldMask(paths=[
            "accounts.rate_limits"])),
        metadata=operator.md(), timeout=TIMEOUT)
    return updated.id


def test_sign_in_over_the_limit_answers_retry_info(server, api):
    mid = limited_marketplace(server, api)
    party = sign_up(api, mid)
    login = lambda: api.accounts.Login(pb.LoginRequest(marketplace_id=mid, email=party.email,
                                                       password=party.password), timeout=TIMEOUT)
    login()
    login()
    error = refusal("Accounts/Login", login, grpc.StatusCode.RESOURCE_EXHAUSTED, Reason.ERROR_REASON_RATE_LIMITED)
    retry = status_detail(error, error_details_pb2.RetryInfo)
    assert retry is not None and retry.retry_delay.seconds > 0, retry
    # Another account is not held back.
    other = sign_up(api, mid)
    api.accounts.Login(pb.LoginRequest(marketplace_id=mid, email=other.email, password=other.password),
                       timeout=TIMEOUT)


def test_password_reset_is_alike_for_unknown_e_mails(server, api):
    mid = limited_marketplace(server, api)
    known = sign_up(api, mid).email
    unknown = unique_email("nobody")
    answers = {}
    for email in (known, unknown):
        reset = lambda: api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(
            marketplace_id=mid, email=email), timeout=TIMEOUT)
        first, second = reset(), reset()
        error = refusal("Accounts/RequestPasswordReset", reset, grpc.StatusCode.RESOURCE_EXHAUSTED,
                        Reason.ERROR_REASON_RATE_LIMITED)
        assert status_detail(error, error_details_pb2.RetryInfo) is not None
        answers[email] = (first.SerializeToString(deterministic=True), second.SerializeToString(deterministic=True))
    assert answers[known] == answers[unknown]


# ---- Backups an operator can trust: the store commands on bad input ----

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d4944415478da63f8ffff3f0005fe02fea7d6a4530000000049454e44ae426082")


def store(server, *args):
    return subprocess.run([server.binary, "store", *args], capture_output=True, text=True, timeout=120)


def tree_digest(directory) -> dict:
    """Every file under a directory with the SHA-256 of its content."""
    root = pathlib.Path(directory)
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def upload_picture(api, party):
    stub = Stub(api.channel, "souk.v1.Media")
    Upload = message("souk.v1.UploadMediaRequest")
    Meta = message("souk.v1.UploadMediaMetadata")
    requests = [Upload(marketplace_id=party.marketplace_id, metadata=Meta(
                    request_id=request_id(), content_type="image/png", size_bytes=len(PNG), file_name="dot.png",
                    purpose=1)),
                Upload(marketplace_id=party.marketplace_id, chunk=PNG)]
    return stub.UploadMedia(iter(requests), metadata=party.md(), timeout=TIMEOUT)


@pytest.fixture(scope="module")
def backup(server, api, tmp_path_factory):
    """An online backup of the running server holding one upload, and a restored copy of it."""
    party = sign_up(api, server.marketplace_id("Aqua Hub"))
    upload_picture(api, party)
    directory = tmp_path_factory.mktemp("backups") / "b"
    taken = store(server, "backup", "--data-dir", server.data_dir, "--backup-dir", str(directory))
    assert taken.returncode == 0, taken.stdout + taken.stderr
    return directory


def damaged_copy(backup, tmp_path, pick):
    """A copy of the backup directory with one byte flipped in the file `pick` chooses."""
    copy = tmp_path / "damaged"
    shutil.copytree(backup, copy)
    victim = pick(copy)
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    return copy, victim


def restored_store(server, backup, tmp_path):
    target = tmp_path / "good"
    done = store(server, "restore", "--backup-dir", str(backup), "--data-dir", str(target))
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def test_restore_refuses_a_directory_of_foreign_files(server, backup, tmp_path):
    target = tmp_path / "photos"
    target.mkdir()
    (target / "holiday.jpg").write_bytes(b"mine")
    for force in ((), ("--force",)):
        done = store(server, "restore", "--backup-dir", str(backup), "--data-dir", str(target), *force)
        assert done.returncode != 0, done.stdout
        assert tree_digest(target) == {"holiday.jpg": hashlib.sha256(b"mine").hexdigest()}


def test_a_corrupt_data_file_is_named_and_touches_nothing(server, backup, tmp_path):
    good = restored_store(server, backup, tmp_path)
    before = tree_digest(good)
    damaged, victim = damaged_copy(backup, tmp_path, lambda d: max(d.rglob("*.sst"), key=lambda p: p.stat().st_size))
    checked = store(server, "verify-backup", "--backup-dir", str(damaged))
    assert checked.returncode == 1 and victim.name in checked.stdout + checked.stderr, checked.stdout + checked.stderr
    forced = store(server, "restore", "--force", "--backup-dir", str(damaged), "--data-dir", str(good))
    assert forced.returncode != 0 and victim.name in forced.stdout + forced.stderr, forced.stdout + forced.stderr
    assert tree_digest(good) == before
    empty = tmp_path / "empty"
    failed = store(server, "restore", "--backup-dir", str(damaged), "--data-dir", str(empty))
    assert failed.returncode != 0
    assert not empty.exists() or not any(empty.iterdir())
    assert not [p for p in tmp_path.iterdir() if "restoring" in p.name]


def test_a_damaged_upload_fails_verification_and_restore(server, backup, tmp_path):
    def an_upload(d):
        files = [p for p in d.rglob("*") if p.is_file() and p.read_bytes() == PNG]
        assert len(files) == 1, [str(p) for p in d.rglob("*")]
        return files[0]
    damaged, victim = damaged_copy(backup, tmp_path, an_upload)
    checked = store(server, "verify-backup", "--backup-dir", str(damaged))
    assert checked.returncode == 1 and victim.name in checked.stdout + checked.stderr, checked.stdout + checked.stderr
    target = tmp_path / "target"
    done = store(server, "restore", "--backup-dir", str(damaged), "--data-dir", str(target))
    assert done.returncode != 0, done.stdout
    # A data directory missing an upload that a record names fails `store verify`.
    good = restored_store(server, backup, tmp_path)
    for upload in [p for p in good.rglob("*") if p.is_file() and p.read_bytes() == PNG]:
        upload.unlink()
    verified = store(server, "verify", "--data-dir", str(good))
    assert verified.returncode != 0, verified.stdout


def test_restore_is_refused_while_the_server_runs(server, api, backup):
    before = sign_up(api, server.marketplace_id("Aqua Hub"))
    done = store(server, "restore", "--force", "--backup-dir", str(backup), "--data-dir", server.data_dir)
    assert done.returncode != 0, done.stdout
    assert before.me().id == before.account_id


def test_list_backups_tells_time_size_and_online(server, backup):
    listed = store(server, "list-backups", "--backup-dir", str(backup))
    assert listed.returncode == 0, listed.stderr
    text = listed.stdout
    assert "online" in text and "offline" not in text, text
    assert "UTC" in text or "Z" in text, text
    assert "1 uploaded file" in text, text


# ---- What Accounts answers is what its Errors lines say ----

def test_address_book_refusals_are_on_their_errors_lines(server, api):
    misses = []
    refusal = lambda rpc, call, code, reason=None: misses.extend(unlisted(rpc, refused_with(rpc, call, code, reason)))
    party = sign_up(api, server.marketplace_id("Aqua Hub"))
    mid = party.marketplace_id
    saved = api.accounts.CreateAddress(pb.CreateAddressRequest(marketplace_id=mid, request_id=request_id(), address=pb.Address(
        line1="King Road 2", city="Arar", country_code="SA")), metadata=party.md(), timeout=TIMEOUT)
    archived = api.accounts.ArchiveAddress(pb.ArchiveAddressRequest(marketplace_id=mid, address_id=saved.id,
                                                                    expected_version=saved.version),
                                           metadata=party.md(), timeout=TIMEOUT)
    refusal("Accounts/ArchiveAddress", lambda: api.accounts.ArchiveAddress(pb.ArchiveAddressRequest(
        marketplace_id=mid, address_id=saved.id), metadata=party.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/UpdateAddress", lambda: api.accounts.UpdateAddress(pb.UpdateAddressRequest(
        marketplace_id=mid, saved_address=pb.SavedAddress(id=saved.id, is_default=True), update_mask=FieldMask(paths=["is_default"])),
        metadata=party.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/ArchiveAddress", lambda: api.accounts.ArchiveAddress(pb.ArchiveAddressRequest(
        marketplace_id=mid, address_id=saved.id, expected_version=archived.version + 5), metadata=party.md(),
        timeout=TIMEOUT), grpc.StatusCode.ABORTED, Reason.ERROR_REASON_STALE_VERSION)
    restored = api.accounts.RestoreAddress(pb.RestoreAddressRequest(marketplace_id=mid, address_id=saved.id),
                                           metadata=party.md(), timeout=TIMEOUT)
    refusal("Accounts/RestoreAddress", lambda: api.accounts.RestoreAddress(pb.RestoreAddressRequest(
        marketplace_id=mid, address_id=restored.id), metadata=party.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION)
    other = sign_up(api, mid)
    refusal("Accounts/GetAddress", lambda: api.accounts.GetAddress(pb.GetAddressRequest(
        marketplace_id=mid, address_id=saved.id), metadata=other.md(), timeout=TIMEOUT), grpc.StatusCode.PERMISSION_DENIED)
    assert not misses, "\n".join(misses)


def test_role_and_block_refusals_are_on_their_errors_lines(server, api):
    misses = []
    refusal = lambda rpc, call, code, reason=None: misses.extend(unlisted(rpc, refused_with(rpc, call, code, reason)))
    mid = server.marketplace_id("Aqua Hub")
    admin = login_party(api, server.demo_login("Aqua Hub", "admin"))
    party = sign_up(api, mid, requested_roles=[Role.ROLE_COURIER])
    refusal("Accounts/RequestRole", lambda: api.accounts.RequestRole(pb.RequestRoleRequest(
        marketplace_id=mid, role=Role.ROLE_COURIER), metadata=party.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/RevokeRole", lambda: api.accounts.RevokeRole(pb.RevokeRoleRequest(
        marketplace_id=mid, account_id=party.account_id, role=Role.ROLE_COURIER), metadata=admin.md(), timeout=TIMEOUT),
        grpc.StatusCode.INVALID_ARGUMENT)
    refusal("Accounts/RequestRole", lambda: api.accounts.RequestRole(pb.RequestRoleRequest(
        marketplace_id=mid, role=Role.ROLE_CUSTOMER), metadata=party.md(), timeout=TIMEOUT),
        grpc.StatusCode.INVALID_ARGUMENT)
    refusal("Accounts/ApproveRole", lambda: api.accounts.ApproveRole(pb.ApproveRoleRequest(
        marketplace_id=mid, account_id=party.account_id, role=Role.ROLE_PROVIDER), metadata=admin.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/AssignRole", lambda: api.accounts.AssignRole(pb.AssignRoleRequest(
        marketplace_id=mid, account_id=party.account_id, role=Role.ROLE_CUSTOMER), metadata=admin.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/RevokeRole", lambda: api.accounts.RevokeRole(pb.RevokeRoleRequest(
        marketplace_id=mid, account_id=party.account_id, role=Role.ROLE_ADMIN, reason="not held"), metadata=admin.md(),
        timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/UnblockAccount", lambda: api.accounts.UnblockAccount(pb.UnblockAccountRequest(
        marketplace_id=mid, account_id=party.account_id), metadata=admin.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/BlockAccount", lambda: api.accounts.BlockAccount(pb.BlockAccountRequest(
        marketplace_id=mid, account_id=admin.account_id, reason="me"), metadata=admin.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_SELF_ACTION)
    pending_admin = sign_up(api, mid, requested_roles=[Role.ROLE_ADMIN])
    refusal("Accounts/ListAccounts", lambda: api.accounts.ListAccounts(pb.ListAccountsRequest(marketplace_id=mid),
                                                                       metadata=pending_admin.md(), timeout=TIMEOUT),
            grpc.StatusCode.PERMISSION_DENIED, Reason.ERROR_REASON_ROLE_PENDING)
    refusal("Accounts/GetAccount", lambda: api.accounts.GetAccount(pb.GetAccountRequest(
        marketplace_id=mid, account_id=admin.account_id), metadata=party.md(), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED)
    refusal("Accounts/ChangePassword", lambda: api.accounts.ChangePassword(pb.ChangePasswordRequest(
        marketplace_id=mid, current_password="Wr0ng!Password", new_password="N3w!Password"), metadata=party.md(),
        timeout=TIMEOUT), grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_BAD_CREDENTIALS)
    refusal("Accounts/DeleteAccount", lambda: api.accounts.DeleteAccount(pb.DeleteAccountRequest(
        marketplace_id=mid, password="Wr0ng!Password"), metadata=party.md(), timeout=TIMEOUT),
        grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_BAD_CREDENTIALS)
    refusal("Accounts/VerifyEmail", lambda: api.accounts.VerifyEmail(pb.VerifyEmailRequest(
        marketplace_id=mid, code="123456"), metadata=party.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION)
    refusal("Accounts/ConfirmPasswordReset", lambda: api.accounts.ConfirmPasswordReset(pb.ConfirmPasswordResetRequest(
        marketplace_id=mid, reset_token="x" * 40, new_password="N3w!Password"), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_TOKEN_INVALID)
    refusal("Accounts/Refresh", lambda: api.accounts.Refresh(pb.RefreshRequest(
        marketplace_id=mid, refresh_token="x" * 40), timeout=TIMEOUT), grpc.StatusCode.UNAUTHENTICATED,
        Reason.ERROR_REASON_TOKEN_INVALID)
    assert not misses, "\n".join(misses)


def test_sign_up_per_address_limit_and_normal_use(server, api):
    operator = operator_party(api, server)
    market = create_marketplace(api, operator, server.marketplace_id("Aqua Hub"))
    settings = pb.MarketplaceSettings()
    settings.accounts.rate_limits.sign_up_per_address.CopyFrom(pb.RateLimit(count=2, window=Duration(seconds=3600)))
    api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=market.id, settings=settings, expected_version=market.version,
        update_mask=FieldMask(paths=["accounts.rate_limits"])), metadata=operator.md(), timeout=TIMEOUT)
    sign_up(api, market.id)
    sign_up(api, market.id)
    error = refusal("Accounts/SignUp", lambda: sign_up(api, market.id), grpc.StatusCode.RESOURCE_EXHAUSTED,
                    Reason.ERROR_REASON_RATE_LIMITED)
    assert status_detail(error, error_details_pb2.RetryInfo) is not None
    # With the defaults, a user signing in a few times and resetting a forgotten password twice
    # meets no limit.
    mid = server.marketplace_id("Chateau Du Nox")
    party = sign_up(api, mid)
    for _ in range(6):
        api.accounts.Login(pb.LoginRequest(marketplace_id=mid, email=party.email, password=party.password),
                           timeout=TIMEOUT)
    for _ in range(2):
        api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(marketplace_id=mid, email=party.email),
                                          timeout=TIMEOUT)


def test_offer_timeout_bounds_are_enforced(server, api):
    operator = operator_party(api, server)
    market = create_marketplace(api, operator, server.marketplace_id("DineSwift"))
    for seconds, nanos in ((601, 0), (0, 500_000_000)):
        settings = pb.MarketplaceSettings()
        settings.delivery.offer_timeout.CopyFrom(Duration(seconds=seconds, nanos=nanos))
        assert "settings.delivery.offer_timeout" in named_fields(
            "Marketplaces/UpdateMarketplaceSettings", lambda: api.marketplaces.UpdateMarketplaceSettings(
                pb.UpdateMarketplaceSettingsRequest(marketplace_id=market.id, settings=settings,
                                                    update_mask=FieldMask(paths=["delivery.offer_timeout"])),
                metadata=operator.md(), timeout=TIMEOUT))
    settings = pb.MarketplaceSettings()
    settings.delivery.offer_timeout.CopyFrom(Duration(seconds=600))
    done = api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=market.id, settings=settings, update_mask=FieldMask(paths=["delivery.offer_timeout"])),
        metadata=operator.md(), timeout=TIMEOUT)
    assert done.settings.delivery.offer_timeout.seconds == 600


def test_delivery_refusals_are_on_their_errors_lines(server, api):
    misses = []
    refusal = lambda rpc, call, code, reason=None: misses.extend(unlisted(rpc, refused_with(rpc, call, code, reason)))
    mid = server.marketplace_id("Aqua Hub")
    admin = login_party(api, server.demo_login("Aqua Hub", "admin"))
    courier = approved_courier(api, {"id": mid, "admin": admin})
    other = approved_courier(api, {"id": mid, "admin": admin})
    order, customer, _ = water_order(server, api)
    stranger = sign_up(api, mid)
    refusal("Deliveries/WatchCourierLocation", lambda: next(api.deliveries.WatchCourierLocation(
        pb.WatchCourierLocationRequest(marketplace_id=mid, order_id=order.id), metadata=customer.md(), timeout=TIMEOUT)),
        grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_NO_DELIVERY_IN_PROGRESS)
    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
        marketplace_id=mid, request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
        metadata=admin.md(), timeout=TIMEOUT)
    refusal("Deliveries/AssignDelivery", lambda: api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
        marketplace_id=mid, request_id=request_id(), order_id=order.id, courier_account_id=other.account_id),
        metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_DELIVERY_OPEN)
    refusal("Deliveries/CompleteDelivery", lambda: api.deliveries.CompleteDelivery(pb.CompleteDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id), metadata=courier.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_INVALID_TRANSITION)
    refusal("Deliveries/DelayDelivery", lambda: api.deliveries.DelayDelivery(pb.DelayDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id, note="late"), metadata=courier.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_INVALID_TRANSITION)
    refusal("Deliveries/StartDelivery", lambda: api.deliveries.StartDelivery(pb.StartDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id), metadata=other.md(), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED)
    refusal("Deliveries/StartDelivery", lambda: api.deliveries.StartDelivery(pb.StartDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id, expected_version=delivery.version + 3), metadata=courier.md(),
        timeout=TIMEOUT), grpc.StatusCode.ABORTED, Reason.ERROR_REASON_STALE_VERSION)
    refusal("Deliveries/GetDelivery", lambda: api.deliveries.GetDelivery(pb.GetDeliveryRequest(
        marketplace_id=mid, delivery_id=delivery.id), metadata=stranger.md(), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED)
    refusal("Deliveries/GetCourierStatus", lambda: api.deliveries.GetCourierStatus(pb.GetCourierStatusRequest(
        marketplace_id=mid, courier_account_id=courier.account_id), metadata=other.md(), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED)
    refusal("Deliveries/ListDeliveries", lambda: api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(
        marketplace_id=mid, courier_account_id=courier.account_id), metadata=other.md(), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED)
    pending = sign_up(api, mid, requested_roles=[Role.ROLE_COURIER])
    refusal("Deliveries/ListDeliveries", lambda: api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(
        marketplace_id=mid), metadata=pending.md(), timeout=TIMEOUT), grpc.StatusCode.PERMISSION_DENIED,
        Reason.ERROR_REASON_ROLE_PENDING)
    refusal("Deliveries/SetCourierAvailability", lambda: api.deliveries.SetCourierAvailability(
        pb.SetCourierAvailabilityRequest(marketplace_id=mid, online=True), metadata=courier.md(), timeout=TIMEOUT),
        grpc.StatusCode.INVALID_ARGUMENT)
    refusal("Deliveries/UpdateCourierLocation", lambda: api.deliveries.UpdateCourierLocation(
        pb.UpdateCourierLocationRequest(marketplace_id=mid, location=pb.GeoPoint(latitude=30.9, longitude=41.0),
                                        location_time=message("google.protobuf.Timestamp")(seconds=int(time.time()))),
        metadata=other.md(), timeout=TIMEOUT), grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_COURIER_OFFLINE)
    go_online(api, courier, pb.GeoPoint(latitude=30.9, longitude=41.0))
    api.deliveries.StartDelivery(pb.StartDeliveryRequest(marketplace_id=mid, delivery_id=delivery.id),
                                 metadata=courier.md(), timeout=TIMEOUT)
    refusal("Deliveries/SetCourierAvailability", lambda: api.deliveries.SetCourierAvailability(
        pb.SetCourierAvailabilityRequest(marketplace_id=mid, online=False), metadata=courier.md(), timeout=TIMEOUT),
        grpc.StatusCode.FAILED_PRECONDITION, Reason.ERROR_REASON_COURIER_BUSY)
    refusal("Deliveries/WatchCourierLocation", lambda: next(api.deliveries.WatchCourierLocation(
        pb.WatchCourierLocationRequest(marketplace_id=mid, order_id=order.id), metadata=stranger.md(), timeout=TIMEOUT)),
        grpc.StatusCode.PERMISSION_DENIED)
    assert not misses, "\n".join(misses)


def test_sign_up_and_profile_refusals_are_on_their_errors_lines(server, api):
    misses = []
    refusal = lambda rpc, call, code, reason=None: misses.extend(unlisted(rpc, refused_with(rpc, call, code, reason)))
    mid = server.marketplace_id("Drip 'n Dash")
    admin = login_party(api, server.demo_login("Drip 'n Dash", "admin"))
    taken = server.demo_login("Drip 'n Dash", "customer").email
    dorm = login_party(api, server.demo_login("Drip 'n Dash", "customer")).me().laundry_profile.dorm_id
    signup = lambda email, password=STRONG: api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=mid, request_id=request_id(), email=email, password=password, given_name="A", family_name="B",
        laundry_profile=pb.LaundryProfile(campus="Busch", dorm_id=dorm, room="1")),
        timeout=TIMEOUT)
    refusal("Accounts/SignUp", lambda: signup(unique_email(domain="gmail.com")), grpc.StatusCode.INVALID_ARGUMENT,
            Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED)
    refusal("Accounts/SignUp", lambda: signup(unique_email(domain="rutgers.edu"), "alllowercase1!"),
            grpc.StatusCode.INVALID_ARGUMENT, Reason.ERROR_REASON_WEAK_PASSWORD)
    refusal("Accounts/SignUp", lambda: signup(taken.upper()), grpc.StatusCode.ALREADY_EXISTS)
    refusal("Accounts/Login", lambda: api.accounts.Login(pb.LoginRequest(
        marketplace_id=mid, email=taken, password="Wr0ng!Password"), timeout=TIMEOUT),
        grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_BAD_CREDENTIALS)
    refusal("Accounts/CreateAccount", lambda: api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=mid, request_id=request_id(), email=taken, initial_password=STRONG, given_name="A",
        family_name="B", laundry_profile=pb.LaundryProfile(campus="Busch", dorm_id=dorm, room="1")),
        metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.ALREADY_EXISTS)
    refusal("Accounts/ListAccounts", lambda: api.accounts.ListAccounts(pb.ListAccountsRequest(
        marketplace_id=mid, page_token="garbage"), metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.INVALID_ARGUMENT)
    refusal("Accounts/GetPublicProfile", lambda: api.accounts.GetPublicProfile(pb.GetPublicProfileRequest(
        marketplace_id=mid, account_id="00000000-0000-7000-8000-000000000000"), timeout=TIMEOUT),
        grpc.StatusCode.NOT_FOUND)
    me = admin.me()
    refusal("Accounts/UpdateProfile", lambda: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=mid, account=pb.Account(id=me.id, email=taken), update_mask=FieldMask(paths=["email"])),
        metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.ALREADY_EXISTS)
    refusal("Accounts/UpdateProfile", lambda: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=mid, account=pb.Account(id=me.id, given_name="Z"), update_mask=FieldMask(paths=["given_name"]),
        expected_version=me.version + 7), metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.ABORTED,
        Reason.ERROR_REASON_STALE_VERSION)
    refusal("Accounts/UpdateProfile", lambda: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=mid, account=pb.Account(id=me.id, given_name="Z"), update_mask=FieldMask(paths=["roles"])),
        metadata=admin.md(), timeout=TIMEOUT), grpc.StatusCode.INVALID_ARGUMENT)
    refusal("Accounts/VerifyEmail", lambda: api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=mid),
                                                                     metadata=admin.md(), timeout=TIMEOUT),
            grpc.StatusCode.INVALID_ARGUMENT)
    assert not misses, "\n".join(misses)


def test_more_delivery_requests_name_every_wrong_field(server, api):
    market = dineswift(server, api)
    point = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Fields Check Pizza", point)
    courier = approved_courier(api, market)
    assert {"request_id", "order_id", "courier"} <= named_fields(
        "Deliveries/OfferDelivery", lambda: api.deliveries.OfferDelivery(pb.OfferDeliveryRequest(
            marketplace_id=market["id"]), metadata=owner.md(), timeout=TIMEOUT))
    assert {"delivery_id", "reason", "expected_version"} <= named_fields(
        "Deliveries/RejectDelivery", lambda: api.deliveries.RejectDelivery(pb.RejectDeliveryRequest(
            marketplace_id=market["id"], reason="x" * 1001, expected_version=-2), metadata=courier.md(),
            timeout=TIMEOUT))
    assert {"delivery_id", "expected_version"} <= named_fields(
        "Deliveries/AcceptDelivery", lambda: api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(
            marketplace_id=market["id"], delivery_id="nope", expected_version=-2), metadata=courier.md(),
            timeout=TIMEOUT))
    fields = named_fields("Deliveries/ListDeliveries", lambda: api.deliveries.ListDeliveries(pb.ListDeliveriesRequest(
        marketplace_id=market["id"], courier_account_id=courier.account_id, order_id=courier.account_id, page_size=-1,
        page_token="garbage"), metadata=market["admin"].md(), timeout=TIMEOUT))
    assert {"page_size", "page_token"} <= fields and fields & {"courier_account_id", "order_id"}, fields
    assert {"order_id", "resume_after_sequence"} <= named_fields(
        "Deliveries/WatchCourierLocation", lambda: next(api.deliveries.WatchCourierLocation(
            pb.WatchCourierLocationRequest(marketplace_id=market["id"], resume_after_sequence=-1),
            metadata=market["admin"].md(), timeout=TIMEOUT)))


def test_a_restaurant_ranks_only_from_its_own_orders(server, api):
    market = dineswift(server, api)
    point = a_point()
    restaurant, owner = approved_open_restaurant(api, market, "Own Order Pizza", point)
    order = preparing_food_order(api, market, restaurant, owner, point)
    _, rival = approved_open_restaurant(api, market, "Rival Pizza", a_point())
    refusal("Deliveries/ListAvailableCouriers", lambda: api.deliveries.ListAvailableCouriers(
        pb.ListAvailableCouriersRequest(marketplace_id=market["id"], order_id=order.id), metadata=rival.md(),
        timeout=TIMEOUT), grpc.StatusCode.PERMISSION_DENIED, Reason.ERROR_REASON_NOT_ALLOWED)
    mine = api.deliveries.ListAvailableCouriers(pb.ListAvailableCouriersRequest(
        marketplace_id=market["id"], order_id=order.id), metadata=market["admin"].md(), timeout=TIMEOUT)
    assert all(c.distance_meters % 100 == 0 for c in mine.couriers)


def test_more_auth_refusals_and_limits(server, api):
    mid = server.marketplace_id("Aqua Hub")
    admin = login_party(api, server.demo_login("Aqua Hub", "admin"))
    error = failure(lambda: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=mid), metadata=bearer("not-a-token"),
                                               timeout=TIMEOUT))
    assert (error.code(), error_reason(error)) == (grpc.StatusCode.UNAUTHENTICATED, Reason.ERROR_REASON_TOKEN_INVALID)
    blocked = sign_up(api, mid)
    block(api, {"id": mid, "admin": admin}, blocked.account_id)
    refusal("Accounts/Refresh", lambda: api.accounts.Refresh(pb.RefreshRequest(
        marketplace_id=mid, refresh_token=blocked.session.refresh_token), timeout=TIMEOUT),
        grpc.StatusCode.PERMISSION_DENIED, Reason.ERROR_REASON_ACCOUNT_BLOCKED)

    party = sign_up(api, mid)
    send = lambda: api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=mid),
                                                     metadata=party.md(), timeout=TIMEOUT)
    send()
    error = refusal("Accounts/SendVerificationCode", send, grpc.StatusCode.RESOURCE_EXHAUSTED,
                    Reason.ERROR_REASON_VERIFICATION_CODE_LIMIT)
    retry = status_detail(error, error_details_pb2.RetryInfo)
    assert retry is not None and 0 < retry.retry_delay.seconds <= 60, retry
    error = refusal("Accounts/VerifyEmail", lambda: api.accounts.VerifyEmail(pb.VerifyEmailRequest(
        marketplace_id=mid, code="000000"), metadata=party.md(), timeout=TIMEOUT), grpc.StatusCode.UNAUTHENTICATED,
        Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert "4" in error.details(), error.details()  # tries left

    operator = operator_party(api, server)
    market = create_marketplace(api, operator, mid)
    settings = pb.MarketplaceSettings()
    settings.accounts.rate_limits.sign_in_per_address.CopyFrom(pb.RateLimit(count=3, window=Duration(seconds=3600)))
    settings.accounts.rate_limits.sign_up_per_address.CopyFrom(pb.RateLimit(count=10, window=Duration(seconds=3600)))
    api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=market.id, settings=settings, update_mask=FieldMask(paths=["accounts.rate_limits"])),
        metadata=operator.md(), timeout=TIMEOUT)
    people = [sign_up(api, market.id) for _ in range(4)]
    login = lambda p: api.accounts.Login(pb.LoginRequest(marketplace_id=market.id, email=p.email, password=p.password),
                                         timeout=TIMEOUT)
    for p in people[:3]:
        login(p)
    error = refusal("Accounts/Login", lambda: login(people[3]), grpc.StatusCode.RESOURCE_EXHAUSTED,
                    Reason.ERROR_REASON_RATE_LIMITED)
    assert status_detail(error, error_details_pb2.RetryInfo) is not None
