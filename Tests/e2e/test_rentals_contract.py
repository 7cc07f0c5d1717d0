"""MARA answers as the contract says (issue 25): a lessee reviews a stay once and the review
counts for the lessor and the listing; an admin's answer arrives as a feedback notification;
confirming and ending a lease never make the lessor's open edit stale; search finds the words
a query begins; booking and bill lists take several statuses and an order; every wrong field of
a request is named at once."""
import uuid

import grpc
import pytest

from souk_identity import TIMEOUT, FieldMask, Reason, pb, refused, request_id
from souk_protos import Stub, enum, field_violations
# The listings' and leases' module fixtures and helpers.
from test_rentals_leases import api, call, fees, lessee, lessor, pay, published, request_lease  # noqa: F401
from test_rentals_listings import admin, apartment, create, hcmc, mara, regions  # noqa: F401

Code = grpc.StatusCode
BookingStatus = enum("souk.v1.BookingStatus")
BillStatus = enum("souk.v1.BillStatus")
ListingStatus = enum("souk.v1.ListingStatus")
ResourceType = enum("souk.v1.ResourceType")
NotificationKind = enum("souk.v1.NotificationKind")


def review(api, party, booking_id, stars=5, **fields):
    return api.feedback.CreateFeedback(pb.CreateFeedbackRequest(
        marketplace_id=party.marketplace_id, request_id=request_id(), booking_id=booking_id, stars=stars, comment="Yên tĩnh, sạch sẽ",
        **fields), metadata=party.md(), timeout=TIMEOUT)


def summary(api, mara, **subject):
    found = api.feedback.GetRatingSummary(pb.GetRatingSummaryRequest(marketplace_id=mara, **subject), timeout=TIMEOUT)
    return found.count, found.average_hundredths


def test_a_lessee_reviews_a_confirmed_stay_once(api, mara, lessor, hcmc, admin):
    listing = published(api, lessor, hcmc, title="Phòng gần chợ Bến Thành")
    minh, other = lessee(api, mara), lessee(api, mara, "Lan")
    booking = request_lease(api, minh, listing)
    # Not before the lessor confirmed it, and only by its lessee.
    refused(lambda: review(api, minh, booking.id), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_NOT_RATABLE)
    call(api, "ConfirmBooking", lessor, booking_id=booking.id)
    refused(lambda: review(api, other, booking.id), Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)
    version = call(api, "GetListing", lessor, listing_id=listing.id).version
    entry = review(api, minh, booking.id, stars=4)
    assert (entry.subject.type, entry.subject.id) == (ResourceType.RESOURCE_TYPE_BOOKING, booking.id)
    assert entry.rated_account_id == lessor.account_id and entry.listing_id == listing.id and entry.stars == 4
    refused(lambda: review(api, minh, booking.id), Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_ALREADY_RATED)
    # The listing's and the lessor's averages; the listing's version (a maintained field) stays.
    assert summary(api, mara, listing_id=listing.id) == (1, 400)
    after = call(api, "GetListing", minh, listing_id=listing.id)
    assert (after.rating.count, after.rating.average_hundredths, after.version) == (1, 400, version)
    assert summary(api, mara, account_id=lessor.account_id)[0] >= 1
    reviews = api.feedback.ListFeedback(pb.ListFeedbackRequest(marketplace_id=mara, listing_id=listing.id), timeout=TIMEOUT).feedback
    assert [(r.id, r.author.display_name) for r in reviews] == [(entry.id, "Minh P.")]
    # The admin's answer reaches the lessee as a feedback notification about the entry.
    api.feedback.AnswerFeedback(pb.AnswerFeedbackRequest(marketplace_id=mara, feedback_id=entry.id, text="Cảm ơn bạn!"),
                                metadata=admin.md(), timeout=TIMEOUT)
    notes = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=mara, page_size=50),
                                                metadata=minh.md(), timeout=TIMEOUT).notifications
    answered = [n for n in notes if n.subject.id == entry.id]
    assert [(n.kind, n.subject.type) for n in answered] == [(NotificationKind.NOTIFICATION_KIND_FEEDBACK,
                                                             ResourceType.RESOURCE_TYPE_FEEDBACK)]


def test_a_review_names_every_wrong_field(api, mara, lessor, hcmc):
    minh = lessee(api, mara)
    error = refused(lambda: api.feedback.CreateFeedback(pb.CreateFeedbackRequest(
        marketplace_id=mara, request_id=request_id(), stars=0, comment="x" * 2001), metadata=minh.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert [v.field for v in field_violations(error)] == ["order_id", "stars", "comment"]
    error = refused(lambda: review(api, minh, "not-an-id", stars=6, target=1), Code.INVALID_ARGUMENT)
    assert [v.field for v in field_violations(error)] == ["booking_id", "target", "stars"]


def test_confirming_and_ending_a_lease_keep_the_lessors_edit_valid(api, mara, lessor, hcmc):
    listing = published(api, lessor, hcmc, title="Căn hộ Quận 1 có ban công")
    opened = call(api, "GetListing", lessor, listing_id=listing.id)  # the lessor opens the edit form
    minh = lessee(api, mara)
    booking = request_lease(api, minh, listing)
    confirmed = call(api, "ConfirmBooking", lessor, booking_id=booking.id)
    rented = call(api, "GetListing", lessor, listing_id=listing.id)
    assert rented.status == ListingStatus.LISTING_STATUS_RENTED and rented.active_booking_id == booking.id
    assert rented.version == opened.version
    edited = call(api, "UpdateListing", lessor, listing=pb.Listing(id=listing.id, title="Căn hộ Quận 1, ban công hướng sông"),
                  update_mask=FieldMask(paths=["title"]), expected_version=opened.version)
    assert edited.version == opened.version + 1 and edited.status == ListingStatus.LISTING_STATUS_RENTED
    pay(api, minh, confirmed.deposit_bill_id)
    ended = call(api, "EndLease", lessor, booking_id=booking.id)
    assert ended.status == BookingStatus.BOOKING_STATUS_ENDED
    free = call(api, "GetListing", lessor, listing_id=listing.id)
    assert free.status == ListingStatus.LISTING_STATUS_PUBLISHED and free.active_booking_id == "" and free.version == edited.version
    call(api, "UpdateListing", lessor, listing=pb.Listing(id=listing.id, bedrooms=3), update_mask=FieldMask(paths=["bedrooms"]),
         expected_version=edited.version)


def test_search_finds_the_words_a_query_begins(api, mara, lessor, hcmc):
    marker = f"p{uuid.uuid4().hex[:10]}"
    listing = published(api, lessor, hcmc, title=f"Phòng {marker} cạnh chợ Bến Thành")

    def found(query):
        return [r.listing.id for r in api.rentals.SearchListings(
            pb.SearchListingsRequest(marketplace_id=mara, query=query, page_size=100), timeout=TIMEOUT).listings]

    for query in (f"ben th {marker[:6]}", f"{marker[:4]} BẾN", f"cho be {marker}", marker):
        assert listing.id in found(query), query
    assert listing.id not in found(f"{marker[:6]} thanhx")
    # The demo's "Phòng trọ gần Đại học Hutech" by the start of a word.
    hutech = api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query="hut"), timeout=TIMEOUT).listings
    assert "Phòng trọ gần Đại học Hutech" in [r.listing.title for r in hutech]


def test_bookings_and_bills_take_several_statuses_and_an_order(api, mara, lessor, hcmc):
    minh = lessee(api, mara)
    first = request_lease(api, minh, published(api, lessor, hcmc, title="Phòng một"))
    second = request_lease(api, minh, published(api, lessor, hcmc, title="Phòng hai"))
    third = request_lease(api, minh, published(api, lessor, hcmc, title="Phòng ba"))
    call(api, "ConfirmBooking", lessor, booking_id=second.id)
    call(api, "CancelBooking", minh, booking_id=third.id)

    def ids(party, **fields):
        return [b.id for b in call(api, "ListBookings", party, **fields).bookings]

    wanted = [BookingStatus.BOOKING_STATUS_REQUESTED, BookingStatus.BOOKING_STATUS_CONFIRMED]
    assert ids(minh, statuses=wanted) == [second.id, first.id]
    assert ids(minh, statuses=wanted, order_by="create_time") == [first.id, second.id]
    assert ids(minh, order_by="create_time desc") == [third.id, second.id, first.id]
    assert third.id in ids(lessor, lessor_account_id=lessor.account_id, statuses=[BookingStatus.BOOKING_STATUS_CANCELLED])
    bills = call(api, "ListBills", minh, statuses=[BillStatus.BILL_STATUS_DUE, BillStatus.BILL_STATUS_PAID]).bills
    assert [b.booking_id for b in bills] == [second.id]
    error = refused(lambda: call(api, "ListBookings", minh, statuses=[0], order_by="rent", page_size=-1), Code.INVALID_ARGUMENT)
    assert {v.field for v in field_violations(error)} == {"statuses", "order_by", "page_size"}
    refused(lambda: api.rentals.ListNearbyPlaces(pb.ListNearbyPlacesRequest(marketplace_id=mara), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="listing_id")


def test_a_listing_names_every_wrong_field(api, mara, lessor, hcmc):
    bad = apartment(hcmc, title=" ", deposit_months=9)
    bad.monthly_rent.amount_minor = 0
    bad.bedrooms = -1
    error = refused(lambda: create(api, lessor, bad), Code.INVALID_ARGUMENT)
    assert [v.field for v in field_violations(error)] == [
        "listing.title", "listing.monthly_rent", "listing.deposit_months", "listing.bedrooms"]


def test_a_booking_request_and_a_bill_name_every_wrong_field(api, mara, lessor, hcmc):
    minh = lessee(api, mara)
    error = refused(lambda: call(api, "RequestBooking", minh, request_id=request_id(), listing_id="nope", months=5), Code.INVALID_ARGUMENT)
    assert [v.field for v in field_violations(error)] == ["listing_id", "months", "start_date"]
    booking = request_lease(api, minh, published(api, lessor, hcmc, title="Phòng bốn"))
    error = refused(lambda: call(api, "CreateMonthlyBill", lessor, request_id=request_id(), booking_id=booking.id,
                                 period=pb.BillingPeriod(year=2026, month=13),
                                 utilities=[pb.UtilityCharge(kind=1, amount=pb.Money(amount_minor=-5, currency_code="VND"))]),
                    Code.INVALID_ARGUMENT)
    named = [v.field for v in field_violations(error)]
    assert named[0] == "period" and len(named) == 2 and named[1].startswith("utilities[0]")


def test_listing_lists_and_search_take_order_by(api, mara, lessor, hcmc):
    marker = f"o{uuid.uuid4().hex[:10]}"
    cheap = published(api, lessor, hcmc, title=f"Phòng {marker} rẻ")
    dear = create(api, lessor, apartment(hcmc, title=f"Phòng {marker} đắt"))
    dear.monthly_rent.amount_minor = 30_000_000
    dear = call(api, "UpdateListing", lessor, listing=pb.Listing(id=dear.id, monthly_rent=dear.monthly_rent),
                update_mask=FieldMask(paths=["monthly_rent"]), expected_version=dear.version)
    dear = call(api, "PublishListing", lessor, listing_id=dear.id)

    def searched(**order):
        return [r.listing.id for r in api.rentals.SearchListings(
            pb.SearchListingsRequest(marketplace_id=mara, query=marker, **order), timeout=TIMEOUT).listings]

    assert searched() == [dear.id, cheap.id] == searched(order_by="create_time desc")
    assert searched(order_by="monthly_rent") == [cheap.id, dear.id]
    assert searched(order_by="monthly_rent desc") == [dear.id, cheap.id]
    refused(lambda: searched(order_by="title"), Code.INVALID_ARGUMENT, field="order_by")
    mine = [listing.id for listing in call(api, "ListListings", lessor, order_by="create_time", page_size=100).listings]
    assert mine.index(cheap.id) < mine.index(dear.id)
    minh = lessee(api, mara)
    for listing in (cheap, dear):
        call(api, "AddFavorite", minh, request_id=request_id(), listing_id=listing.id)
    assert [f.listing_id for f in call(api, "ListFavorites", minh).favorites] == [dear.id, cheap.id]
    assert [f.listing_id for f in call(api, "ListFavorites", minh, order_by="create_time").favorites] == [cheap.id, dear.id]
