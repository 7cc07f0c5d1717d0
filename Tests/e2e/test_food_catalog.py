"""DineSwift's catalog end to end through grpcio: a restaurant account signs up and describes its
restaurant while its provider role is pending; the admin lists what awaits approval, sees the
details and approves the account and the restaurant together; the restaurant builds a menu with a
size option and opens; a guest finds it near a point and finds its pizza by name; a customer adds
a pizza with a size and a note and gets the totals; an item of a second restaurant is refused
naming the first; another marketplace's customer sees none of it."""
import threading
import uuid

import grpc
import pytest

from souk_food import a_point, approved_open_restaurant, pizza_input, restaurant_input, usd
from souk_identity import TIMEOUT, Api, FieldMask, Reason, Role, RoleStatus, create_marketplace, login_party, operator_party, pb, \
    refused, request_id, role_status, sign_up
from souk_protos import Stub, enum

Code = grpc.StatusCode
Approval = enum("souk.v1.RestaurantApprovalState")
FeeKind = enum("souk.v1.FeeKind")
MARKETPLACE = "DineSwift"


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.carts = Stub(identity_channel, "souk.v1.Carts")
    return api


@pytest.fixture(scope="module")
def dineswift(api, identity_server):
    marketplace_id = identity_server.marketplace_id(MARKETPLACE)
    return {
        "id": marketplace_id,
        "admin": login_party(api, identity_server.demo_login(MARKETPLACE, "admin")),
        "operator": operator_party(api, identity_server),
    }


def test_a_restaurant_from_sign_up_to_a_customer_cart(api, dineswift):
    market_id, admin = dineswift["id"], dineswift["admin"]
    tag = uuid.uuid4().hex[:6]
    point = a_point()

    # The restaurant account signs up; its provider role waits for approval.
    owner = sign_up(api, market_id, requested_roles=[Role.ROLE_PROVIDER])
    assert role_status(owner.signup.account, Role.ROLE_PROVIDER) == RoleStatus.ROLE_STATUS_PENDING
    created = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=market_id, request_id=request_id(), restaurant=restaurant_input(f"Cedar Oven {tag}", point)),
        metadata=owner.md(), timeout=TIMEOUT)
    assert created.approval_state == Approval.RESTAURANT_APPROVAL_STATE_PENDING and not created.open
    assert created.commission_bps == 1500
    refused(lambda: api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id),
                                              timeout=TIMEOUT), Code.NOT_FOUND)

    # The admin sees what awaits approval, with the details, and approves both at once.
    pending = api.catalog.ListRestaurants(pb.ListRestaurantsRequest(
        marketplace_id=market_id, approval_states=[Approval.RESTAURANT_APPROVAL_STATE_PENDING], page_size=100),
        metadata=admin.md(), timeout=TIMEOUT)
    mine = [r.restaurant for r in pending.restaurants if r.restaurant.id == created.id]
    assert len(mine) == 1 and mine[0].description == f"Cedar Oven {tag}: wood-fired pizza"
    assert mine[0].owner_account_id == owner.account_id and mine[0].address.location.latitude == point.latitude
    refused(lambda: api.accounts.ApproveRole(pb.ApproveRoleRequest(
        marketplace_id=market_id, account_id=owner.account_id, role=Role.ROLE_PROVIDER), metadata=admin.md(), timeout=TIMEOUT),
        Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_INVALID_TRANSITION)
    approved = api.catalog.ApproveRestaurant(pb.ApproveRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id),
                                             metadata=admin.md(), timeout=TIMEOUT)
    assert approved.approval_state == Approval.RESTAURANT_APPROVAL_STATE_APPROVED
    assert role_status(owner.me(), Role.ROLE_PROVIDER) == RoleStatus.ROLE_STATUS_ACTIVE

    # The restaurant builds its menu and opens.
    pizza = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market_id, request_id=request_id(), menu_item=pizza_input(created.id, f"Margherita {tag}")),
        metadata=owner.md(), timeout=TIMEOUT)
    assert pizza.effective_price.amount_minor == 900
    bad = pizza_input(created.id, "Broken")
    bad.option_groups[0].min_choices = 0
    refused(lambda: api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market_id, request_id=request_id(), menu_item=bad), metadata=owner.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="menu_item.option_groups[0].min_choices")
    api.catalog.UpdateRestaurant(pb.UpdateRestaurantRequest(
        marketplace_id=market_id, restaurant=pb.Restaurant(id=created.id, open=True), update_mask=FieldMask(paths=["open"])),
        metadata=owner.md(), timeout=TIMEOUT)

    # A guest finds it near the point, and its pizza by name.
    near = api.catalog.ListRestaurants(pb.ListRestaurantsRequest(
        marketplace_id=market_id, near=point, radius_meters=500, open_only=True), timeout=TIMEOUT)
    assert [r.restaurant.id for r in near.restaurants] == [created.id] and near.restaurants[0].distance_meters == 0
    found = api.catalog.SearchRestaurants(pb.SearchRestaurantsRequest(marketplace_id=market_id, query=f"cedar {tag}"), timeout=TIMEOUT)
    assert [r.restaurant.id for r in found.restaurants] == [created.id]
    items = api.catalog.SearchMenuItems(pb.SearchMenuItemsRequest(
        marketplace_id=market_id, query=f"margherita {tag}", near=point, radius_meters=1000), timeout=TIMEOUT)
    assert [(r.menu_item.id, r.restaurant_name) for r in items.results] == [(pizza.id, f"Cedar Oven {tag}")]

    # A customer adds a large pizza with a note; the server prices it.
    customer = sign_up(api, market_id, given_name="Rami")
    cart = api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market_id, request_id=request_id(), item_id=pizza.id, quantity=2,
        options=[pb.CartLineOption(group_id="size", choice_id="large")], note="Cut in eight, please"),
        metadata=customer.md(), timeout=TIMEOUT)
    line = cart.lines[0]
    assert cart.restaurant_id == created.id and cart.purchasable
    assert [o.choice_name for o in line.options] == ["Large"] and line.note == "Cut in eight, please"
    assert line.unit_price.amount_minor == 1300 and line.line_total.amount_minor == 2600
    assert cart.price.subtotal.amount_minor == 2600
    assert [(f.kind, f.amount.amount_minor) for f in cart.price.fees] == [(FeeKind.FEE_KIND_DELIVERY, 300)]
    assert cart.price.total.amount_minor == 2900
    refused(lambda: api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market_id, request_id=request_id(), item_id=pizza.id, quantity=1), metadata=customer.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="options")

    # An item of a second restaurant is refused, naming the first.
    other, other_owner = approved_open_restaurant(api, dineswift, f"Byblos Grill {tag}", a_point())
    kebab = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market_id, request_id=request_id(),
        menu_item=pb.MenuItem(restaurant_id=other.id, name="Kebab", price=usd(800), available=True)),
        metadata=other_owner.md(), timeout=TIMEOUT)
    error = refused(lambda: api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=market_id, request_id=request_id(), item_id=kebab.id, quantity=1), metadata=customer.md(), timeout=TIMEOUT),
        Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_CART_OTHER_RESTAURANT)
    assert f"Cedar Oven {tag}" in error.details()

    # Another marketplace's customer sees nothing of it.
    copy = create_marketplace(api, dineswift["operator"], market_id)
    stranger = sign_up(api, copy.id)
    nearby = api.catalog.ListRestaurants(pb.ListRestaurantsRequest(marketplace_id=copy.id, near=point, radius_meters=50000),
                                         metadata=stranger.md(), timeout=TIMEOUT)
    assert list(nearby.restaurants) == []
    refused(lambda: api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=copy.id, restaurant_id=created.id),
                                              metadata=stranger.md(), timeout=TIMEOUT), Code.NOT_FOUND)
    refused(lambda: api.catalog.GetMenuItem(pb.GetMenuItemRequest(marketplace_id=copy.id, menu_item_id=pizza.id),
                                            metadata=stranger.md(), timeout=TIMEOUT), Code.NOT_FOUND)
    refused(lambda: api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=copy.id, request_id=request_id(), item_id=pizza.id, quantity=1,
        options=[pb.CartLineOption(group_id="size", choice_id="small")]), metadata=stranger.md(), timeout=TIMEOUT), Code.NOT_FOUND)
    refused(lambda: api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id),
                                              metadata=stranger.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)


def test_the_demo_restaurants_are_found_near_hamra(api, dineswift):
    hamra = pb.GeoPoint(latitude=33.8960, longitude=35.4830)
    near = api.catalog.ListRestaurants(pb.ListRestaurantsRequest(marketplace_id=dineswift["id"], near=hamra, radius_meters=5000),
                                       timeout=TIMEOUT)
    names = [r.restaurant.name for r in near.restaurants]
    assert names[:1] == ["Pizza Roma"] and {"Zaatar Corner", "Gemmayzeh Burger Co."} <= set(names)
    roma = near.restaurants[0].restaurant
    menu = api.catalog.ListMenuItems(pb.ListMenuItemsRequest(marketplace_id=dineswift["id"], restaurant_id=roma.id), timeout=TIMEOUT)
    margherita = next(i for i in menu.menu_items if i.name == "Margherita Pizza")
    size = next(g for g in margherita.option_groups if g.name == "Size")
    assert size.required and size.min_choices == 1 and [c.name for c in size.choices][0] == "Small (25 cm)"
    assert [i.section for i in menu.menu_items] == sorted((i.section for i in menu.menu_items), key=str.lower)


def test_racing_decisions_on_one_restaurant_have_one_winner(api, dineswift):
    market_id, admin, operator = dineswift["id"], dineswift["admin"], dineswift["operator"]
    owner = sign_up(api, market_id, requested_roles=[Role.ROLE_PROVIDER])
    created = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=market_id, request_id=request_id(), restaurant=restaurant_input(f"Race {uuid.uuid4().hex[:6]}", a_point())),
        metadata=owner.md(), timeout=TIMEOUT)
    calls = [
        lambda: api.catalog.ApproveRestaurant(pb.ApproveRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id),
                                              metadata=admin.md(), timeout=TIMEOUT),
        lambda: api.catalog.RejectRestaurant(pb.RejectRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id,
                                                                        reason="Duplicate"), metadata=operator.md(), timeout=TIMEOUT),
    ] * 4
    outcomes = []
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        try:
            outcomes.append(call().approval_state)
        except grpc.RpcError as error:
            outcomes.append(error.code())

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if not isinstance(o, grpc.StatusCode)]
    assert len(winners) == 1 and all(o == Code.FAILED_PRECONDITION for o in outcomes if o not in winners), outcomes
    decided = api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=market_id, restaurant_id=created.id),
                                        metadata=admin.md(), timeout=TIMEOUT)
    role = role_status(owner.me(), Role.ROLE_PROVIDER)
    assert (decided.approval_state, role) in (
        (Approval.RESTAURANT_APPROVAL_STATE_APPROVED, RoleStatus.ROLE_STATUS_ACTIVE),
        (Approval.RESTAURANT_APPROVAL_STATE_REJECTED, RoleStatus.ROLE_STATUS_REJECTED))
