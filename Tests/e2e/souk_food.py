"""DineSwift's restaurants and menus as the e2e tests build them through the contract."""
import random

from souk_identity import TIMEOUT, FieldMask, Role, pb, request_id, sign_up


def usd(cents):
    return pb.Money(amount_minor=cents, currency_code="USD")


def a_point():
    """A point of its own north of Beirut, so other restaurants do not interfere: spread over about
    55 x 60 km, so two tests' points fall within a search's 500 m about once in 4,000 pairs (a
    strip 1 km wide made that once in 60)."""
    return pb.GeoPoint(latitude=34.0 + random.uniform(0, 0.5), longitude=35.64 + random.uniform(0, 0.65))


def restaurant_input(name, point, categories=("pizza",)):
    return pb.Restaurant(name=name, description=f"{name}: wood-fired pizza",
                         address=pb.Address(line1="Coast Road 1", city="Jounieh", country_code="LB", location=point),
                         categories=list(categories))


def approved_open_restaurant(api, market, name, point):
    owner = sign_up(api, market["id"], requested_roles=[Role.ROLE_PROVIDER])
    created = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=market["id"], request_id=request_id(), restaurant=restaurant_input(name, point)), metadata=owner.md(), timeout=TIMEOUT)
    api.catalog.ApproveRestaurant(pb.ApproveRestaurantRequest(marketplace_id=market["id"], restaurant_id=created.id),
                                  metadata=market["admin"].md(), timeout=TIMEOUT)
    opened = api.catalog.UpdateRestaurant(pb.UpdateRestaurantRequest(
        marketplace_id=market["id"], restaurant=pb.Restaurant(id=created.id, open=True), update_mask=FieldMask(paths=["open"])),
        metadata=owner.md(), timeout=TIMEOUT)
    return opened, owner


def pizza_input(restaurant_id, name):
    return pb.MenuItem(
        restaurant_id=restaurant_id, name=name, section="Pizza", price=usd(1000), discount_bps=1000, available=True,
        option_groups=[
            pb.MenuOptionGroup(id="size", name="Size", required=True, min_choices=1, max_choices=1, choices=[
                pb.MenuOptionChoice(id="small", name="Small", price=usd(0)),
                pb.MenuOptionChoice(id="large", name="Large", price=usd(400))]),
            pb.MenuOptionGroup(id="extras", name="Extras", min_choices=0, max_choices=2, choices=[
                pb.MenuOptionChoice(id="cheese", name="Extra cheese", price=usd(150)),
                pb.MenuOptionChoice(id="olives", name="Olives", price=usd(75))]),
        ])
