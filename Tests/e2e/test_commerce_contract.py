"""The commerce contract as the server keeps it, end to end through grpcio: water services keep
their base texts apart from the caller's translation (an Arabic-speaking admin's edit stores no
Arabic as base text); options are ordered by their stable code; a request with several bad
fields names them all (CreateService, CreateProduct, CreateMenuItem, Checkout); the ListOrders,
Checkout and CreateRestaurant rules the contract states; refusals with their own reasons; and
payments filtered by several statuses."""
import datetime
import random
import uuid

import grpc
import pytest

from souk_food import approved_open_restaurant, pizza_input, restaurant_input
from souk_identity import TIMEOUT, Api, FieldMask, Reason, Role, RoleStatus, login_party, pb, refused, request_id, role_status, \
    sign_up
from souk_protos import Stub, enum, field_violations

Code = grpc.StatusCode
ServiceType = enum("souk.v1.ServiceType")
PaymentStatus = enum("souk.v1.PaymentStatus")
Approval = enum("souk.v1.RestaurantApprovalState")
RIYADH = datetime.timezone(datetime.timedelta(hours=3))
ARABIC = (("accept-language", "ar"),)
ENGLISH = (("accept-language", "en"),)


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.orders = Stub(identity_channel, "souk.v1.Orders")
    api.payments = Stub(identity_channel, "souk.v1.Payments")
    api.carts = Stub(identity_channel, "souk.v1.Carts")
    return api


@pytest.fixture(scope="module")
def aqua(api, identity_server):
    marketplace_id = identity_server.marketplace_id("Aqua Hub")
    return {
        "id": marketplace_id,
        "admin": login_party(api, identity_server.demo_login("Aqua Hub", "admin")),
        "customer": sign_up(api, marketplace_id, given_name="Salma"),
    }


@pytest.fixture(scope="module")
def dineswift(api, identity_server):
    marketplace_id = identity_server.marketplace_id("DineSwift")
    return {"id": marketplace_id, "admin": login_party(api, identity_server.demo_login("DineSwift", "admin"))}


def a_point():
    """A point in the south, far from the coast where the other food tests look for restaurants."""
    return pb.GeoPoint(latitude=33.0 + random.uniform(0, 0.3), longitude=35.20 + random.uniform(0, 0.01))


def sar(minor):
    return pb.Money(amount_minor=minor, currency_code="SAR")


def named_fields(error):
    return {violation.field for violation in field_violations(error)}


def a_window(api, party):
    day = datetime.datetime.now(RIYADH).date() + datetime.timedelta(days=2)
    windows = api.orders.ListServiceWindows(pb.ListServiceWindowsRequest(
        marketplace_id=party.marketplace_id, date=pb.Date(year=day.year, month=day.month, day=day.day)),
        metadata=party.md(), timeout=TIMEOUT).windows
    return next(w.window for w in windows if w.available)


def water_order(api, aqua, service, payment=None, **option):
    return api.orders.PlaceServiceOrder(pb.PlaceServiceOrderRequest(
        marketplace_id=aqua["id"], request_id=request_id(), service_id=service.id, quantity=1, scheduled_window=a_window(api, aqua["customer"]),
        address=pb.AddressChoice(address=pb.Address(line1="Prince Abdullah Street 3", city="Arar", country_code="SA")),
        payment=payment or pb.PaymentMethodInput(cash=pb.CashOnDelivery()), **option),
        metadata=aqua["customer"].md(), timeout=TIMEOUT)


def a_service(api, aqua, tag):
    return api.catalog.CreateService(pb.CreateServiceRequest(
        marketplace_id=aqua["id"], request_id=request_id(), service=pb.Service(
            name=f"Zamzam Bottles {tag}", description="Bottled water from the Zamzam plant.", language_code="en",
            type=ServiceType.SERVICE_TYPE_DELIVERY, base_price=sar(400), available=True,
            translations=[pb.Translation(language_code="ar", name=f"مياه زمزم {tag}", description="مياه معبأة من مصنع زمزم.")],
            options=[
                pb.ServiceOption(code="12-pack", name="12-pack", price=sar(3000), available=True,
                                 translations=[pb.Translation(language_code="ar", name="كرتون ١٢ عبوة")]),
                pb.ServiceOption(name="6-pack (shrink-wrapped)", price=sar(1600), available=True,
                                 translations=[pb.Translation(language_code="ar", name="٦ عبوات")]),
            ])),
        metadata=aqua["admin"].md(), timeout=TIMEOUT)


# ---- Item 9: localized reads never leak into writes ----

def test_an_arabic_admins_edit_stores_no_arabic_as_base_text(api, aqua):
    admin = aqua["admin"]
    tag = uuid.uuid4().hex[:6]
    created = a_service(api, aqua, tag)
    assert [o.code for o in created.options] == ["12-pack", "6-pack-shrink-wrapped"]

    # In Arabic: the base texts stay as written, the translation comes beside them with its language.
    read = api.catalog.GetService(pb.GetServiceRequest(marketplace_id=aqua["id"], service_id=created.id),
                                  metadata=admin.md() + ARABIC, timeout=TIMEOUT)
    assert read.name == f"Zamzam Bottles {tag}" and read.language_code == "en"
    assert read.localized.language_code == "ar" and read.localized.name == f"مياه زمزم {tag}"
    assert read.localized.description == "مياه معبأة من مصنع زمزم."
    assert [o.name for o in read.options] == ["12-pack", "6-pack (shrink-wrapped)"]
    assert [o.localized.name for o in read.options] == ["كرتون ١٢ عبوة", "٦ عبوات"]

    # The Arabic-speaking admin raises the 12-pack's price, sending the options as read.
    options = list(read.options)
    options[0].price.CopyFrom(sar(3200))
    updated = api.catalog.UpdateService(pb.UpdateServiceRequest(
        marketplace_id=aqua["id"], service=pb.Service(id=read.id, options=options), update_mask=FieldMask(paths=["options"]),
        expected_version=read.version), metadata=admin.md() + ARABIC, timeout=TIMEOUT)
    assert [o.price.amount_minor for o in updated.options] == [3200, 1600]

    english = api.catalog.GetService(pb.GetServiceRequest(marketplace_id=aqua["id"], service_id=created.id),
                                     metadata=ENGLISH, timeout=TIMEOUT)
    assert english.name == f"Zamzam Bottles {tag}" and not english.HasField("localized")
    assert [o.name for o in english.options] == ["12-pack", "6-pack (shrink-wrapped)"]
    assert [o.code for o in english.options] == ["12-pack", "6-pack-shrink-wrapped"]
    assert [o.translations[0].name for o in english.options] == ["كرتون ١٢ عبوة", "٦ عبوات"]
    assert not any(o.HasField("localized") for o in english.options)
    listed = api.catalog.ListServices(pb.ListServicesRequest(marketplace_id=aqua["id"], query=f"zamzam {tag}"),
                                      metadata=ARABIC, timeout=TIMEOUT).services
    assert [(s.name, s.localized.name) for s in listed] == [(f"Zamzam Bottles {tag}", f"مياه زمزم {tag}")]

    # A code never changes; a translation in the base language is refused.
    options = list(updated.options)
    options[0].code = "dozen"
    error = refused(lambda: api.catalog.UpdateService(pb.UpdateServiceRequest(
        marketplace_id=aqua["id"], service=pb.Service(id=read.id, options=options), update_mask=FieldMask(paths=["options"])),
        metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="service.options[0].code")
    assert "12-pack" in error.details()
    refused(lambda: api.catalog.UpdateService(pb.UpdateServiceRequest(
        marketplace_id=aqua["id"], service=pb.Service(id=read.id, translations=[pb.Translation(language_code="en", name="Zamzam")]),
        update_mask=FieldMask(paths=["translations"])), metadata=admin.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="service.translations[0].language_code")


# ---- Item 16: options by their stable code ----

def test_a_customer_orders_the_12_pack_by_its_code(api, aqua):
    services = api.catalog.ListServices(pb.ListServicesRequest(marketplace_id=aqua["id"], query="safi"), timeout=TIMEOUT).services
    safi = next(s for s in services if s.name == "Safi Water")
    assert [o.code for o in safi.options] == ["1-bottle", "6-pack", "12-pack"]
    order = water_order(api, aqua, safi, option_code="12-pack")
    line = order.lines[0]
    assert (line.option_code, line.option_name, line.unit_price.amount_minor) == ("12-pack", "12-pack (carton)", 2500)
    error = refused(lambda: water_order(api, aqua, safi, option_code="24-pack"), Code.INVALID_ARGUMENT, field="option_code")
    assert "12-pack" in error.details()
    refused(lambda: water_order(api, aqua, safi), Code.INVALID_ARGUMENT, field="option_id")


# ---- Item 2: every bad field at once ----

def test_every_bad_field_of_a_create_or_checkout_is_named_at_once(api, aqua, dineswift, identity_server):
    error = refused(lambda: api.catalog.CreateService(pb.CreateServiceRequest(
        marketplace_id=aqua["id"], request_id=request_id(), service=pb.Service(
            name=" ", base_price=sar(-1), options=[pb.ServiceOption(name="", code="Big Pack")])),
        metadata=aqua["admin"].md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"service.name", "service.type", "service.base_price", "service.options[0].code",
                                   "service.options[0].name"}

    shop_id = identity_server.marketplace_id("Chateau Du Nox")
    staff = login_party(api, identity_server.demo_login("Chateau Du Nox", "provider"))
    error = refused(lambda: api.catalog.CreateProduct(pb.CreateProductRequest(
        marketplace_id=shop_id, request_id=request_id(), product=pb.Product(name="", stock=-1, vintage=3000)),
        metadata=staff.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"product.name", "product.price", "product.stock", "product.vintage"}

    customer = sign_up(api, shop_id)
    error = refused(lambda: api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=shop_id, request_id=request_id(), address=pb.AddressChoice(address=pb.Address(country_code="MY")),
        note="n" * 501), metadata=customer.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"address.address.line1", "address.address.city", "payment", "note"}

    market = dict(dineswift)
    restaurant, owner = approved_open_restaurant(api, market, f"Fields Grill {uuid.uuid4().hex[:6]}", a_point())
    bad = pizza_input(restaurant.id, "")
    bad.discount_bps = 20000
    bad.ClearField("price")
    bad.option_groups[0].min_choices = 0
    bad.option_groups[1].choices[0].name = ""
    error = refused(lambda: api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market["id"], request_id=request_id(), menu_item=bad), metadata=owner.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"menu_item.name", "menu_item.price", "menu_item.discount_bps", "menu_item.option_groups[0].min_choices",
                                   "menu_item.option_groups[1].choices[0].name"}


# ---- Item 14: contract and server say the same ----

def test_a_restaurant_lists_its_orders_by_its_own_restaurant_id(api, dineswift):
    market = dict(dineswift)
    restaurant, owner = approved_open_restaurant(api, market, f"Own Orders {uuid.uuid4().hex[:6]}", a_point())
    pizza = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market["id"], request_id=request_id(), menu_item=pizza_input(restaurant.id, "Own Margherita")),
        metadata=owner.md(), timeout=TIMEOUT)
    customer = sign_up(api, market["id"])
    api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market["id"], request_id=request_id(), item_id=pizza.id, quantity=1,
        options=[pb.CartLineOption(group_id="size", choice_id="small")]), metadata=customer.md(), timeout=TIMEOUT)
    order = api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=market["id"], request_id=request_id(), address=pb.AddressChoice(address=pb.Address(
            line1="Hamra Street 5", city="Beirut", country_code="LB")), address_confirmed=True,
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)
    listed = api.orders.ListOrders(pb.ListOrdersRequest(marketplace_id=market["id"], restaurant_id=restaurant.id),
                                   metadata=owner.md(), timeout=TIMEOUT).orders
    assert [o.id for o in listed] == [order.id]
    other, other_owner = approved_open_restaurant(api, market, f"Other Orders {uuid.uuid4().hex[:6]}", a_point())
    refused(lambda: api.orders.ListOrders(pb.ListOrdersRequest(marketplace_id=market["id"], restaurant_id=restaurant.id),
                                          metadata=other_owner.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)


def test_delivered_after_filters_the_callers_own_history_or_an_admins_named_customer(api, identity_server):
    shop_id = identity_server.marketplace_id("Chateau Du Nox")
    customer = sign_up(api, shop_id)
    after = pb.ListOrdersRequest(marketplace_id=shop_id)
    after.delivered_after.FromSeconds(0)
    assert api.orders.ListOrders(after, metadata=customer.md(), timeout=TIMEOUT).orders == []
    admin = login_party(api, identity_server.demo_login("Chateau Du Nox", "admin"))
    refused(lambda: api.orders.ListOrders(after, metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="delivered_after")
    after.customer_account_id = customer.account_id
    assert api.orders.ListOrders(after, metadata=admin.md(), timeout=TIMEOUT).orders == []


def test_the_default_address_needs_no_confirmation(api, identity_server):
    shop_id = identity_server.marketplace_id("Chateau Du Nox")
    staff = login_party(api, identity_server.demo_login("Chateau Du Nox", "provider"))
    wine = api.catalog.CreateProduct(pb.CreateProductRequest(marketplace_id=shop_id, request_id=request_id(), product=pb.Product(
        name="Confirmed Syrah", price=pb.Money(amount_minor=5000, currency_code="MYR"), stock=5, available=True)),
        metadata=staff.md(), timeout=TIMEOUT)
    customer = sign_up(api, shop_id)
    home = api.accounts.CreateAddress(pb.CreateAddressRequest(
        marketplace_id=shop_id, request_id=request_id(), is_default=True,
        address=pb.Address(line1="1 Jalan Home", city="Petaling Jaya", country_code="MY")), metadata=customer.md(), timeout=TIMEOUT)
    api.carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=shop_id, request_id=request_id(), item_id=wine.id, quantity=1),
                          metadata=customer.md(), timeout=TIMEOUT)
    order = api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=shop_id, request_id=request_id(), address=pb.AddressChoice(saved_address_id=home.id),
        payment=pb.PaymentMethodInput(card_token="tok_visa")), metadata=customer.md(), timeout=TIMEOUT)
    assert order.address.line1 == "1 Jalan Home"


def test_any_customer_describes_a_restaurant_and_asks_for_the_provider_role(api, dineswift):
    customer = sign_up(api, dineswift["id"])
    assert Role.ROLE_PROVIDER not in [grant.role for grant in customer.signup.account.roles]
    created = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=dineswift["id"], request_id=request_id(), restaurant=restaurant_input("Home Kitchen", a_point())),
        metadata=customer.md(), timeout=TIMEOUT)
    assert created.approval_state == Approval.RESTAURANT_APPROVAL_STATE_PENDING
    assert role_status(customer.me(), Role.ROLE_PROVIDER) == RoleStatus.ROLE_STATUS_PENDING
    approved = api.catalog.ApproveRestaurant(pb.ApproveRestaurantRequest(marketplace_id=dineswift["id"], restaurant_id=created.id),
                                             metadata=dineswift["admin"].md(), timeout=TIMEOUT)
    assert approved.approval_state == Approval.RESTAURANT_APPROVAL_STATE_APPROVED
    assert role_status(customer.me(), Role.ROLE_PROVIDER) == RoleStatus.ROLE_STATUS_ACTIVE


# ---- Item 8: each refusal a client handles differently has its own reason ----

def test_refusals_have_their_own_reasons(api, aqua, dineswift):
    admin = aqua["admin"]
    service = a_service(api, aqua, uuid.uuid4().hex[:6])
    archived = api.catalog.ArchiveService(pb.ArchiveServiceRequest(marketplace_id=aqua["id"], service_id=service.id),
                                          metadata=admin.md(), timeout=TIMEOUT)
    refused(lambda: api.catalog.UpdateService(pb.UpdateServiceRequest(
        marketplace_id=aqua["id"], service=pb.Service(id=service.id, available=False), update_mask=FieldMask(paths=["available"]),
        expected_version=archived.version), metadata=admin.md(), timeout=TIMEOUT),
        Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_ARCHIVED)

    owner = sign_up(api, dineswift["id"], requested_roles=[Role.ROLE_PROVIDER])
    pending = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=dineswift["id"], request_id=request_id(), restaurant=restaurant_input("Not Yet", a_point())),
        metadata=owner.md(), timeout=TIMEOUT)
    refused(lambda: api.catalog.UpdateRestaurant(pb.UpdateRestaurantRequest(
        marketplace_id=dineswift["id"], restaurant=pb.Restaurant(id=pending.id, open=True), update_mask=FieldMask(paths=["open"])),
        metadata=owner.md(), timeout=TIMEOUT), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_RESTAURANT_NOT_APPROVED)

    safi = next(s for s in api.catalog.ListServices(pb.ListServicesRequest(marketplace_id=aqua["id"], query="safi"),
                                                    timeout=TIMEOUT).services if s.name == "Safi Water")
    paid = water_order(api, aqua, safi, pb.PaymentMethodInput(apple_pay_token="applepay_reasons_0123456789"), option_code="1-bottle")
    refused(lambda: api.payments.MarkCashCollected(pb.MarkCashCollectedRequest(marketplace_id=aqua["id"], payment_id=paid.payment_id),
                                                   metadata=admin.md(), timeout=TIMEOUT),
            Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_NOT_CASH_PAYMENT)
    cash = water_order(api, aqua, safi, option_code="6-pack")
    refused(lambda: api.payments.MarkCashCollected(pb.MarkCashCollectedRequest(marketplace_id=aqua["id"], payment_id=cash.payment_id),
                                                   metadata=admin.md(), timeout=TIMEOUT),
            Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_ORDER_NOT_DELIVERED)
    refused(lambda: api.payments.ConfirmCashPayment(pb.ConfirmCashPaymentRequest(marketplace_id=aqua["id"], payment_id=cash.payment_id),
                                                    metadata=admin.md(), timeout=TIMEOUT),
            Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_CASH_NOT_COLLECTED)

    # ---- Item 16: a status filter takes several values ----
    customer = aqua["customer"]
    both = api.payments.ListPayments(pb.ListPaymentsRequest(
        marketplace_id=aqua["id"], payer_account_id=customer.account_id, page_size=100,
        statuses=[PaymentStatus.PAYMENT_STATUS_SUCCESSFUL, PaymentStatus.PAYMENT_STATUS_PENDING]),
        metadata=admin.md(), timeout=TIMEOUT).payments
    assert {paid.payment_id, cash.payment_id} <= {p.id for p in both}
    pending_only = api.payments.ListPayments(pb.ListPaymentsRequest(
        marketplace_id=aqua["id"], page_size=100, statuses=[PaymentStatus.PAYMENT_STATUS_PENDING]),
        metadata=admin.md(), timeout=TIMEOUT).payments
    assert cash.payment_id in {p.id for p in pending_only} and paid.payment_id not in {p.id for p in pending_only}


def test_every_bad_field_of_a_cart_line_or_a_list_is_named_at_once(api, aqua, identity_server):
    shop_id = identity_server.marketplace_id("Chateau Du Nox")
    customer = sign_up(api, shop_id)
    error = refused(lambda: api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=shop_id, request_id=request_id(), item_id="not-an-id", quantity=0, note="n" * 501),
        metadata=customer.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"item_id", "quantity", "note"}
    error = refused(lambda: api.catalog.ListProducts(pb.ListProductsRequest(
        marketplace_id=shop_id, order_by="vintage", filter=pb.ProductFilter(
            min_price=pb.Money(amount_minor=-1, currency_code="MYR"), min_expert_rating=9)), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"filter.min_price", "filter.min_expert_rating", "order_by"}
    error = refused(lambda: api.catalog.ListServices(pb.ListServicesRequest(
        marketplace_id=aqua["id"], min_rating=9, order_by="size", max_price=sar(-5)), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"max_price", "min_rating", "order_by"}


def test_every_bad_field_of_a_search_or_a_report_is_named_at_once(api, dineswift):
    error = refused(lambda: api.catalog.SearchRestaurants(pb.SearchRestaurantsRequest(
        marketplace_id=dineswift["id"], query=" ", near=pb.GeoPoint(latitude=100, longitude=35.5), radius_meters=-1),
        timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"query", "near.latitude", "radius_meters"}
    error = refused(lambda: api.catalog.SearchMenuItems(pb.SearchMenuItemsRequest(marketplace_id=dineswift["id"]), timeout=TIMEOUT),
                    Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"query", "near"}
    future = pb.ListRestaurantReportsRequest(marketplace_id=dineswift["id"])
    future.end_time.FromSeconds(4102444800)
    error = refused(lambda: Stub(api.channel, "souk.v1.Reports").ListRestaurantReports(
        future, metadata=dineswift["admin"].md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"end_time", "period"}


def test_every_bad_field_of_a_reschedule_or_a_payment_is_named_at_once(api, aqua):
    customer = aqua["customer"]
    safi = next(s for s in api.catalog.ListServices(pb.ListServicesRequest(marketplace_id=aqua["id"], query="safi"),
                                                    timeout=TIMEOUT).services if s.name == "Safi Water")
    order = water_order(api, aqua, safi, option_code="6-pack")
    error = refused(lambda: api.orders.RescheduleOrder(pb.RescheduleOrderRequest(
        marketplace_id=aqua["id"], order_id=order.id, reason="r" * 1001), metadata=customer.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"scheduled_window", "reason"}
    error = refused(lambda: api.payments.CreatePayment(pb.CreatePaymentRequest(marketplace_id=aqua["id"]),
                                                       metadata=customer.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT)
    assert named_fields(error) == {"request_id", "target", "method"}


def test_admins_list_restaurants_in_several_approval_states(api, dineswift):
    admin = dineswift["admin"]
    waiting = sign_up(api, dineswift["id"], requested_roles=[Role.ROLE_PROVIDER])
    pending = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=dineswift["id"], request_id=request_id(), restaurant=restaurant_input("States Pending", a_point())),
        metadata=waiting.md(), timeout=TIMEOUT)
    refused_owner = sign_up(api, dineswift["id"], requested_roles=[Role.ROLE_PROVIDER])
    rejected = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=dineswift["id"], request_id=request_id(), restaurant=restaurant_input("States Rejected", a_point())),
        metadata=refused_owner.md(), timeout=TIMEOUT)
    api.catalog.RejectRestaurant(pb.RejectRestaurantRequest(marketplace_id=dineswift["id"], restaurant_id=rejected.id,
                                                            reason="No kitchen licence"), metadata=admin.md(), timeout=TIMEOUT)
    both = api.catalog.ListRestaurants(pb.ListRestaurantsRequest(
        marketplace_id=dineswift["id"], page_size=100,
        approval_states=[Approval.RESTAURANT_APPROVAL_STATE_PENDING, Approval.RESTAURANT_APPROVAL_STATE_REJECTED]),
        metadata=admin.md(), timeout=TIMEOUT).restaurants
    states = {r.restaurant.id: r.restaurant.approval_state for r in both}
    assert states[pending.id] == Approval.RESTAURANT_APPROVAL_STATE_PENDING
    assert states[rejected.id] == Approval.RESTAURANT_APPROVAL_STATE_REJECTED
    assert Approval.RESTAURANT_APPROVAL_STATE_APPROVED not in states.values()


def test_a_cart_line_is_named_by_exactly_one_of_its_id_or_its_product(api, identity_server):
    shop_id = identity_server.marketplace_id("Chateau Du Nox")
    staff = login_party(api, identity_server.demo_login("Chateau Du Nox", "provider"))
    wine = api.catalog.CreateProduct(pb.CreateProductRequest(marketplace_id=shop_id, request_id=request_id(), product=pb.Product(
        name="Oneof Grenache", price=pb.Money(amount_minor=4000, currency_code="MYR"), stock=10, available=True)),
        metadata=staff.md(), timeout=TIMEOUT)
    customer = sign_up(api, shop_id)
    cart = api.carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=shop_id, request_id=request_id(), item_id=wine.id, quantity=1),
                                 metadata=customer.md(), timeout=TIMEOUT)
    request = pb.UpdateCartLineRequest(marketplace_id=shop_id, line_id="ignored", item_id=wine.id, quantity=2)
    assert request.WhichOneof("line") == "item_id"
    cart = api.carts.UpdateCartLine(request, metadata=customer.md(), timeout=TIMEOUT)
    assert [line.quantity for line in cart.lines] == [2]
    cart = api.carts.RemoveCartLine(pb.RemoveCartLineRequest(marketplace_id=shop_id, line_id=cart.lines[0].line_id),
                                    metadata=customer.md(), timeout=TIMEOUT)
    assert list(cart.lines) == []
