"""MARA (long-term rentals in Ho Chi Minh City and Binh Duong, VND): a guest searches the
cheapest listings in Vietnamese; the demo lessee asks for a 12-month lease on one of a demo
lessor's apartments; the lessor confirms; the lessee pays the deposit bill by card.

    python examples/mara.py --target localhost:50051     # against souk-server --demo
"""
import argparse
import datetime

from souk_client import Session, pb, request_id
from souk_client.format import enum_value, money, run

MARKETPLACE = "MARA"
LESSORS = (("lessor@mara.example", "MARA-provider-2026"), ("hoa.lessor@mara.example", "MARA-hoa-2026"),
           ("duc.lessor@mara.example", "MARA-duc-2026"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="localhost:50051", help="host:port of souk-server --demo")
    target = parser.parse_args().target

    with Session.guest(target, MARKETPLACE, language="vi") as guest:
        found = [r.listing for r in guest.rentals.SearchListings(pb.SearchListingsRequest(
            order_by="monthly_rent", page_size=50)).listings]
        print(f"{MARKETPLACE}: the cheapest listings")
        for listing in found[:5]:
            print(f"  {listing.title:45} {listing.district:12} {money(listing.monthly_rent):>14}/month")

    lessee = Session.sign_in(target, MARKETPLACE, "lessee@mara.example", "MARA-customer-2026")
    lessors = {s.account_id: s for s in (Session.sign_in(target, MARKETPLACE, email, password) for email, password in LESSORS)}
    print(f"signed in: {lessee.account.given_name} {lessee.account.family_name} (lessee)")
    listing = next(listing for listing in found if listing.owner_account_id in lessors)
    lessor = lessors[listing.owner_account_id]

    start = (datetime.date.today().replace(day=1) + datetime.timedelta(days=32)).replace(day=1)
    booking = lessee.rentals.RequestBooking(pb.RequestBookingRequest(
        request_id=request_id(), listing_id=listing.id, months=12,
        start_date=pb.Date(year=start.year, month=start.month, day=start.day), message="Cho tôi thuê 1 năm"))
    print(f"lease requested: {listing.title}, 12 months from {start}, deposit {money(booking.deposit)}, "
          f"{enum_value(pb.BookingStatus, booking.status)}")
    booking = lessor.rentals.ConfirmBooking(pb.ConfirmBookingRequest(booking_id=booking.id))
    print(f"  {lessor.account.given_name} {lessor.account.family_name}: {enum_value(pb.BookingStatus, booking.status)}")
    deposit = lessee.rentals.GetBill(pb.GetBillRequest(bill_id=booking.deposit_bill_id))
    payment = lessee.payments.CreatePayment(pb.CreatePaymentRequest(
        request_id=request_id(), bill_id=deposit.id, method=pb.PaymentMethodInput(card_token="tok_visa")))
    print(f"deposit paid: {money(payment.amount)}; the lessor gets {money(payment.split.payee_share)}")
    booking = lessee.rentals.GetBooking(pb.GetBookingRequest(booking_id=booking.id))
    print(f"lease {enum_value(pb.BookingStatus, booking.status)}")
    for session in (lessee, *lessors.values()):
        session.close()


if __name__ == "__main__":
    run(main)
