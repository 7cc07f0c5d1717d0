"""Limits on the calls that guess or mail (platform decision 22): sign-in, sign-up, password reset
and verification codes, per network address and per account or e-mail, set in a marketplace's
settings; a call over a limit answers RESOURCE_EXHAUSTED (RATE_LIMITED) with RetryInfo and does
nothing else. Each test sets tight limits on a fresh marketplace of its own (the counters are
per marketplace); the defaults never get in the way of normal use. Password reset answers alike
for an unknown e-mail, limits included."""
import grpc
import pytest
from google.rpc import error_details_pb2

from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, Api, Duration, FieldMask, MailKind, Reason, create_marketplace, operator_party, outbox, pb,
    refused, reset_token_in, sign_up, unique_email,
)
from souk_protos import status_detail

Code = grpc.StatusCode
HOUR = Duration(seconds=3600)


@pytest.fixture(scope="module")
def template(identity_server):
    return identity_server.marketplace_id("DineSwift")


def limited_marketplace(api, operator, template, **limits):
    """A fresh marketplace whose named limits allow `count` calls an hour."""
    fresh = create_marketplace(api, operator, template)
    rate_limits = pb.AuthRateLimits(**{name: pb.RateLimit(count=count, window=HOUR) for name, count in limits.items()})
    return api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=fresh.id, expected_version=fresh.version,
        settings=pb.MarketplaceSettings(accounts=pb.AccountSettings(rate_limits=rate_limits)),
        update_mask=FieldMask(paths=["accounts.rate_limits"])), metadata=operator.md(), timeout=TIMEOUT)


def rate_limited(call, limit: str):
    """`call()` must be refused as RATE_LIMITED by `limit`, with a RetryInfo to wait by."""
    error = refused(call, Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_RATE_LIMITED)
    info = status_detail(error, error_details_pb2.ErrorInfo)
    assert info.metadata["limit"] == limit, info
    retry = status_detail(error, error_details_pb2.RetryInfo)
    assert retry is not None and retry.retry_delay.ToMicroseconds() > 0, "RetryInfo must say how long to wait"
    return error


def login(api, marketplace_id, email, password=STRONG_PASSWORD):
    return api.accounts.Login(pb.LoginRequest(marketplace_id=marketplace_id, email=email, password=password),
                              timeout=TIMEOUT)


def request_reset(api, marketplace_id, email):
    return api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(marketplace_id=marketplace_id, email=email),
                                             timeout=TIMEOUT)


def test_the_limits_are_validated_settings_that_read_back(api, operator, template):
    fresh = limited_marketplace(api, operator, template, sign_in_per_account=3)
    limits = fresh.settings.accounts.rate_limits
    assert limits.sign_in_per_account.count == 3 and limits.sign_in_per_account.window.seconds == 3600
    assert not limits.HasField("sign_up_per_address")  # unset: the default applies

    def bad(limit):
        return api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
            marketplace_id=fresh.id, expected_version=fresh.version,
            settings=pb.MarketplaceSettings(accounts=pb.AccountSettings(
                rate_limits=pb.AuthRateLimits(password_reset_per_account=limit))),
            update_mask=FieldMask(paths=["accounts.rate_limits"])), metadata=operator.md(), timeout=TIMEOUT)

    refused(lambda: bad(pb.RateLimit(count=100_001)), Code.INVALID_ARGUMENT,
            field="settings.accounts.rate_limits.password_reset_per_account.count")
    refused(lambda: bad(pb.RateLimit(count=5, window=Duration(seconds=86_401))), Code.INVALID_ARGUMENT,
            field="settings.accounts.rate_limits.password_reset_per_account.window")


def test_sign_ins_for_one_email_are_limited_right_or_wrong(api, operator, template):
    fresh = limited_marketplace(api, operator, template, sign_in_per_account=3)
    party = sign_up(api, fresh.id)
    other = sign_up(api, fresh.id)
    login(api, fresh.id, party.email)
    refused(lambda: login(api, fresh.id, party.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    login(api, fresh.id, party.email.upper())  # the same e-mail, in other case
    rate_limited(lambda: login(api, fresh.id, party.email), "sign_in_per_account")
    # Refused before the password is checked: a wrong one is not counted toward the lockout.
    rate_limited(lambda: login(api, fresh.id, party.email, "Wr0ng!Password"), "sign_in_per_account")
    # Another account of the same address is not held up.
    assert login(api, fresh.id, other.email).account.id == other.account_id
    account = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=fresh.id, account_id=party.account_id),
                                      metadata=operator.md(), timeout=TIMEOUT)
    assert account.failed_login_count == 0


def test_sign_ins_from_one_address_are_limited(api, operator, template):
    fresh = limited_marketplace(api, operator, template, sign_in_per_address=3)
    parties = [sign_up(api, fresh.id) for _ in range(4)]
    for party in parties[:3]:
        login(api, fresh.id, party.email)
    rate_limited(lambda: login(api, fresh.id, parties[3].email), "sign_in_per_address")
    # Counted per marketplace: the same address signs in elsewhere.
    elsewhere = sign_up(api, template)
    login(api, template, elsewhere.email)


def test_sign_ups_from_one_address_are_limited(api, operator, template):
    fresh = limited_marketplace(api, operator, template, sign_up_per_address=2)
    sign_up(api, fresh.id)
    sign_up(api, fresh.id)
    email = unique_email("late")
    rate_limited(lambda: sign_up(api, fresh.id, email=email), "sign_up_per_address")
    # Nothing was created: the e-mail is still free elsewhere and unknown here.
    refused(lambda: login(api, fresh.id, email), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_BAD_CREDENTIALS)


def test_password_resets_for_one_email_are_limited_whether_or_not_it_exists(api, operator, template):
    fresh = limited_marketplace(api, operator, template, password_reset_per_account=2)
    party = sign_up(api, fresh.id)
    nobody = unique_email("nobody")
    for email in (party.email, nobody):
        request_reset(api, fresh.id, email)
        request_reset(api, fresh.id, email)
        # The same refusal for an e-mail with an account and one without.
        rate_limited(lambda: request_reset(api, fresh.id, email), "password_reset_per_account")
    resets = [m for m in outbox(api, operator, fresh.id) if m.kind == MailKind.MAIL_KIND_PASSWORD_RESET]
    assert sorted(m.to_address for m in resets) == [party.email] * 2
    assert not [m for m in resets if m.to_address == nobody]


def test_password_reset_calls_from_one_address_are_limited(api, operator, template):
    fresh = limited_marketplace(api, operator, template, password_reset_per_address=3)
    party = sign_up(api, fresh.id)
    request_reset(api, fresh.id, party.email)
    request_reset(api, fresh.id, unique_email("a"))
    [mail] = [m for m in outbox(api, operator, fresh.id) if m.kind == MailKind.MAIL_KIND_PASSWORD_RESET]
    api.accounts.ConfirmPasswordReset(pb.ConfirmPasswordResetRequest(
        marketplace_id=fresh.id, reset_token=reset_token_in(mail.body), new_password="N3w!Passw0rd"), timeout=TIMEOUT)
    # Confirming counts too: guessing tokens is limited like asking for them.
    rate_limited(lambda: api.accounts.ConfirmPasswordReset(pb.ConfirmPasswordResetRequest(
        marketplace_id=fresh.id, reset_token="guess", new_password="N3w!Passw0rd"), timeout=TIMEOUT),
        "password_reset_per_address")
    rate_limited(lambda: request_reset(api, fresh.id, unique_email("b")), "password_reset_per_address")


def test_verification_calls_of_one_account_are_limited(api, operator, template):
    fresh = limited_marketplace(api, operator, template, verification_per_account=2)
    party = sign_up(api, fresh.id)
    other = sign_up(api, fresh.id)
    api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=fresh.id), metadata=party.md(),
                                      timeout=TIMEOUT)

    def verify(who, code):
        return api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=fresh.id, code=code), metadata=who.md(),
                                        timeout=TIMEOUT)

    refused(lambda: verify(party, "000000x"), Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    rate_limited(lambda: verify(party, "000000y"), "verification_per_account")
    # The other account of the same address still verifies.
    api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=fresh.id), metadata=other.md(),
                                      timeout=TIMEOUT)


def test_verification_calls_from_one_address_are_limited(api, operator, template):
    fresh = limited_marketplace(api, operator, template, verification_per_address=2)
    parties = [sign_up(api, fresh.id) for _ in range(3)]
    for party in parties[:2]:
        api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=fresh.id), metadata=party.md(),
                                          timeout=TIMEOUT)
    rate_limited(lambda: api.accounts.SendVerificationCode(
        pb.SendVerificationCodeRequest(marketplace_id=fresh.id), metadata=parties[2].md(), timeout=TIMEOUT),
        "verification_per_address")


def test_normal_use_never_meets_the_default_limits(api, operator, template):
    """What a household of users does in a busy hour, from one address, under the defaults."""
    fresh = create_marketplace(api, operator, template)
    assert not fresh.settings.accounts.HasField("rate_limits")
    parties = [sign_up(api, fresh.id) for _ in range(10)]
    for party in parties:
        for _ in range(3):
            login(api, fresh.id, party.email)
        api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=fresh.id), metadata=party.md(),
                                          timeout=TIMEOUT)
    # A forgetful user: a few wrong passwords, two reset mails, then the right password.
    forgetful = parties[0]
    for _ in range(3):
        refused(lambda: login(api, fresh.id, forgetful.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
                reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    request_reset(api, fresh.id, forgetful.email)
    request_reset(api, fresh.id, forgetful.email)
    login(api, fresh.id, forgetful.email)
