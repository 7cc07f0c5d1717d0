"""MARA leases through a real server (--demo), as a new user meets them: a lessor lists an
apartment in Quận 1 with photos; a lessee asks for 12 months (5 are refused), is confirmed, pays
the deposit and two monthly bills with utilities through Payments.CreatePayment, each split three
ways exactly to the dong; the lessor sees the income; two confirmations race for one listing
from threads; the lease ends and the deposit comes back in part, with a reason. Every refusal is
checked for its status, reason and field."""
import datetime
import threading

import grpc
import pytest

from souk_identity import TIMEOUT, Api, Reason, Role, pb, refused, request_id, sign_up, unique_email
from souk_protos import Stub, enum, error_reason
# The listings' module fixtures (the demo MARA marketplace, its admin, its regions) and helpers.
from test_rentals_listings import admin, apartment, create, hcmc, mara, regions, upload_photo  # noqa: F401

Code = grpc.StatusCode
BookingStatus = enum("souk.v1.BookingStatus")
BillStatus = enum("souk.v1.BillStatus")
BillKind = enum("souk.v1.BillKind")
Utility = enum("souk.v1.UtilityKind")
ListingStatus = enum("souk.v1.ListingStatus")


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.rentals = Stub(identity_channel, "souk.v1.Rentals")
    api.media = Stub(identity_channel, "souk.v1.Media")
    api.payments = Stub(identity_channel, "souk.v1.Payments")
    api.marketplaces = Stub(identity_channel, "souk.v1.Marketplaces")
    api.feedback = Stub(identity_channel, "souk.v1.Feedback")
    api.notifications = Stub(identity_channel, "souk.v1.Notifications")
    return api


@pytest.fixture(scope="module")
def fees(api, mara):
    """The marketplace's provider and platform fees, basis points."""
    settings = api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=mara), timeout=TIMEOUT).settings.rentals
    assert settings.payment_provider_fee_bps > 0 and settings.platform_fee_bps > 0
    return settings.payment_provider_fee_bps, settings.platform_fee_bps


@pytest.fixture(scope="module")
def lessor(api, mara, admin):
    party = sign_up(api, mara, email=unique_email("lessor"), given_name="Lê", family_name="Hoa",
                    requested_roles=[Role.ROLE_PROVIDER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=mara, account_id=party.account_id, role=Role.ROLE_PROVIDER),
                             metadata=admin.md(), timeout=TIMEOUT)
    return party


def lessee(api, mara, name="Minh"):
    return sign_up(api, mara, email=unique_email("lessee"), given_name=name, family_name="Phạm")


def published(api, lessor, hcmc, title="Căn hộ Quận 1 gần chợ Bến Thành", photos=()):
    created = create(api, lessor, apartment(hcmc, title=title, photos=photos))
    return api.rentals.PublishListing(pb.PublishListingRequest(marketplace_id=lessor.marketplace_id, listing_id=created.id),
                                      metadata=lessor.md(), timeout=TIMEOUT)


def call(api, method, party, **fields):
    request = getattr(pb, f"{method}Request")(marketplace_id=party.marketplace_id, **fields)
    return getattr(api.rentals, method)(request, metadata=party.md(), timeout=TIMEOUT)


def next_month():
    today = datetime.datetime.now(datetime.timezone.utc).date()
    return datetime.date(today.year + today.month // 12, today.month % 12 + 1, 1)


def request_lease(api, party, listing, months=12):
    start = next_month()
    return call(api, "RequestBooking", party, request_id=request_id(), listing_id=listing.id, months=months,
                start_date=pb.Date(year=start.year, month=start.month, day=start.day), message="Cho tôi thuê 1 năm")


def pay(api, party, bill_id):
    return api.payments.CreatePayment(pb.CreatePaymentRequest(
        marketplace_id=party.marketplace_id, request_id=request_id(), bill_id=bill_id,
        method=pb.PaymentMethodInput(card_token="tok_visa")), metadata=party.md(), timeout=TIMEOUT)


def fee(amount, bps):
    """amount × bps / 10000 rounded half away from zero, in integers (amounts are positive)."""
    return (amount * bps * 2 + 10_000) // 20_000


def check_split(split, amount, fees):
    """The three parts, exact to the dong: each fee rounded half away from zero, the lessor the rest."""
    provider, platform = fee(amount, fees[0]), fee(amount, fees[1])
    assert split.provider_fee.amount_minor == provider
    assert split.platform_fee.amount_minor == platform
    assert split.lessor_share.amount_minor == amount - provider - platform
    assert split.provider_fee.amount_minor + split.platform_fee.amount_minor + split.lessor_share.amount_minor == amount
    return amount - provider - platform


def test_a_year_long_lease_from_request_to_the_deposit_returned(api, mara, lessor, hcmc, fees):
    photos = [upload_photo(api, lessor).id for _ in range(2)]
    listing = published(api, lessor, hcmc, photos=photos)
    assert list(listing.photo_media_ids) == photos and listing.district == "Quận 1"
    minh = lessee(api, mara)

    refused(lambda: request_lease(api, minh, listing, months=5), Code.INVALID_ARGUMENT, field="months",
            reason=Reason.ERROR_REASON_LEASE_TOO_SHORT)
    refused(lambda: request_lease(api, lessor, listing), Code.FAILED_PRECONDITION, field="listing_id",
            reason=Reason.ERROR_REASON_SELF_ACTION)
    booking = request_lease(api, minh, listing)
    assert booking.status == BookingStatus.BOOKING_STATUS_REQUESTED and booking.months == 12
    assert booking.deposit.amount_minor == 2 * listing.monthly_rent.amount_minor
    assert booking.lessor.display_name == "Lê H." and booking.lessee.display_name == "Minh P."

    confirmed = call(api, "ConfirmBooking", lessor, booking_id=booking.id)
    assert confirmed.status == BookingStatus.BOOKING_STATUS_CONFIRMED
    assert call(api, "GetListing", lessor, listing_id=listing.id).status == ListingStatus.LISTING_STATUS_RENTED
    deposit = call(api, "GetBill", minh, bill_id=confirmed.deposit_bill_id)
    assert deposit.kind == BillKind.BILL_KIND_DEPOSIT and deposit.total.amount_minor == booking.deposit.amount_minor

    payment = pay(api, minh, deposit.id)
    assert payment.payee_account_id == lessor.account_id and payment.amount.amount_minor == deposit.total.amount_minor
    paid = call(api, "GetBill", minh, bill_id=deposit.id)
    assert paid.status == BillStatus.BILL_STATUS_PAID and paid.payment_id == payment.id
    shares = [check_split(paid.split, deposit.total.amount_minor, fees)]
    assert payment.split.payee_share.amount_minor == shares[0]
    refused(lambda: pay(api, minh, deposit.id), Code.FAILED_PRECONDITION, field="bill_id", reason=Reason.ERROR_REASON_ALREADY_PAID)
    assert call(api, "GetBooking", minh, booking_id=booking.id).status == BookingStatus.BOOKING_STATUS_ACTIVE

    # Two months of rent with that month's electricity and water, amounts that do not round evenly.
    start = next_month()
    gross = deposit.total.amount_minor
    for offset, (electricity, water) in enumerate([(612_345, 98_765), (587_501, 101_249)]):
        year, month = start.year + (start.month + offset - 1) // 12, (start.month + offset - 1) % 12 + 1
        bill = call(api, "CreateMonthlyBill", lessor, request_id=request_id(), booking_id=booking.id,
                    period=pb.BillingPeriod(year=year, month=month), utilities=[
                        pb.UtilityCharge(kind=Utility.UTILITY_KIND_ELECTRICITY, description="180 kWh",
                                         amount=pb.Money(amount_minor=electricity, currency_code="VND")),
                        pb.UtilityCharge(kind=Utility.UTILITY_KIND_WATER, description="6 m³",
                                         amount=pb.Money(amount_minor=water, currency_code="VND"))])
        total = listing.monthly_rent.amount_minor + electricity + water
        assert bill.total.amount_minor == total and bill.status == BillStatus.BILL_STATUS_DUE
        due = call(api, "ListBills", minh, statuses=[BillStatus.BILL_STATUS_DUE]).bills
        assert [b.id for b in due] == [bill.id]
        if offset == 0:
            refused(lambda: call(api, "EndLease", lessor, booking_id=booking.id), Code.FAILED_PRECONDITION, field="booking_id",
                    reason=Reason.ERROR_REASON_OPEN_OBLIGATIONS)
        pay(api, minh, bill.id)
        shares.append(check_split(call(api, "GetBill", lessor, bill_id=bill.id).split, total, fees))
        gross += total

    paid_bills = call(api, "ListBills", minh, statuses=[BillStatus.BILL_STATUS_PAID]).bills
    assert len(paid_bills) == 3
    income = call(api, "GetLessorIncome", lessor)
    assert income.total.paid_bills == 3 and income.total.gross.amount_minor == gross
    assert income.total.lessor_share.amount_minor == sum(shares)
    assert income.total.provider_fees.amount_minor + income.total.platform_fees.amount_minor + sum(shares) == gross
    assert income.months[-1].paid_bills == 3 and income.active_leases == 1
    tenants = call(api, "ListBookings", lessor, lessor_account_id=lessor.account_id,
                   statuses=[BookingStatus.BOOKING_STATUS_ACTIVE]).bookings
    assert [(t.id, t.lessee.display_name) for t in tenants] == [(booking.id, "Minh P.")]
    refused(lambda: call(api, "GetLessorIncome", minh, lessor_account_id=lessor.account_id), Code.PERMISSION_DENIED)

    ended = call(api, "EndLease", lessor, booking_id=booking.id, reason="the lessee moves abroad")
    assert ended.status == BookingStatus.BOOKING_STATUS_ENDED
    assert call(api, "GetListing", lessor, listing_id=listing.id).status == ListingStatus.LISTING_STATUS_PUBLISHED
    kept = pb.Money(amount_minor=deposit.total.amount_minor - 1_250_000, currency_code="VND")
    refused(lambda: call(api, "ReturnDeposit", lessor, booking_id=booking.id, amount=kept), Code.INVALID_ARGUMENT, field="reason")
    too_much = pb.Money(amount_minor=deposit.total.amount_minor + 1, currency_code="VND")
    refused(lambda: call(api, "ReturnDeposit", lessor, booking_id=booking.id, amount=too_much, reason="x"),
            Code.INVALID_ARGUMENT, field="amount")
    returned = call(api, "ReturnDeposit", lessor, booking_id=booking.id, amount=kept, reason="a cracked window pane")
    assert returned.deposit_return.amount.amount_minor == kept.amount_minor
    assert returned.deposit_return.reason == "a cracked window pane"
    payout = api.payments.GetPayment(pb.GetPaymentRequest(marketplace_id=mara, payment_id=returned.deposit_return.payment_id),
                                     metadata=minh.md(), timeout=TIMEOUT)
    assert payout.payee_account_id == minh.account_id and payout.amount.amount_minor == kept.amount_minor
    refused(lambda: call(api, "ReturnDeposit", lessor, booking_id=booking.id, reason="again"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_DUPLICATE)
    history = call(api, "ListBookings", minh, statuses=[BookingStatus.BOOKING_STATUS_ENDED]).bookings
    assert [b.id for b in history] == [booking.id]


def confirm_at_once(api, lessor, booking_ids):
    """Confirms the bookings from one thread each, released together; returns each outcome:
    the booking, or the error's code and reason."""
    barrier = threading.Barrier(len(booking_ids))
    outcomes = [None] * len(booking_ids)
    metadata = lessor.md()

    def run(index, booking_id):
        barrier.wait()
        try:
            outcomes[index] = api.rentals.ConfirmBooking(
                pb.ConfirmBookingRequest(marketplace_id=lessor.marketplace_id, booking_id=booking_id), metadata=metadata, timeout=TIMEOUT)
        except grpc.RpcError as error:
            outcomes[index] = (error.code(), error_reason(error), error.details())

    threads = [threading.Thread(target=run, args=(i, b)) for i, b in enumerate(booking_ids)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_confirmations_racing_for_one_listing_end_with_one_lease(api, mara, lessor, hcmc):
    for round in range(3):
        listing = published(api, lessor, hcmc, title=f"Phòng trọ Quận 1 số {round}")
        bookings = [request_lease(api, lessee(api, mara, name), listing) for name in ("An", "Bình")]
        outcomes = confirm_at_once(api, lessor, [b.id for b in bookings])
        winners = [o for o in outcomes if not isinstance(o, tuple)]
        assert len(winners) == 1, outcomes
        code, reason, message = next(o for o in outcomes if isinstance(o, tuple))
        assert code == Code.FAILED_PRECONDITION
        # Held off by the lease, or found already declined by the winner's confirmation.
        assert reason in (Reason.ERROR_REASON_LISTING_LEASED, Reason.ERROR_REASON_INVALID_TRANSITION), message
        loser = next(b for b in bookings if b.id != winners[0].id)
        declined = call(api, "GetBooking", lessor, booking_id=loser.id)
        assert declined.status == BookingStatus.BOOKING_STATUS_DECLINED
        assert declined.reason == "another request for this listing was confirmed"

    listing = published(api, lessor, hcmc, title="Nhà nguyên căn Quận 1")
    booking = request_lease(api, lessee(api, mara, "Chi"), listing)
    outcomes = confirm_at_once(api, lessor, [booking.id, booking.id])
    assert len([o for o in outcomes if not isinstance(o, tuple)]) == 1, outcomes
    code, reason, _ = next(o for o in outcomes if isinstance(o, tuple))
    assert (code, reason) == (Code.FAILED_PRECONDITION, Reason.ERROR_REASON_INVALID_TRANSITION)
    bills = call(api, "ListBills", lessor, booking_id=booking.id).bills
    assert len(bills) == 1


def test_a_lessor_declines_with_a_reason_and_a_lessee_withdraws(api, mara, lessor, hcmc):
    listing = published(api, lessor, hcmc, title="Studio Quận 1")
    first, second = lessee(api, mara, "Dũng"), lessee(api, mara, "Em")
    asked = request_lease(api, first, listing)
    refused(lambda: call(api, "DeclineBooking", lessor, booking_id=asked.id), Code.INVALID_ARGUMENT, field="reason")
    declined = call(api, "DeclineBooking", lessor, booking_id=asked.id, reason="the flat is for a family")
    assert declined.status == BookingStatus.BOOKING_STATUS_DECLINED and declined.reason == "the flat is for a family"
    refused(lambda: call(api, "ConfirmBooking", lessor, booking_id=asked.id), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_INVALID_TRANSITION)
    other = request_lease(api, second, listing)
    refused(lambda: call(api, "CancelBooking", first, booking_id=other.id), Code.PERMISSION_DENIED)
    withdrawn = call(api, "CancelBooking", second, booking_id=other.id, reason="found a place nearer work")
    assert withdrawn.status == BookingStatus.BOOKING_STATUS_CANCELLED
