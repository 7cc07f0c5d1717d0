"""Errors in the standard place (AIP-193, common.proto ERROR DETAILS), read the way any gRPC client
reads them: grpcio-status's `rpc_status.from_call` unpacks the google.rpc.Status of
grpc-status-details-bin, whose details carry an ErrorInfo (reason, domain, metadata), a
BadRequest for wrong fields and a LocalizedMessage in the caller's language."""
import uuid

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from souk_protos import Stub
from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, Api, FieldMask, bearer, login_party, operator_party, pb, request_id, sign_up,
    unique_email,
)

Code = grpc.StatusCode
DINESWIFT = "DineSwift"
MARA = "MARA"


@pytest.fixture(scope="module")
def mp(identity_server):
    return identity_server.marketplace_id(DINESWIFT)


def failure(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def details(error: grpc.RpcError) -> dict:
    """The call's rich status unpacked by type: ErrorInfo, BadRequest, RetryInfo, LocalizedMessage.
    `from_call` itself checks that the status's code and message are the call's."""
    status = rpc_status.from_call(error)
    assert status is not None, f"no grpc-status-details-bin on {error.code().name}: {error.details()!r}"
    found = {}
    for detail in status.details:
        for kind in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest, error_details_pb2.RetryInfo,
                     error_details_pb2.LocalizedMessage):
            if detail.Is(kind.DESCRIPTOR):
                unpacked = kind()
                detail.Unpack(unpacked)
                assert kind.__name__ not in found, f"two {kind.__name__} details"
                found[kind.__name__] = unpacked
    assert "ErrorInfo" in found and "LocalizedMessage" in found, f"every error has both: {status!r}"
    assert found["ErrorInfo"].domain == "souk.v1"
    return found


def get_me(api, marketplace_id, metadata=()):
    return api.accounts.GetMe(pb.GetMeRequest(marketplace_id=marketplace_id), metadata=metadata, timeout=TIMEOUT)


def bad_login(api, marketplace_id, metadata=()):
    return api.accounts.Login(pb.LoginRequest(marketplace_id=marketplace_id, email=unique_email(), password="Wr0ng!Pass"),
                              metadata=metadata, timeout=TIMEOUT)


def test_a_bad_sign_up_names_the_field_in_bad_request_and_error_info(api, mp):
    error = failure(lambda: api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=mp, request_id=request_id(), email=unique_email(), password="short", given_name="Test"),
        timeout=TIMEOUT))
    assert error.code() == Code.INVALID_ARGUMENT
    found = details(error)
    assert found["ErrorInfo"].reason == "WEAK_PASSWORD"
    assert dict(found["ErrorInfo"].metadata) == {"field": "password"}
    assert [(v.field, bool(v.description)) for v in found["BadRequest"].field_violations] == [("password", True)]
    assert error.details().startswith("password: ")

    error = failure(lambda: api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=mp, request_id=request_id(), email="not-an-address", password=STRONG_PASSWORD, given_name="Test"),
        timeout=TIMEOUT))
    found = details(error)
    assert (found["ErrorInfo"].reason, found["ErrorInfo"].metadata["field"]) == ("FIELD_INVALID", "email")
    assert [v.field for v in found["BadRequest"].field_violations] == ["email"]


def test_a_stale_version_is_aborted_with_the_current_version(api, mp):
    party = sign_up(api, mp)
    me = party.me()
    rename = lambda version: api.accounts.UpdateProfile(pb.UpdateProfileRequest(  # noqa: E731
        marketplace_id=mp, account=pb.Account(id=party.account_id, given_name="Renamed"),
        update_mask=FieldMask(paths=["given_name"]), expected_version=version), metadata=party.md(), timeout=TIMEOUT)
    current = rename(me.version).version
    error = failure(lambda: rename(me.version))
    assert error.code() == Code.ABORTED
    found = details(error)
    assert found["ErrorInfo"].reason == "STALE_VERSION"
    assert dict(found["ErrorInfo"].metadata) == {
        "resource_type": "account", "resource_id": party.account_id, "current_version": str(current)}
    assert "BadRequest" not in found


def test_another_marketplaces_token_is_permission_denied(api, identity_server, mp):
    mara_customer = login_party(api, identity_server.demo_login(MARA, "customer"))
    error = failure(lambda: get_me(api, mp, mara_customer.md()))
    assert error.code() == Code.PERMISSION_DENIED
    info = details(error)["ErrorInfo"]
    assert (info.reason, dict(info.metadata)) == ("MARKETPLACE_MISMATCH", {"marketplace_id": mp})


def test_missing_and_unknown_tokens_are_unauthenticated(api, mp):
    for metadata, reason in (((), "SIGN_IN_REQUIRED"), (bearer("not-a-token"), "TOKEN_INVALID")):
        error = failure(lambda: get_me(api, mp, metadata))
        assert error.code() == Code.UNAUTHENTICATED
        assert details(error)["ErrorInfo"].reason == reason


def test_unknown_resources_carry_reasons_and_unknown_methods_are_named(api, identity_server, mp):
    admin = login_party(api, identity_server.demo_login(DINESWIFT, "admin"))
    missing = str(uuid.uuid4())
    error = failure(lambda: api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=mp, account_id=missing),
                                                     metadata=admin.md(), timeout=TIMEOUT))
    assert error.code() == Code.NOT_FOUND
    info = details(error)["ErrorInfo"]
    assert (info.reason, dict(info.metadata)) == ("RESOURCE_NOT_FOUND", {"resource_type": "account", "resource_id": missing})

    # Every RPC of the contract is served now; a method it does not have is UNIMPLEMENTED, named.
    unknown = api.channel.unary_unary("/souk.v1.Admin/NoSuchMethod", request_serializer=lambda b: b, response_deserializer=lambda b: b)
    error = failure(lambda: unknown(b"", metadata=admin.md(), timeout=TIMEOUT))
    assert error.code() == Code.UNIMPLEMENTED and "NoSuchMethod" in error.details()


@pytest.mark.parametrize("accept_language, locale", [
    ("ar", "ar"),
    ("vi-VN", "vi"),
    ("fr-CH, vi;q=0.7, ar;q=0.9", "ar"),
    ("de, *;q=0.5", "en"),
    (None, "en"),
])
def test_guests_get_the_message_in_their_accept_language(api, mp, accept_language, locale):
    metadata = () if accept_language is None else (("accept-language", accept_language),)
    error = failure(lambda: bad_login(api, mp, metadata))
    assert error.code() == Code.UNAUTHENTICATED
    found = details(error)
    assert found["ErrorInfo"].reason == "BAD_CREDENTIALS"
    assert found["LocalizedMessage"].locale == locale
    expected = {
        "en": "The e-mail or password is incorrect.",
        "ar": "البريد الإلكتروني أو كلمة المرور غير صحيحة.",
        "vi": "Email hoặc mật khẩu không đúng.",
    }[locale]
    assert found["LocalizedMessage"].message == expected
    # The developer message stays English.
    assert error.details() == "wrong e-mail or password"


def test_a_signed_in_caller_gets_the_account_locale_before_accept_language(api, identity_server, mp):
    party = sign_up(api, mp)
    mara = identity_server.marketplace_id(MARA)
    wrong_marketplace = lambda: get_me(api, mara, party.md() + (("accept-language", "ar"),))  # noqa: E731
    me = party.me()
    assert me.locale == "en-US", "sign-up gives the account DineSwift's default locale"
    assert details(failure(wrong_marketplace))["LocalizedMessage"].locale == "en"

    api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=mp, account=pb.Account(id=party.account_id, locale="vi-VN"),
        update_mask=FieldMask(paths=["locale"]), expected_version=me.version), metadata=party.md(), timeout=TIMEOUT)
    localized = details(failure(wrong_marketplace))["LocalizedMessage"]
    assert (localized.locale, localized.message) == \
        ("vi", "Bạn đang đăng nhập vào một sàn khác. Hãy đăng nhập vào sàn này để tiếp tục.")


def test_a_signed_in_caller_without_a_locale_gets_accept_language(api, identity_server, mp):
    operator = operator_party(api, identity_server)
    assert operator.me().locale == "", "the platform operator belongs to no marketplace, so has no default locale"
    error = failure(lambda: api.accounts.GetAccount(
        pb.GetAccountRequest(marketplace_id=mp, account_id=str(uuid.uuid4())),
        metadata=operator.md() + (("accept-language", "ar-SA"),), timeout=TIMEOUT))
    localized = details(error)["LocalizedMessage"]
    assert (localized.locale, localized.message) == ("ar", "لم نتمكن من العثور على ما طلبته.")
