"""Aqua Hub (water services in Arar, SAR): a guest browses the services in Arabic, the demo
customer books a 12-pack of Safi Water for tomorrow's first free window, paid in cash; the admin
assigns the demo courier, who delivers; the admin records the cash.

    python examples/aqua_hub.py --target localhost:50051     # against souk-server --demo
"""
import argparse
import datetime

from souk_client import Session, pb, request_id
from souk_client.format import enum_value, money, run, when

MARKETPLACE = "Aqua Hub"
RIYADH = datetime.timezone(datetime.timedelta(hours=3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="localhost:50051", help="host:port of souk-server --demo")
    target = parser.parse_args().target

    with Session.guest(target, MARKETPLACE, language="ar") as guest:
        services = guest.catalog.ListServices(pb.ListServicesRequest()).services
        print(f"{MARKETPLACE}: {len(services)} services")
        for service in services:
            print(f"  {service.localized.name} / {service.name}")

    customer = Session.sign_in(target, MARKETPLACE, "customer@aquahub.example", "AquaHub-customer-2026")
    admin = Session.sign_in(target, MARKETPLACE, "admin@aquahub.example", "AquaHub-admin-2026")
    courier = Session.sign_in(target, MARKETPLACE, "courier@aquahub.example", "AquaHub-courier-2026")
    print(f"signed in: {customer.account.given_name} (customer), {admin.account.given_name} (admin), "
          f"{courier.account.given_name} (courier)")

    water = next(s for s in customer.catalog.ListServices(pb.ListServicesRequest()).services if s.name == "Safi Water")
    twelve = water.options[-1]
    # Tomorrow's windows, or the next day with a free one.
    for days in range(1, 8):
        day = datetime.datetime.now(RIYADH).date() + datetime.timedelta(days=days)
        windows = customer.orders.ListServiceWindows(pb.ListServiceWindowsRequest(
            date=pb.Date(year=day.year, month=day.month, day=day.day))).windows
        free = [w for w in windows if w.available]
        if free:
            break
    else:
        raise SystemExit("no free window in the coming week")
    window = free[0].window
    order = customer.orders.PlaceServiceOrder(pb.PlaceServiceOrderRequest(
        request_id=request_id(), service_id=water.id, option_id=twelve.id, quantity=2, scheduled_window=window,
        address=pb.AddressChoice(address=pb.Address(
            line1="King Abdulaziz Road 7", city="Arar", country_code="SA", phone="+966512345699")),
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())))
    print(f"order {order.order_number}: 2 x {water.name} ({twelve.name}) for {when(window.start_time, RIYADH)}, "
          f"{money(order.price.total)}, {enum_value(pb.OrderStatus, order.status)}")

    delivery = admin.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
        request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id))
    print(f"delivery assigned to {courier.account.given_name}: {enum_value(pb.DeliveryStatus, delivery.status)}")
    for step in ("StartDelivery", "CompleteDelivery"):
        request = getattr(pb, f"{step}Request")(delivery_id=delivery.id)
        delivery = getattr(courier.deliveries, step)(request)
        print(f"  {step}: {enum_value(pb.DeliveryStatus, delivery.status)}")
    payment = admin.payments.ConfirmCashPayment(pb.ConfirmCashPaymentRequest(payment_id=order.payment_id))
    print(f"cash collected: {money(payment.amount)}, {enum_value(pb.PaymentStatus, payment.status)}")
    order = customer.orders.GetOrder(pb.GetOrderRequest(order_id=order.id))
    print(f"order {order.order_number}: {enum_value(pb.OrderStatus, order.status)}")
    for session in (customer, admin, courier):
        session.close()


if __name__ == "__main__":
    run(main)
