"""Each cause of a refused token has its own reason, because a client handles each differently:
a guest is asked to sign in (SIGN_IN_REQUIRED), an expired token is refreshed (TOKEN_EXPIRED), a
session that ended needs a new sign-in (SESSION_REVOKED), a token the server never issued is
dropped (TOKEN_INVALID), and a blocked account is told so (ACCOUNT_BLOCKED)."""
import time

import grpc
import pytest
from google.rpc import error_details_pb2

from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, Api, Reason, bearer, login_party, pb, refused, seconds, sign_up,
)
from souk_protos import status_detail

Code = grpc.StatusCode
DINESWIFT = "DineSwift"


@pytest.fixture(scope="module")
def mp(identity_server):
    return identity_server.marketplace_id(DINESWIFT)


@pytest.fixture(scope="module")
def admin(api, identity_server):
    return login_party(api, identity_server.demo_login(DINESWIFT, "admin"))


def get_me(api, mp, metadata=()):
    return api.accounts.GetMe(pb.GetMeRequest(marketplace_id=mp), metadata=metadata, timeout=TIMEOUT)


def login(api, mp, email):
    return api.accounts.Login(pb.LoginRequest(marketplace_id=mp, email=email, password=STRONG_PASSWORD),
                              timeout=TIMEOUT)


def user_message(error) -> str:
    return status_detail(error, error_details_pb2.LocalizedMessage).message


def test_a_guest_is_asked_to_sign_in_not_told_its_session_ended(api, mp):
    error = refused(lambda: get_me(api, mp), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_SIGN_IN_REQUIRED)
    assert "session" not in user_message(error).lower(), user_message(error)
    assert "sign in" in user_message(error).lower()


def test_a_malformed_or_unknown_token_is_invalid(api, mp):
    for metadata in ((("authorization", "Basic abc"),), bearer("not-a-token")):
        refused(lambda: get_me(api, mp, metadata), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_TOKEN_INVALID)


def test_a_token_of_a_session_that_ended_says_so(api, mp):
    party = sign_up(api, mp)
    other = login(api, mp, party.email)
    api.accounts.Logout(pb.LogoutRequest(marketplace_id=mp), metadata=bearer(other.access_token), timeout=TIMEOUT)
    refused(lambda: get_me(api, mp, bearer(other.access_token)), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_SESSION_REVOKED)
    # A password change ends the other sessions the same way.
    third = login(api, mp, party.email)
    api.accounts.ChangePassword(pb.ChangePasswordRequest(
        marketplace_id=mp, current_password=STRONG_PASSWORD, new_password="N3w!Passw0rd"),
        metadata=bearer(third.access_token), timeout=TIMEOUT)
    refused(lambda: get_me(api, mp, bearer(party.session.access_token)), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_SESSION_REVOKED)
    assert get_me(api, mp, bearer(third.access_token)).id == party.account_id


def test_an_expired_token_asks_for_a_refresh(api, mp):
    party = sign_up(api, mp)
    session = party.session
    # The identity test server's access tokens live 2 seconds: wait until this one is past its
    # expiry time as the server wrote it, then use it.
    time.sleep(max(0.0, seconds(session.access_token_expire_time) - time.time()) + 0.5)
    refused(lambda: get_me(api, mp, bearer(session.access_token)), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_EXPIRED)
    renewed = api.accounts.Refresh(pb.RefreshRequest(marketplace_id=mp, refresh_token=session.refresh_token),
                                   timeout=TIMEOUT)
    assert get_me(api, mp, bearer(renewed.access_token)).id == party.account_id


def test_a_blocked_accounts_token_says_the_account_is_blocked(api, mp, admin):
    party = sign_up(api, mp)
    session = login(api, mp, party.email)
    api.accounts.BlockAccount(pb.BlockAccountRequest(
        marketplace_id=mp, account_id=party.account_id, reason="Fraud", expected_version=party.me().version),
        metadata=admin.md(), timeout=TIMEOUT)
    for token in (session.access_token, party.session.access_token):
        error = refused(lambda: get_me(api, mp, bearer(token)), Code.UNAUTHENTICATED,
                        reason=Reason.ERROR_REASON_ACCOUNT_BLOCKED)
        assert "blocked" in user_message(error).lower()
