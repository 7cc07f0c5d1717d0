"""Chateau Du Nox (a wine shop in Kuala Lumpur, MYR): a guest lists the cheapest wines and searches
the cellar; the demo customer buys two wines with a test card; the shop ships and
delivers; the customer confirms receipt.

    python examples/chateau_du_nox.py --target localhost:50051     # against souk-server --demo
"""
import argparse

from souk_client import Session, pb, request_id
from souk_client.format import enum_value, money, run

MARKETPLACE = "Chateau Du Nox"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="localhost:50051", help="host:port of souk-server --demo")
    target = parser.parse_args().target

    with Session.guest(target, MARKETPLACE) as guest:
        wines = guest.catalog.ListProducts(pb.ListProductsRequest(order_by="price", page_size=5)).products
        print(f"{MARKETPLACE}: the five cheapest wines")
        for wine in wines:
            print(f"  {wine.name:36} {enum_value(pb.ProductCategory, wine.category):10} {money(wine.price):>12}"
                  f"  {wine.stock} in stock")
        found = guest.catalog.SearchProducts(pb.SearchProductsRequest(query="chateau")).products
        print(f"search 'chateau': {', '.join(w.name for w in found)}")

    customer = Session.sign_in(target, MARKETPLACE, "customer@chateaudunox.example", "Chateau-customer-2026")
    staff = Session.sign_in(target, MARKETPLACE, "sommelier@chateaudunox.example", "Chateau-provider-2026")
    print(f"signed in: {customer.account.given_name} (customer), {staff.account.given_name} (staff)")

    customer.carts.ClearCart(pb.ClearCartRequest())
    for wine, quantity in ((wines[0], 2), (wines[1], 1)):
        cart = customer.carts.AddCartLine(pb.AddCartLineRequest(request_id=request_id(), item_id=wine.id, quantity=quantity))
    print("cart:")
    for line in cart.lines:
        print(f"  {line.quantity} x {line.name:36} {money(line.line_total):>12}")
    print(f"  subtotal {money(cart.price.subtotal)}, tax {money(cart.price.tax)}, "
          f"shipping {money(cart.price.fees[0].amount)}, total {money(cart.price.total)}")

    order = customer.orders.Checkout(pb.CheckoutRequest(
        request_id=request_id(), address_confirmed=True,
        address=pb.AddressChoice(address=pb.Address(recipient_name="Aisyah", line1="12 Jalan Ampang", city="Kuala Lumpur",
                                                    country_code="MY")),
        payment=pb.PaymentMethodInput(card_token="tok_visa")))
    print(f"order {order.order_number}: {money(order.price.total)}, payment "
          f"{enum_value(pb.PaymentStatus, order.payment_status)}, {enum_value(pb.OrderStatus, order.status)}")
    order = staff.orders.ShipOrder(pb.ShipOrderRequest(order_id=order.id, shipping_carrier="Pos Laju",
                                                       tracking_number="EP123456789MY"))
    print(f"  shipped with {order.shipping_carrier}, tracking {order.tracking_number}")
    order = staff.orders.DeliverOrder(pb.DeliverOrderRequest(order_id=order.id))
    print(f"  {enum_value(pb.OrderStatus, order.status)}")
    order = customer.orders.ConfirmOrderReceived(pb.ConfirmOrderReceivedRequest(order_id=order.id))
    print(f"  {enum_value(pb.OrderStatus, order.status)} (confirmed by the customer)")
    for session in (customer, staff):
        session.close()


if __name__ == "__main__":
    run(main)
