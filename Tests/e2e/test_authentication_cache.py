"""A call's authentication answers from the server's memory once a token was seen (no store
read), yet every change to the token's session or account applies to the very next call: each
test here first uses the token several times, then changes what it names, then calls again."""
import grpc
import pytest

from souk_identity import STRONG_PASSWORD, TIMEOUT, Reason, Role, bearer, login_party, pb, refused, sign_up

Code = grpc.StatusCode
DINESWIFT = "DineSwift"
ROLE_ADMIN = Role.ROLE_ADMIN


@pytest.fixture(scope="module")
def mp(identity_server):
    return identity_server.marketplace_id(DINESWIFT)


@pytest.fixture(scope="module")
def admin(api, identity_server):
    return login_party(api, identity_server.demo_login(DINESWIFT, "admin"))


def get_me(api, mp, token):
    return api.accounts.GetMe(pb.GetMeRequest(marketplace_id=mp), metadata=bearer(token), timeout=TIMEOUT)


def list_accounts(api, mp, token):
    return api.accounts.ListAccounts(pb.ListAccountsRequest(marketplace_id=mp, page_size=1), metadata=bearer(token),
                                     timeout=TIMEOUT)


def warm(api, mp, token):
    for _ in range(3):
        get_me(api, mp, token)


def test_blocking_an_account_refuses_its_next_call(api, mp, admin):
    party = sign_up(api, mp)
    token = party.session.access_token
    warm(api, mp, token)
    api.accounts.BlockAccount(pb.BlockAccountRequest(
        marketplace_id=mp, account_id=party.account_id, reason="Fraud"), metadata=admin.md(), timeout=TIMEOUT)
    refused(lambda: get_me(api, mp, token), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_ACCOUNT_BLOCKED)


def test_ending_a_session_refuses_its_next_call(api, mp):
    party = sign_up(api, mp)
    token = party.session.access_token
    other = api.accounts.Login(pb.LoginRequest(marketplace_id=mp, email=party.email, password=STRONG_PASSWORD),
                               timeout=TIMEOUT).access_token
    warm(api, mp, token)
    warm(api, mp, other)
    # Signing out everywhere from the other session revokes this one.
    api.accounts.Logout(pb.LogoutRequest(marketplace_id=mp, all_sessions=True), metadata=bearer(other), timeout=TIMEOUT)
    for ended in (token, other):
        refused(lambda: get_me(api, mp, ended), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_SESSION_REVOKED)


def test_a_role_granted_or_revoked_applies_to_the_next_call(api, mp, operator):
    party = sign_up(api, mp)
    token = party.session.access_token
    warm(api, mp, token)
    refused(lambda: list_accounts(api, mp, token), Code.PERMISSION_DENIED)
    api.accounts.AssignRole(pb.AssignRoleRequest(marketplace_id=mp, account_id=party.account_id, role=ROLE_ADMIN),
                            metadata=operator.md(), timeout=TIMEOUT)
    list_accounts(api, mp, token)
    api.accounts.RevokeRole(pb.RevokeRoleRequest(marketplace_id=mp, account_id=party.account_id, role=ROLE_ADMIN,
                                                  reason="Left the team"),
                            metadata=operator.md(), timeout=TIMEOUT)
    refused(lambda: list_accounts(api, mp, token), Code.PERMISSION_DENIED)
