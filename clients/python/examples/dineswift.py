"""DineSwift (restaurant delivery in Beirut, USD, cash on delivery): a guest finds the open
restaurants near Hamra Street; the demo customer orders a pizza with its required size to an
address nearby; the restaurant (the demo provider's Pizza Roma) accepts it.

    python examples/dineswift.py --target localhost:50051     # against souk-server --demo
"""
import argparse

from souk_client import Session, pb, request_id
from souk_client.format import enum_value, money, run

MARKETPLACE = "DineSwift"
HAMRA = pb.GeoPoint(latitude=33.8966, longitude=35.4823)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="localhost:50051", help="host:port of souk-server --demo")
    target = parser.parse_args().target

    with Session.guest(target, MARKETPLACE) as guest:
        nearby = guest.catalog.ListRestaurants(pb.ListRestaurantsRequest(near=HAMRA, radius_meters=5000, open_only=True)).restaurants
        print(f"{MARKETPLACE}: open restaurants within 5 km of Hamra Street")
        for result in nearby:
            restaurant = result.restaurant
            print(f"  {restaurant.name:24} {restaurant.address.line1}, {restaurant.address.line2:12} "
                  f"{result.distance_meters / 1000:4.1f} km")
        roma = next(r.restaurant for r in nearby if r.restaurant.name == "Pizza Roma")
        menu = guest.catalog.ListMenuItems(pb.ListMenuItemsRequest(restaurant_id=roma.id)).menu_items
        print(f"{roma.name}'s menu:")
        for item in menu:
            print(f"  {item.name:30} {money(item.price):>10}")

    customer = Session.sign_in(target, MARKETPLACE, "customer@dineswift.example", "DineSwift-customer-2026")
    kitchen = Session.sign_in(target, MARKETPLACE, "restaurant@dineswift.example", "DineSwift-provider-2026")
    print(f"signed in: {customer.account.given_name} (customer), {kitchen.account.given_name} ({roma.name})")

    pizza = next(item for item in menu if any(group.required for group in item.option_groups))
    # The first choice of every required group (the smallest size).
    chosen = [(group, group.choices[0]) for group in pizza.option_groups if group.required]
    options = [pb.CartLineOption(group_id=group.id, choice_id=choice.id) for group, choice in chosen]
    customer.carts.ClearCart(pb.ClearCartRequest())
    cart = customer.carts.AddCartLine(pb.AddCartLineRequest(
        request_id=request_id(), item_id=pizza.id, quantity=1, options=options, note="No onions, please"))
    print(f"cart: 1 x {pizza.name} ({', '.join(choice.name for _, choice in chosen)}), total {money(cart.price.total)}")
    home = pb.Address(recipient_name="Rami", phone="+9613555123", line1="Rue Bliss 20", city="Beirut", country_code="LB",
                      location=pb.GeoPoint(latitude=HAMRA.latitude + 0.004, longitude=HAMRA.longitude))
    order = customer.orders.Checkout(pb.CheckoutRequest(
        request_id=request_id(), address=pb.AddressChoice(address=home), address_confirmed=True,
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())))
    print(f"order {order.order_number}: {money(order.price.total)} in cash, {enum_value(pb.OrderStatus, order.status)}")
    order = kitchen.orders.AcceptOrder(pb.AcceptOrderRequest(order_id=order.id))
    print(f"  {roma.name}: {enum_value(pb.OrderStatus, order.status)}")
    for session in (customer, kitchen):
        session.close()


if __name__ == "__main__":
    run(main)
