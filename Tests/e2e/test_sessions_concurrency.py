"""Refresh retries and the sign-in lockout with many calls in flight at once, through grpcio
against a real server: a retried or concurrent Refresh gets the same pair until the marketplace's
reuse interval ends, then the retired token ends the session; wrong passwords sent at once are
counted up to the limit and the rest refused as locked, and a right one among them signs in."""
import time

import grpc
import pytest

from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, Api, Duration, FieldMask, Reason, bearer, create_marketplace, operator_party, pb,
    refused, sign_up,
)
from souk_protos import error_reason

Code = grpc.StatusCode
WRONG_PASSWORD = "Wr0ng!Password"


@pytest.fixture(scope="module")
def template(identity_server):
    """DineSwift: the demo marketplace fresh ones are copied from (no e-mail domain rule)."""
    return identity_server.marketplace_id("DineSwift")


def refresh(api, marketplace_id, refresh_token):
    return api.accounts.Refresh(pb.RefreshRequest(marketplace_id=marketplace_id, refresh_token=refresh_token),
                                timeout=TIMEOUT)


def at_once(call, requests):
    """Sends every request before waiting for any answer; returns each answer or RpcError, in order."""
    futures = [call.future(request, timeout=TIMEOUT) for request in requests]
    outcomes = []
    for future in futures:
        try:
            outcomes.append(future.result())
        except grpc.RpcError as error:
            outcomes.append(error)
    return outcomes


def reason_of(outcome):
    """The ErrorInfo reason of a refusal; None for an answer."""
    if not isinstance(outcome, grpc.RpcError):
        return None
    reason = error_reason(outcome)
    assert reason is not None, f"ErrorInfo missing: {outcome.code()} {outcome.details()!r}"
    return reason


# ---- Refresh retries ----

def test_refreshes_sent_at_once_with_one_token_all_get_the_same_pair(api, operator, template):
    fresh = create_marketplace(api, operator, template, refresh_reuse_seconds=1)
    party = sign_up(api, fresh.id)
    first = party.session
    request = pb.RefreshRequest(marketplace_id=fresh.id, refresh_token=first.refresh_token)
    outcomes = at_once(api.accounts.Refresh, [request] * 8)
    refusals = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert not refusals, f"a concurrent refresh was refused: {[(e.code(), e.details()) for e in refusals]}"
    assert len({(o.access_token, o.refresh_token, o.access_token_expire_time.seconds) for o in outcomes}) == 1
    pair = outcomes[0]
    assert pair.refresh_token != first.refresh_token and pair.session_id == first.session_id
    # The interval is 1 second from the rotation; after it the retired token ends the session.
    time.sleep(1.2)
    refused(lambda: refresh(api, fresh.id, first.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)
    refused(lambda: refresh(api, fresh.id, pair.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)


def test_a_refresh_whose_answer_was_lost_gets_the_same_pair_again(api, identity_server, template):
    party = sign_up(api, template)
    first = party.session
    pair = refresh(api, template, first.refresh_token)
    again = refresh(api, template, first.refresh_token)
    assert (again.access_token, again.refresh_token) == (pair.access_token, pair.refresh_token)
    assert api.accounts.GetMe(pb.GetMeRequest(marketplace_id=template), metadata=bearer(again.access_token),
                              timeout=TIMEOUT).id == party.account_id
    # The pair keeps rotating as usual.
    assert refresh(api, template, again.refresh_token).refresh_token != again.refresh_token


def test_the_reuse_interval_is_a_validated_marketplace_setting(api, operator, template):
    fresh = create_marketplace(api, operator, template)
    assert fresh.settings.accounts.refresh_reuse_interval.seconds == 30

    def set_interval(seconds):
        return api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
            marketplace_id=fresh.id, expected_version=fresh.version,
            settings=pb.MarketplaceSettings(accounts=pb.AccountSettings(refresh_reuse_interval=Duration(seconds=seconds))),
            update_mask=FieldMask(paths=["accounts.refresh_reuse_interval"])), metadata=operator.md(), timeout=TIMEOUT)

    for seconds in (0, 301):
        refused(lambda: set_interval(seconds), Code.INVALID_ARGUMENT, field="settings.accounts.refresh_reuse_interval")
    updated = set_interval(5)
    assert updated.settings.accounts.refresh_reuse_interval.seconds == 5
    assert updated.settings.accounts.max_failed_logins == fresh.settings.accounts.max_failed_logins


# ---- Lockout ----

def login_request(marketplace_id, email, password):
    return pb.LoginRequest(marketplace_id=marketplace_id, email=email, password=password)


def test_wrong_passwords_at_once_count_up_to_the_limit_and_the_rest_are_refused_as_locked(api, operator, template):
    fresh = create_marketplace(api, operator, template, lockout_seconds=60)
    party = sign_up(api, fresh.id)
    outcomes = at_once(api.accounts.Login, [login_request(fresh.id, party.email, WRONG_PASSWORD)] * 12)
    bad = [o for o in outcomes if reason_of(o) == Reason.ERROR_REASON_BAD_CREDENTIALS]
    locked = [o for o in outcomes if reason_of(o) == Reason.ERROR_REASON_ACCOUNT_LOCKED]
    assert (len(bad), len(locked)) == (5, 7), [(o.code(), o.details()) for o in outcomes]
    assert all(o.code() == Code.UNAUTHENTICATED for o in bad)
    assert all(o.code() == Code.RESOURCE_EXHAUSTED for o in locked)
    account = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=fresh.id, account_id=party.account_id),
                                      metadata=operator.md(), timeout=TIMEOUT)
    assert account.failed_login_count == 5 and account.locked_until.seconds > time.time()
    refused(lambda: api.accounts.Login(login_request(fresh.id, party.email, STRONG_PASSWORD), timeout=TIMEOUT),
            Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_ACCOUNT_LOCKED)


def test_a_right_password_among_wrong_ones_at_once_signs_in(api, operator, template):
    fresh = create_marketplace(api, operator, template, lockout_seconds=60)
    party = sign_up(api, fresh.id)
    for _ in range(3):
        requests = [login_request(fresh.id, party.email, WRONG_PASSWORD)] * 4
        requests.insert(2, login_request(fresh.id, party.email, STRONG_PASSWORD))
        outcomes = at_once(api.accounts.Login, requests)
        assert not isinstance(outcomes[2], grpc.RpcError), f"the right password was refused: {outcomes[2].details()!r}"
        assert outcomes[2].account.id == party.account_id
        assert [reason_of(o) for i, o in enumerate(outcomes) if i != 2] == [Reason.ERROR_REASON_BAD_CREDENTIALS] * 4
        # The count is back under the limit: the right password signs in again at once.
        api.accounts.Login(login_request(fresh.id, party.email, STRONG_PASSWORD), timeout=TIMEOUT)


# ---- The access token a refresh replaced ----

@pytest.fixture(scope="module")
def slow_tokens():
    """A server whose access tokens live 6 seconds: long enough to use a replaced one, short enough to see it end."""
    from conftest import IdentityServer, stop_cleanly
    server = IdentityServer(6)
    with server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        yield server, Api(channel)
    stop_cleanly(server)


def test_calls_sent_with_the_token_a_refresh_replaced_are_answered_until_it_expires(slow_tokens):
    server, api = slow_tokens
    marketplace = server.marketplace_id("DineSwift")
    party = sign_up(api, marketplace)
    old = party.session
    # Refreshed 2 seconds into the old token's 6, so the new one outlives it by 2.
    issued = time.time()
    while time.time() < issued + 2:
        time.sleep(0.05)
    new = refresh(api, marketplace, old.refresh_token)
    assert new.access_token != old.access_token
    # Calls a client sent before its refresh answer arrived: both tokens work, concurrently.
    calls = [api.accounts.GetMe.future(pb.GetMeRequest(marketplace_id=marketplace), metadata=bearer(token), timeout=TIMEOUT)
             for token in (old.access_token, new.access_token) * 4]
    assert {call.result().id for call in calls} == {party.account_id}
    # The replaced token ends at its own expiry, as any access token; the new one goes on.
    expiry = old.access_token_expire_time.seconds + old.access_token_expire_time.nanos / 1e9
    while time.time() < expiry + 0.2:
        time.sleep(0.05)
    refused(lambda: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=marketplace), metadata=bearer(old.access_token),
                                       timeout=TIMEOUT), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_TOKEN_EXPIRED)
    assert api.accounts.GetMe(pb.GetMeRequest(marketplace_id=marketplace), metadata=bearer(new.access_token),
                              timeout=TIMEOUT).id == party.account_id


def test_a_second_refresh_retires_the_first_replaced_token(slow_tokens):
    server, api = slow_tokens
    marketplace = server.marketplace_id("DineSwift")
    party = sign_up(api, marketplace)
    first = party.session
    second = refresh(api, marketplace, first.refresh_token)
    third = refresh(api, marketplace, second.refresh_token)
    # Only the latest replaced token is kept: the first pair's is unknown now.
    refused(lambda: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=marketplace), metadata=bearer(first.access_token),
                                       timeout=TIMEOUT), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_TOKEN_INVALID)
    for token in (second.access_token, third.access_token):
        assert api.accounts.GetMe(pb.GetMeRequest(marketplace_id=marketplace), metadata=bearer(token),
                                  timeout=TIMEOUT).id == party.account_id
