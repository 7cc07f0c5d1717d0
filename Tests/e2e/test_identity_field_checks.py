"""Every wrong field of a request is named at once (AIP-193's BadRequest lists them all), in the
RPCs of accounts, marketplaces and media: the apps highlight every wrong field of a form."""
import grpc
import pytest

from souk_identity import (
    TIMEOUT, Api, Duration, FieldMask, Reason, login_party, operator_party, pb, request_id, sign_up,
)
from souk_protos import Stub, error_reason, field_violations

Code = grpc.StatusCode
DRIP = "Drip 'n Dash"
DINESWIFT = "DineSwift"


def violations(call) -> dict:
    """Runs `call()`, which must fail with one INVALID_ARGUMENT; its violations by field."""
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = info.value
    assert error.code() == Code.INVALID_ARGUMENT, f"{error.code().name}: {error.details()!r}"
    named = {}
    for violation in field_violations(error):
        named.setdefault(violation.field, violation.description)
    # The message names every field too, in the BadRequest's order.
    for field in named:
        assert f"{field}:" in error.details(), f"{field} missing from the message {error.details()!r}"
    return named


def test_sign_up_names_every_wrong_field_of_the_form(api, identity_server):
    drip = identity_server.marketplace_id(DRIP)
    request = pb.SignUpRequest(
        marketplace_id=drip, request_id=request_id(), email="", password="short", given_name="",
        laundry_profile=pb.LaundryProfile(campus="Busch", dorm_id="", room="214"))
    named = violations(lambda: api.accounts.SignUp(request, timeout=TIMEOUT))
    assert set(named) == {"email", "password", "given_name", "laundry_profile.dorm_id"}, named


def test_sign_up_keeps_the_reason_of_the_first_violation(api, identity_server):
    dineswift = identity_server.marketplace_id(DINESWIFT)
    request = pb.SignUpRequest(marketplace_id=dineswift, request_id=request_id(), email="a@example.com",
                               password="weak", given_name="", phone="12")
    with pytest.raises(grpc.RpcError) as info:
        api.accounts.SignUp(request, timeout=TIMEOUT)
    assert error_reason(info.value) == Reason.ERROR_REASON_WEAK_PASSWORD
    assert {v.field for v in field_violations(info.value)} == {"password", "given_name", "phone"}


def test_an_address_names_every_wrong_field(api, identity_server):
    party = sign_up(api, identity_server.marketplace_id(DINESWIFT))
    address = pb.Address(line1="", city="", country_code="sa", location=pb.GeoPoint(latitude=95, longitude=200))
    named = violations(lambda: api.accounts.CreateAddress(
        pb.CreateAddressRequest(marketplace_id=party.marketplace_id, request_id="", address=address),
        metadata=party.md(), timeout=TIMEOUT))
    assert set(named) == {
        "request_id", "address.line1", "address.city", "address.country_code", "address.location.latitude",
        "address.location.longitude",
    }, named


def test_marketplace_settings_name_every_wrong_field(api, operator, identity_server):
    dineswift = api.marketplaces.GetMarketplace(
        pb.GetMarketplaceRequest(marketplace_id=identity_server.marketplace_id(DINESWIFT)), timeout=TIMEOUT)
    settings = pb.MarketplaceSettings(
        commerce=pb.CommerceSettings(tax_rate_bps=20_000),
        accounts=pb.AccountSettings(
            max_failed_logins=-1,
            rate_limits=pb.AuthRateLimits(
                sign_in_per_address=pb.RateLimit(count=-5, window=Duration(seconds=0)))))
    named = violations(lambda: api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=dineswift.id, expected_version=dineswift.version, settings=settings,
        update_mask=FieldMask(paths=["commerce.tax_rate_bps", "accounts.max_failed_logins", "accounts.rate_limits"])),
        metadata=operator.md(), timeout=TIMEOUT))
    assert set(named) == {
        "settings.commerce.tax_rate_bps", "settings.accounts.max_failed_logins",
        "settings.accounts.rate_limits.sign_in_per_address.count",
        "settings.accounts.rate_limits.sign_in_per_address.window",
    }, named


def test_an_update_mask_names_every_path_it_may_not_change(api, identity_server):
    party = sign_up(api, identity_server.marketplace_id(DINESWIFT))
    with pytest.raises(grpc.RpcError) as info:
        api.accounts.UpdateProfile(pb.UpdateProfileRequest(
            marketplace_id=party.marketplace_id, account=pb.Account(given_name=""),
            update_mask=FieldMask(paths=["given_name", "roles", "state"])), metadata=party.md(), timeout=TIMEOUT)
    messages = [v.description for v in field_violations(info.value)]
    fields = [v.field for v in field_violations(info.value)]
    assert fields.count("update_mask") == 2 and "account.given_name" not in fields, fields
    assert any('"roles"' in m for m in messages) and any('"state"' in m for m in messages), messages


def test_a_block_names_the_account_and_the_reason(api, identity_server):
    admin = login_party(api, identity_server.demo_login(DINESWIFT, "admin"))
    named = violations(lambda: api.accounts.BlockAccount(pb.BlockAccountRequest(
        marketplace_id=admin.marketplace_id, account_id="not-a-uuid", reason="  ", expected_version=-1),
        metadata=admin.md(), timeout=TIMEOUT))
    assert set(named) == {"account_id", "reason", "expected_version"}, named


def test_an_upload_names_every_wrong_metadata_field(api, identity_channel, identity_server):
    party = sign_up(api, identity_server.marketplace_id(DINESWIFT))
    media = Stub(identity_channel, "souk.v1.Media")
    metadata = pb.UploadMediaMetadata(request_id="", content_type="", size_bytes=0, file_name="a/b")

    def requests():
        yield pb.UploadMediaRequest(marketplace_id=party.marketplace_id, metadata=metadata)

    named = violations(lambda: media.UploadMedia(requests(), metadata=party.md(), timeout=TIMEOUT))
    assert set(named) == {
        "metadata.request_id", "metadata.purpose", "metadata.content_type", "metadata.size_bytes", "metadata.file_name",
    }, named
