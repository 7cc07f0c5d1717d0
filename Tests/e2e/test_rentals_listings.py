"""MARA listings through a real server (--demo), as a new user meets them: a lessor whose role an
admin approves lists an apartment in Quận 1 with photos; a guest finds it by text without
diacritics, by distance from a point and in recommendations, with the places around it; a lessee
saves it (the flag shows), lists favorites and removes it; refusals carry their status, reason
and field."""
import os
import uuid

import grpc
import pytest

from souk_identity import (
    TIMEOUT, Reason, Role, login_party, pb, refused, request_id, sign_up, unique_email,
)
from souk_protos import Stub, enum

Code = grpc.StatusCode
MARA = "MARA"
ListingStatus = enum("souk.v1.ListingStatus")
ListingType = enum("souk.v1.ListingType")
Purpose = enum("souk.v1.MediaPurpose")

PNG = b"\x89PNG\r\n\x1a\n" + os.urandom(2_000)
# A word of this run's listing alone, so that a search for it finds only that listing.
MARKER = f"m{uuid.uuid4().hex[:8]}"
# 19 Lê Thánh Tôn, Bến Nghé, Quận 1.
HOME = (10.7771, 106.7025)


@pytest.fixture(scope="module")
def api(identity_channel):
    from souk_identity import Api
    api = Api(identity_channel)
    api.rentals = Stub(identity_channel, "souk.v1.Rentals")
    api.media = Stub(identity_channel, "souk.v1.Media")
    return api


@pytest.fixture(scope="module")
def mara(identity_server):
    return identity_server.marketplace_id(MARA)


@pytest.fixture(scope="module")
def admin(api, identity_server):
    return login_party(api, identity_server.demo_login(MARA, "admin"))


@pytest.fixture(scope="module")
def regions(api, mara):
    listed = api.rentals.ListRegions(pb.ListRegionsRequest(marketplace_id=mara, page_size=100), timeout=TIMEOUT).regions
    return {r.name: r for r in listed}


@pytest.fixture(scope="module")
def hcmc(regions):
    return regions["Thành phố Hồ Chí Minh"]


def upload_photo(api, party):
    metadata = pb.UploadMediaMetadata(request_id=request_id(), content_type="image/png", size_bytes=len(PNG),
                                      file_name="phong-khach.png", purpose=Purpose.MEDIA_PURPOSE_LISTING_PHOTO)
    requests = [pb.UploadMediaRequest(marketplace_id=party.marketplace_id, metadata=metadata),
                pb.UploadMediaRequest(marketplace_id=party.marketplace_id, chunk=PNG)]
    return api.media.UploadMedia(iter(requests), metadata=party.md(), timeout=TIMEOUT)


def apartment(region, *, title, photos=(), location=HOME, deposit_months=2):
    address = pb.Address(line1="19 Đường Lê Thánh Tôn", line2="Tầng 8", city="Thành phố Hồ Chí Minh", country_code="VN")
    if location is not None:
        address.location.CopyFrom(pb.GeoPoint(latitude=location[0], longitude=location[1]))
    return pb.Listing(
        title=title, description="Căn hộ đầy đủ nội thất, gần chợ Bến Thành", type=ListingType.LISTING_TYPE_APARTMENT,
        address=address, region_id=region.id, district="Quận 1",
        monthly_rent=pb.Money(amount_minor=15_000_000, currency_code="VND"), deposit_months=deposit_months,
        features=["air_conditioning", "wifi"], photo_media_ids=list(photos), area_square_meters=68, bedrooms=2,
        bathrooms=2, furnished=True, parking=True)


def create(api, party, listing, marketplace_id=None):
    request = pb.CreateListingRequest(marketplace_id=marketplace_id or party.marketplace_id, request_id=request_id(),
                                      listing=listing)
    return api.rentals.CreateListing(request, metadata=party.md(), timeout=TIMEOUT)


def every_page(call, request, metadata=None):
    found = []
    while True:
        response = call(request, metadata=metadata, timeout=TIMEOUT)
        found += list(response.listings)
        if not response.next_page_token:
            return found
        request.page_token = response.next_page_token


@pytest.fixture(scope="module")
def lessor(api, mara, admin, hcmc):
    """A new account that asks to be a lessor; its draft waits until an admin approves the role."""
    party = sign_up(api, mara, email=unique_email("lessor"), given_name="Trần", family_name="Bảo",
                    requested_roles=[Role.ROLE_PROVIDER])
    draft = create(api, party, apartment(hcmc, title="Bản nháp chờ duyệt"))
    assert draft.status == ListingStatus.LISTING_STATUS_DRAFT
    refused(lambda: api.rentals.PublishListing(pb.PublishListingRequest(marketplace_id=mara, listing_id=draft.id),
                                               metadata=party.md(), timeout=TIMEOUT),
            Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_ROLE_PENDING)
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=mara, account_id=party.account_id, role=Role.ROLE_PROVIDER),
                             metadata=admin.md(), timeout=TIMEOUT)
    return party


@pytest.fixture(scope="module")
def listing(api, mara, lessor, hcmc):
    """The lessor's published apartment in Quận 1, with two photos; its title has a word of its own."""
    photos = [upload_photo(api, lessor).id for _ in range(2)]
    created = create(api, lessor, apartment(hcmc, title=f"Căn hộ Quận 1 view sông {MARKER.upper()} Bến Nghé", photos=photos))
    assert list(created.photo_media_ids) == photos
    published = api.rentals.PublishListing(pb.PublishListingRequest(marketplace_id=mara, listing_id=created.id),
                                           metadata=lessor.md(), timeout=TIMEOUT)
    assert published.status == ListingStatus.LISTING_STATUS_PUBLISHED
    assert published.lessor.display_name == "Trần B." and published.lessor.account_id == lessor.account_id
    assert published.deposit.amount_minor == 30_000_000
    return published


def test_a_guest_finds_it_by_text_without_diacritics(api, mara, listing):
    for query in ("quan 1 ben nghe", "CAN HO " + MARKER, "duong le thanh ton", MARKER):
        found = every_page(api.rentals.SearchListings, pb.SearchListingsRequest(marketplace_id=mara, query=query, page_size=50))
        assert listing.id in [r.listing.id for r in found], query
        assert all(r.listing.status == ListingStatus.LISTING_STATUS_PUBLISHED for r in found)
    # The demo's lessors published listings too.
    demo = api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query="hutech"), timeout=TIMEOUT)
    assert [r.listing.title for r in demo.listings] == ["Phòng trọ gần Đại học Hutech"]
    only = api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query=MARKER), timeout=TIMEOUT)
    assert [r.listing.id for r in only.listings] == [listing.id]
    assert not only.listings[0].listing.saved
    # Filters that leave it out.
    cheap = pb.ListingFilter(max_monthly_rent=pb.Money(amount_minor=10_000_000, currency_code="VND"))
    assert not api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query=MARKER, filter=cheap),
                                          timeout=TIMEOUT).listings
    rooms = pb.ListingFilter(type=ListingType.LISTING_TYPE_ROOM)
    assert not api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query=MARKER, filter=rooms),
                                          timeout=TIMEOUT).listings


def test_a_guest_finds_it_by_distance_nearest_first(api, mara, listing):
    # From Nhà hát Thành phố, about 200 m away.
    near = pb.GeoPoint(latitude=10.7766, longitude=106.7031)
    found = every_page(api.rentals.SearchNearbyListings,
                       pb.SearchNearbyListingsRequest(marketplace_id=mara, near=near, radius_meters=2_000, page_size=3))
    ids = [r.listing.id for r in found]
    assert listing.id in ids
    distances = [r.distance_meters for r in found]
    assert distances == sorted(distances) and all(d <= 2_000 for d in distances)
    mine = next(r for r in found if r.listing.id == listing.id)
    assert 50 <= mine.distance_meters <= 150
    # Far from Thủ Dầu Một it is not within 5 km.
    far = every_page(api.rentals.SearchNearbyListings, pb.SearchNearbyListingsRequest(
        marketplace_id=mara, near=pb.GeoPoint(latitude=10.9805, longitude=106.6519), radius_meters=5_000))
    assert listing.id not in [r.listing.id for r in far]


def test_recommendations_rank_distance_and_rent(api, mara, listing):
    near = pb.GeoPoint(latitude=10.7766, longitude=106.7031)
    found = every_page(api.rentals.RecommendListings,
                       pb.RecommendListingsRequest(marketplace_id=mara, near=near, radius_meters=10_000, page_size=5))
    assert listing.id in [r.listing.id for r in found]
    scores = [r.score for r in found]
    assert scores == sorted(scores)
    budget = max(r.listing.monthly_rent.amount_minor for r in found)
    for r in found:
        expected = 0.6 * r.distance_meters / 10_000 + 0.4 * r.listing.monthly_rent.amount_minor / budget
        assert abs(r.score - expected) < 0.001


def test_the_places_around_it_nearest_first(api, mara, listing):
    places = api.rentals.ListNearbyPlaces(pb.ListNearbyPlacesRequest(marketplace_id=mara, listing_id=listing.id,
                                                                     radius_meters=3_000, page_size=50), timeout=TIMEOUT).places
    names = [p.place.name for p in places]
    assert "Chợ Bến Thành" in names
    distances = [p.distance_meters for p in places]
    assert distances == sorted(distances) and all(d <= 3_000 for d in distances)


def test_a_lessee_saves_it_sees_the_flag_and_removes_it(api, mara, listing):
    lessee = sign_up(api, mara, email=unique_email("lessee"), given_name="Lan")
    add = pb.AddFavoriteRequest(marketplace_id=mara, request_id=request_id(), listing_id=listing.id)
    first = api.rentals.AddFavorite(add, metadata=lessee.md(), timeout=TIMEOUT)
    again = api.rentals.AddFavorite(add, metadata=lessee.md(), timeout=TIMEOUT)
    assert first.id == again.id and first.listing.saved
    get = pb.GetListingRequest(marketplace_id=mara, listing_id=listing.id)
    assert api.rentals.GetListing(get, metadata=lessee.md(), timeout=TIMEOUT).saved
    assert not api.rentals.GetListing(get, timeout=TIMEOUT).saved
    found = api.rentals.SearchListings(pb.SearchListingsRequest(marketplace_id=mara, query=MARKER),
                                       metadata=lessee.md(), timeout=TIMEOUT)
    assert [r.listing.saved for r in found.listings] == [True]
    favorites = api.rentals.ListFavorites(pb.ListFavoritesRequest(marketplace_id=mara), metadata=lessee.md(),
                                          timeout=TIMEOUT).favorites
    assert [f.listing_id for f in favorites] == [listing.id] and favorites[0].listing.title == listing.title
    api.rentals.RemoveFavorite(pb.RemoveFavoriteRequest(marketplace_id=mara, listing_id=listing.id), metadata=lessee.md(),
                               timeout=TIMEOUT)
    assert not api.rentals.GetListing(get, metadata=lessee.md(), timeout=TIMEOUT).saved
    assert not api.rentals.ListFavorites(pb.ListFavoritesRequest(marketplace_id=mara), metadata=lessee.md(),
                                         timeout=TIMEOUT).favorites
    refused(lambda: api.rentals.RemoveFavorite(pb.RemoveFavoriteRequest(marketplace_id=mara, listing_id=listing.id),
                                               metadata=lessee.md(), timeout=TIMEOUT),
            Code.NOT_FOUND, reason=Reason.ERROR_REASON_RESOURCE_NOT_FOUND)


def test_refusals_name_their_field_and_reason(api, mara, lessor, hcmc, regions, identity_server):
    binh_duong = regions["Bình Dương"]
    unknown = pb.Region(id=str(uuid.uuid4()))
    refused(lambda: create(api, lessor, apartment(unknown, title="Vùng lạ")), Code.INVALID_ARGUMENT, field="listing.region_id")
    refused(lambda: create(api, lessor, apartment(binh_duong, title="Quận 1 ở Bình Dương")), Code.INVALID_ARGUMENT,
            field="listing.district")
    refused(lambda: create(api, lessor, apartment(hcmc, title="Ba tháng cọc", deposit_months=3)), Code.INVALID_ARGUMENT,
            field="listing.deposit_months")
    refused(lambda: create(api, lessor, apartment(hcmc, title="Không vị trí", location=None)), Code.INVALID_ARGUMENT,
            field="listing.address.location")
    # Someone else's photo.
    stranger = sign_up(api, mara, email=unique_email("stranger"))
    theirs = upload_photo(api, stranger).id
    refused(lambda: create(api, lessor, apartment(hcmc, title="Ảnh của người khác", photos=[theirs])), Code.INVALID_ARGUMENT,
            field="listing.photo_media_ids[0]")
    # A customer without the lessor role.
    refused(lambda: create(api, stranger, apartment(hcmc, title="Không phải chủ nhà")), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_NOT_ALLOWED)
    # Another marketplace's token sees nothing of MARA.
    diner = login_party(api, identity_server.demo_login("DineSwift", "customer"))
    refused(lambda: api.rentals.ListFavorites(pb.ListFavoritesRequest(marketplace_id=mara), metadata=diner.md(),
                                              timeout=TIMEOUT), Code.PERMISSION_DENIED)
    refused(lambda: create(api, diner, apartment(hcmc, title="Từ chợ khác"), marketplace_id=mara), Code.PERMISSION_DENIED)
    # Regions are the admins'.
    refused(lambda: api.rentals.CreateRegion(pb.CreateRegionRequest(
        marketplace_id=mara, request_id=request_id(), region=pb.Region(name="Long An", districts=["Tân An"])),
        metadata=lessor.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)
