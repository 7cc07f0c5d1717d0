"""Every account flow of souk.v1.Accounts, end to end: sign-up and its refusals, sessions and
tokens (expiry, rotation, revocation), profile, passwords and reset, deletion, lockout, and the
admin side (listing, role decisions, blocking), against a server started with --demo."""
import time

import grpc
import pytest
from google.rpc import error_details_pb2

from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, AccountState, Api, FieldMask, MailKind, MailStatus, Party, Reason, ResourceType, Role,
    RoleStatus, all_pages, assert_not_expired, bearer, code_of, create_marketplace, login_party, operator_party,
    outbox, pb, refused, request_id, reset_token_in, role_status, seconds, sign_up, unique_email,
)
from souk_protos import status_detail

Code = grpc.StatusCode
DINESWIFT = "DineSwift"


@pytest.fixture(scope="module")
def mp(identity_server):
    """DineSwift's marketplace id: the marketplace most tests act in (no e-mail domain rule)."""
    return identity_server.marketplace_id(DINESWIFT)


@pytest.fixture(scope="module")
def admin(api, identity_server):
    return login_party(api, identity_server.demo_login(DINESWIFT, "admin"))


def login(api, marketplace_id, email, password):
    return api.accounts.Login(pb.LoginRequest(marketplace_id=marketplace_id, email=email, password=password),
                              timeout=TIMEOUT)


def get_me(api, marketplace_id, access_token):
    return api.accounts.GetMe(pb.GetMeRequest(marketplace_id=marketplace_id), metadata=bearer(access_token),
                              timeout=TIMEOUT)


def refresh(api, marketplace_id, refresh_token):
    return api.accounts.Refresh(pb.RefreshRequest(marketplace_id=marketplace_id, refresh_token=refresh_token),
                                timeout=TIMEOUT)


def signup_request(marketplace_id, **fields):
    values = dict(marketplace_id=marketplace_id, request_id=request_id(), email=unique_email(),
                  password=STRONG_PASSWORD, given_name="Test", family_name="User")
    values.update(fields)
    return pb.SignUpRequest(**values)


def rename(api, party: Party, given_name: str) -> int:
    """Changes the party's given name (so earlier versions go stale); returns the new version."""
    me = party.me()
    return api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=party.marketplace_id, account=pb.Account(id=party.account_id, given_name=given_name),
        update_mask=FieldMask(paths=["given_name"]), expected_version=me.version),
        metadata=party.md(), timeout=TIMEOUT).version


def account_of(api, reader: Party, marketplace_id, account_id):
    return api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=marketplace_id, account_id=account_id),
                                   metadata=reader.md(), timeout=TIMEOUT)


# ---- Sign up ----

def test_sign_up_creates_an_active_customer_signed_in_at_once(api, mp):
    email = unique_email("Mixed.Case")
    response = api.accounts.SignUp(signup_request(mp, email=email, given_name="Layla", family_name="Haddad",
                                                  phone="+966512345678"), timeout=TIMEOUT)
    account = response.account
    assert account.id and account.marketplace_id == mp
    assert account.email == email, "the e-mail is kept as typed"
    assert (account.given_name, account.family_name, account.phone) == ("Layla", "Haddad", "+966512345678")
    assert account.state == AccountState.ACCOUNT_STATE_ACTIVE
    assert [(g.role, g.status) for g in account.roles] == [(Role.ROLE_CUSTOMER, RoleStatus.ROLE_STATUS_ACTIVE)]
    assert account.version == 1
    session = response.session
    assert session.access_token and session.refresh_token and session.session_id
    assert seconds(session.refresh_token_expire_time) > seconds(session.access_token_expire_time) > time.time()
    assert session.account.id == account.id
    assert get_me(api, mp, session.access_token).id == account.id


@pytest.mark.parametrize("role", ["ROLE_PROVIDER", "ROLE_COURIER", "ROLE_ADMIN"])
def test_sign_up_asking_for_a_role_leaves_it_pending(api, mp, role):
    response = api.accounts.SignUp(signup_request(mp, requested_roles=[getattr(Role, role)]), timeout=TIMEOUT)
    assert role_status(response.account, Role.ROLE_CUSTOMER) == RoleStatus.ROLE_STATUS_ACTIVE
    assert role_status(response.account, getattr(Role, role)) == RoleStatus.ROLE_STATUS_PENDING


def test_a_pending_role_grants_nothing(api, mp):
    party = sign_up(api, mp, requested_roles=[Role.ROLE_PROVIDER])
    # CreateMenuItem is for active providers (a pending one may only describe its restaurant).
    refused(lambda: api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(marketplace_id=mp, request_id=request_id()),
                                                metadata=party.md(), timeout=TIMEOUT),
            Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_ROLE_PENDING)


@pytest.mark.parametrize("email", [
    "plainaddress", "no-at.example.com", "user@", "@example.com", "two@@example.com", "sp ace@example.com",
    "user@exa mple.com", "",
])
def test_sign_up_refuses_bad_email_syntax(api, mp, email):
    refused(lambda: api.accounts.SignUp(signup_request(mp, email=email), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="email")


@pytest.mark.parametrize("phone", [
    "0512345678", "966512345678", "+966 51 234 5678", "+966-51-234-5678", "+0512345678", "+9665123456789012",
    "+96651234567a", "phone",
])
def test_sign_up_refuses_a_phone_not_in_e164(api, mp, phone):
    refused(lambda: api.accounts.SignUp(signup_request(mp, phone=phone), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="phone")


@pytest.mark.parametrize("phone", ["+966512345678", "+14155550123", "+84901234567", "+60123456789"])
def test_sign_up_accepts_e164_phones(api, mp, phone):
    account = api.accounts.SignUp(signup_request(mp, phone=phone), timeout=TIMEOUT).account
    assert account.phone == phone


@pytest.mark.parametrize("name", [
    "محمد العتيبي", "Nguyễn Văn An", "王小明", "José-María O'Neil", "a" * 120, "王" * 120,
])
def test_sign_up_accepts_names_in_any_script_up_to_120_characters(api, mp, name):
    account = api.accounts.SignUp(signup_request(mp, given_name=name, family_name=name), timeout=TIMEOUT).account
    assert (account.given_name, account.family_name) == (name, name)


@pytest.mark.parametrize("field,value", [
    ("given_name", "Ann\x07e"), ("given_name", "Ann\ne"), ("given_name", "Ann\x00e"), ("given_name", "Ann\x7fe"),
    ("family_name", "Smith\t"), ("family_name", "Sm\x1bith"),
    ("given_name", "a" * 121), ("family_name", "王" * 121),
])
def test_sign_up_refuses_control_characters_and_names_over_120_characters(api, mp, field, value):
    refused(lambda: api.accounts.SignUp(signup_request(mp, **{field: value}), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field=field)


@pytest.mark.parametrize("password,missing", [
    ("nouppercase1!", "upper-case letter"),
    ("NOLOWERCASE1!", "lower-case letter"),
    ("NoDigitsHere!", "digit"),
    ("NoSpecial123", "special character"),
    ("Sh0rt!a", "eighth character"),
])
def test_sign_up_refuses_weak_passwords(api, mp, password, missing):
    refused(lambda: api.accounts.SignUp(signup_request(mp, password=password), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="password", reason=Reason.ERROR_REASON_WEAK_PASSWORD)


def test_sign_up_accepts_a_password_with_every_class_at_eight_characters(api, mp):
    party = sign_up(api, mp, password="Aa1!aaaa")
    login(api, mp, party.email, "Aa1!aaaa")


def test_sign_up_refuses_a_taken_email_in_another_case(api, mp):
    email = unique_email("Dup.User")
    api.accounts.SignUp(signup_request(mp, email=email), timeout=TIMEOUT)
    refused(lambda: api.accounts.SignUp(signup_request(mp, email=email.swapcase()), timeout=TIMEOUT),
            Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_EMAIL_TAKEN)


def test_sign_up_outside_the_allowed_email_domains_is_refused(api, identity_server):
    drip = identity_server.marketplace_id("Drip 'n Dash")
    # A valid laundry profile (required there), taken from a demo account, so only the domain is wrong.
    profile = login_party(api, identity_server.demo_login("Drip 'n Dash", "customer")).session.account.laundry_profile
    assert profile.dorm_id, "the Drip 'n Dash demo customer should carry a laundry profile"
    for email in [unique_email("student", "gmail.com"), unique_email("student", "notrutgers.edu"),
                  unique_email("student", "scarletmail.rutgers.edu.evil.com")]:
        refused(lambda: api.accounts.SignUp(signup_request(drip, email=email, laundry_profile=profile),
                                            timeout=TIMEOUT),
                Code.INVALID_ARGUMENT, field="email", reason=Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED)
    for email in [unique_email("student", "rutgers.edu"), unique_email("student", "Rutgers.EDU")]:
        account = api.accounts.SignUp(signup_request(drip, email=email, laundry_profile=profile),
                                      timeout=TIMEOUT).account
        assert account.laundry_profile == profile


def test_sign_up_is_idempotent_by_request_id(api, mp, admin):
    first_request = signup_request(mp)
    first = api.accounts.SignUp(first_request, timeout=TIMEOUT)
    again = api.accounts.SignUp(first_request, timeout=TIMEOUT)
    assert again.account.id == first.account.id
    listed = api.accounts.ListAccounts(pb.ListAccountsRequest(marketplace_id=mp, email_prefix=first_request.email),
                                       metadata=admin.md(), timeout=TIMEOUT).accounts
    assert [a.id for a in listed] == [first.account.id], "a retried sign-up must not create a second account"

    other = pb.SignUpRequest()
    other.CopyFrom(first_request)
    other.email = unique_email()
    refused(lambda: api.accounts.SignUp(other, timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="request_id",
            reason=Reason.ERROR_REASON_REQUEST_ID_REUSED)
    refused(lambda: login(api, mp, other.email, STRONG_PASSWORD), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)

    refused(lambda: api.accounts.SignUp(signup_request(mp, request_id=""), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="request_id")


# ---- Log in, tokens ----

def test_login_returns_a_working_token_pair(api, mp):
    party = sign_up(api, mp)
    session = login(api, mp, party.email.upper(), STRONG_PASSWORD)  # e-mail compared case-insensitively
    assert session.account.id == party.account_id
    assert session.session_id != party.session.session_id
    assert get_me(api, mp, session.access_token).id == party.account_id
    assert seconds(session.account.last_login_time) > 0


def test_unknown_email_and_wrong_password_get_the_same_answer(api, mp):
    party = sign_up(api, mp)
    wrong_password = refused(lambda: login(api, mp, party.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
                             reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    unknown_email = refused(lambda: login(api, mp, unique_email("nobody"), "Wr0ng!Password"), Code.UNAUTHENTICATED,
                            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert wrong_password.details() == unknown_email.details()


def test_calls_without_or_with_a_bad_token_are_unauthenticated(api, mp):
    refused(lambda: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=mp), timeout=TIMEOUT), Code.UNAUTHENTICATED)
    refused(lambda: get_me(api, mp, "not-a-token"), Code.UNAUTHENTICATED)
    refused(lambda: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=mp), metadata=(("authorization", "Basic abc"),),
                                       timeout=TIMEOUT), Code.UNAUTHENTICATED)


def test_access_token_expires_and_refresh_gives_a_new_one(api, mp, identity_server):
    party = sign_up(api, mp)
    session = party.session
    left = seconds(session.access_token_expire_time) - time.time()
    assert 0 < left <= identity_server.access_token_ttl + 0.5, f"--access-token-ttl not applied: {left:.2f}s left"
    assert get_me(api, mp, session.access_token).id == party.account_id
    time.sleep(left + 0.5)
    refused(lambda: get_me(api, mp, session.access_token), Code.UNAUTHENTICATED)
    renewed = refresh(api, mp, session.refresh_token)
    assert renewed.access_token != session.access_token
    assert get_me(api, mp, renewed.access_token).id == party.account_id


def test_refresh_rotates_and_reusing_an_old_refresh_token_revokes_the_session(api, mp):
    party = sign_up(api, mp)
    first = party.session
    second = refresh(api, mp, first.refresh_token)
    assert second.refresh_token != first.refresh_token and second.access_token != first.access_token
    assert second.account.id == party.account_id
    third = refresh(api, mp, second.refresh_token)
    # The first token's pair was itself rotated, so even within the reuse interval it is no retry.
    refused(lambda: refresh(api, mp, first.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)
    # The reuse looks like a stolen token: the whole session ends, the newer pair included.
    assert_not_expired(third)
    refused(lambda: get_me(api, mp, third.access_token), Code.UNAUTHENTICATED)
    refused(lambda: refresh(api, mp, third.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)
    # Other sessions of the account are not touched.
    login(api, mp, party.email, STRONG_PASSWORD)


def test_refresh_refuses_unknown_tokens(api, mp):
    refused(lambda: refresh(api, mp, "no-such-refresh-token"), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)


def test_logout_revokes_the_session(api, mp):
    party = sign_up(api, mp)
    other = login(api, mp, party.email, STRONG_PASSWORD)
    session = party.session
    assert get_me(api, mp, session.access_token).id == party.account_id
    ended = api.accounts.Logout(pb.LogoutRequest(marketplace_id=mp), metadata=bearer(session.access_token),
                                timeout=TIMEOUT)
    assert ended.ended_sessions == 1
    assert_not_expired(session)
    refused(lambda: get_me(api, mp, session.access_token), Code.UNAUTHENTICATED)
    refused(lambda: refresh(api, mp, session.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)
    # The other session lives on.
    assert refresh(api, mp, other.refresh_token).account.id == party.account_id


def test_logout_of_all_sessions(api, mp):
    party = sign_up(api, mp)
    other = login(api, mp, party.email, STRONG_PASSWORD)
    ended = api.accounts.Logout(pb.LogoutRequest(marketplace_id=mp, all_sessions=True),
                                metadata=bearer(other.access_token), timeout=TIMEOUT)
    assert ended.ended_sessions == 2
    for session in (party.session, other):
        refused(lambda: refresh(api, mp, session.refresh_token), Code.UNAUTHENTICATED,
                reason=Reason.ERROR_REASON_TOKEN_INVALID)
    assert_not_expired(other)
    refused(lambda: get_me(api, mp, other.access_token), Code.UNAUTHENTICATED)


# ---- Profile ----

def test_get_and_update_own_profile(api, mp):
    party = sign_up(api, mp, email=unique_email("Owner"))
    me = party.me()
    assert me.id == party.account_id and me.email == party.email

    def update(paths, version, **account_fields):
        account = pb.Account(id=party.account_id, **account_fields)
        return api.accounts.UpdateProfile(pb.UpdateProfileRequest(
            marketplace_id=mp, account=account, update_mask=FieldMask(paths=paths), expected_version=version),
            metadata=party.md(), timeout=TIMEOUT)

    updated = update(["given_name", "family_name", "phone", "locale"], me.version, given_name="Nguyễn",
                     family_name="Văn An", phone="+84901234567", locale="vi-VN")
    assert (updated.given_name, updated.family_name, updated.phone, updated.locale) == \
        ("Nguyễn", "Văn An", "+84901234567", "vi-VN")
    assert updated.version == me.version + 1
    assert party.me().given_name == "Nguyễn"

    # Keeping one's own e-mail, in the same or another case, is not a conflict.
    kept = update(["email", "given_name"], updated.version, email=party.email, given_name="Kept")
    assert kept.email == party.email and kept.given_name == "Kept"
    recased = update(["email"], kept.version, email=party.email.upper())
    assert recased.email == party.email.upper()

    # Another account's e-mail, in any case, is taken.
    other = sign_up(api, mp, email=unique_email("Other"))
    refused(lambda: update(["email"], recased.version, email=other.email.swapcase()), Code.ALREADY_EXISTS,
            reason=Reason.ERROR_REASON_EMAIL_TAKEN)

    # A stale version is refused, and nothing changes.
    refused(lambda: update(["given_name"], updated.version, given_name="Stale"), Code.ABORTED,
            reason=Reason.ERROR_REASON_STALE_VERSION)
    assert party.me().given_name == "Kept"

    refused(lambda: update(["phone"], recased.version, phone="0901234567"), Code.INVALID_ARGUMENT,
            field="account.phone")
    refused(lambda: update(["email"], recased.version, email="not-an-email"), Code.INVALID_ARGUMENT,
            field="account.email")
    refused(lambda: update(["given_name"], recased.version, given_name="Bad\x07Name"), Code.INVALID_ARGUMENT,
            field="account.given_name")
    refused(lambda: update(["given_name"], recased.version, given_name="a" * 121), Code.INVALID_ARGUMENT,
            field="account.given_name")
    # Output-only fields in the mask are refused.
    refused(lambda: update(["failed_login_count"], recased.version), Code.INVALID_ARGUMENT)


def test_a_customer_cannot_read_or_update_another_account(api, mp):
    owner, intruder = sign_up(api, mp), sign_up(api, mp)
    refused(lambda: account_of(api, intruder, mp, owner.account_id), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_NOT_ALLOWED)
    refused(lambda: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=mp, account=pb.Account(id=owner.account_id, given_name="Hacked"),
        update_mask=FieldMask(paths=["given_name"]), expected_version=1), metadata=intruder.md(), timeout=TIMEOUT),
        Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)
    assert account_of(api, owner, mp, owner.account_id).given_name == "Test"


def test_an_admin_updates_any_profile_in_the_marketplace(api, mp, admin):
    party = sign_up(api, mp)
    updated = api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=mp, account=pb.Account(id=party.account_id, given_name="Fixed"),
        update_mask=FieldMask(paths=["given_name"]), expected_version=1), metadata=admin.md(), timeout=TIMEOUT)
    assert updated.given_name == "Fixed" and updated.version == 2


def test_drip_n_dash_profile_email_must_stay_in_the_allowed_domains(api, identity_server):
    drip = identity_server.marketplace_id("Drip 'n Dash")
    profile = login_party(api, identity_server.demo_login("Drip 'n Dash", "customer")).session.account.laundry_profile
    party = sign_up(api, drip, email=unique_email("student", "rutgers.edu"), laundry_profile=profile)
    refused(lambda: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=drip, account=pb.Account(id=party.account_id, email=unique_email("student", "gmail.com")),
        update_mask=FieldMask(paths=["email"]), expected_version=party.me().version), metadata=party.md(),
        timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="account.email", reason=Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED)


# ---- Passwords ----

def test_change_password_ends_the_other_sessions(api, mp):
    party = sign_up(api, mp)
    old_session = party.session
    current = login(api, mp, party.email, STRONG_PASSWORD)

    def change(current_password, new_password):
        return api.accounts.ChangePassword(pb.ChangePasswordRequest(
            marketplace_id=mp, current_password=current_password, new_password=new_password),
            metadata=bearer(current.access_token), timeout=TIMEOUT)

    refused(lambda: change("Wr0ng!Password", "N3w!Password"), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    refused(lambda: change(STRONG_PASSWORD, "weakpassword"), Code.INVALID_ARGUMENT, field="new_password",
            reason=Reason.ERROR_REASON_WEAK_PASSWORD)
    assert change(STRONG_PASSWORD, "N3w!Password").ended_sessions == 1
    refused(lambda: refresh(api, mp, old_session.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)
    refused(lambda: login(api, mp, party.email, STRONG_PASSWORD), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert login(api, mp, party.email, "N3w!Password").account.id == party.account_id
    # The caller's own session stays valid.
    assert refresh(api, mp, current.refresh_token).account.id == party.account_id


def test_password_reset_through_the_mail_outbox_is_single_use(api, mp, operator, admin):
    party = sign_up(api, mp)
    before = party.session
    api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(marketplace_id=mp, email=party.email),
                                      timeout=TIMEOUT)
    # An unknown e-mail gets the same OK, and no mail.
    nobody = unique_email("nobody")
    api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(marketplace_id=mp, email=nobody),
                                      timeout=TIMEOUT)
    refused(lambda: api.accounts.RequestPasswordReset(
        pb.RequestPasswordResetRequest(marketplace_id=mp, email="not-an-email"), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="email")

    mails = outbox(api, operator, mp)
    assert not [m for m in mails if m.to_address.lower() == nobody.lower()]
    resets = [m for m in mails
              if m.kind == MailKind.MAIL_KIND_PASSWORD_RESET and m.to_address.lower() == party.email.lower()]
    assert len(resets) == 1, f"expected one reset mail to {party.email}, got {resets}"
    mail = resets[0]
    assert mail.account_id == party.account_id
    token = reset_token_in(mail.body)

    # Admins see the secret-bearing body redacted.
    [seen_by_admin] = [m for m in outbox(api, admin, mp) if m.id == mail.id]
    assert seen_by_admin.body == "[redacted]" and token not in seen_by_admin.SerializeToString().decode("latin-1")

    def confirm(reset_token, new_password):
        return api.accounts.ConfirmPasswordReset(pb.ConfirmPasswordResetRequest(
            marketplace_id=mp, reset_token=reset_token, new_password=new_password), timeout=TIMEOUT)

    refused(lambda: confirm("no-such-reset-token", "Res3t!Password"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)
    refused(lambda: confirm(token, "weak"), Code.INVALID_ARGUMENT, field="new_password",
            reason=Reason.ERROR_REASON_WEAK_PASSWORD)
    confirm(token, "Res3t!Password")
    refused(lambda: confirm(token, "Again!Passw0rd"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)

    refused(lambda: login(api, mp, party.email, STRONG_PASSWORD), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert login(api, mp, party.email, "Res3t!Password").account.id == party.account_id
    # All sessions from before the reset ended.
    refused(lambda: refresh(api, mp, before.refresh_token), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_TOKEN_INVALID)


def test_the_mail_outbox_filters_by_recipient_kind_and_status(api, mp, operator, admin):
    party = sign_up(api, mp)
    other = sign_up(api, mp)
    for who in (party, other):
        api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(marketplace_id=mp, email=who.email),
                                          timeout=TIMEOUT)
    api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=mp), metadata=party.md(),
                                      timeout=TIMEOUT)
    # The recipient compares case-insensitively.
    to_party = outbox(api, admin, mp, to_address=party.email.upper())
    assert sorted(m.kind for m in to_party) == sorted([MailKind.MAIL_KIND_PASSWORD_RESET,
                                                      MailKind.MAIL_KIND_EMAIL_VERIFICATION])
    assert all(m.account_id == party.account_id for m in to_party)
    resets = outbox(api, admin, mp, to_address=party.email, kinds=[MailKind.MAIL_KIND_PASSWORD_RESET])
    assert [m.kind for m in resets] == [MailKind.MAIL_KIND_PASSWORD_RESET]
    both = outbox(api, admin, mp, to_address=party.email, kinds=[MailKind.MAIL_KIND_PASSWORD_RESET,
                                                                  MailKind.MAIL_KIND_EMAIL_VERIFICATION],
                  statuses=[MailStatus.MAIL_STATUS_PENDING, MailStatus.MAIL_STATUS_SENT])
    assert len(both) == 2
    assert not outbox(api, admin, mp, to_address=party.email, statuses=[MailStatus.MAIL_STATUS_FAILED])
    # A kind alone reads its own index: every mail it lists is of that kind.
    verifications = outbox(api, admin, mp, kinds=[MailKind.MAIL_KIND_EMAIL_VERIFICATION])
    assert verifications and all(m.kind == MailKind.MAIL_KIND_EMAIL_VERIFICATION for m in verifications)
    assert party.email in {m.to_address for m in verifications}
    assert other.email not in {m.to_address for m in verifications}

    def listing(**filters):
        return api.admin.ListMailOutbox(pb.ListMailOutboxRequest(marketplace_id=mp, **filters),
                                        metadata=admin.md(), timeout=TIMEOUT)

    refused(lambda: listing(to_address="not-an-address"), Code.INVALID_ARGUMENT, field="to_address")
    refused(lambda: listing(kinds=[MailKind.MAIL_KIND_UNSPECIFIED]), Code.INVALID_ARGUMENT, field="kinds[0]")


# ---- Delete ----

def test_delete_own_account(api, mp, admin):
    party = sign_up(api, mp)
    stale = party.me().version
    version = rename(api, party, "Renamed")

    def delete(password, version):
        return api.accounts.DeleteAccount(pb.DeleteAccountRequest(marketplace_id=mp, password=password,
                                                                  expected_version=version),
                                          metadata=party.md(), timeout=TIMEOUT)

    refused(lambda: delete("Wr0ng!Password", version), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    refused(lambda: delete(STRONG_PASSWORD, stale), Code.ABORTED, reason=Reason.ERROR_REASON_STALE_VERSION)
    session = party.session
    delete(STRONG_PASSWORD, version)

    assert_not_expired(session)
    refused(lambda: get_me(api, mp, session.access_token), Code.UNAUTHENTICATED)
    refused(lambda: refresh(api, mp, session.refresh_token), Code.UNAUTHENTICATED)
    refused(lambda: login(api, mp, party.email, STRONG_PASSWORD), Code.UNAUTHENTICATED,
            reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    # Personal data is erased; the record may stay (orders refer to it) but shows nothing personal.
    try:
        gone = account_of(api, admin, mp, party.account_id)
        assert gone.state == AccountState.ACCOUNT_STATE_DELETED
        assert (gone.email, gone.family_name, gone.phone) == ("", "", "")
    except grpc.RpcError as error:
        assert error.code() == Code.NOT_FOUND
    # The e-mail is free again.
    again = sign_up(api, mp, email=party.email)
    assert again.account_id != party.account_id


# ---- Lockout ----

def test_five_failed_logins_lock_the_account_until_the_lockout_ends(api, identity_server, operator):
    fresh = create_marketplace(api, operator, identity_server.marketplace_id(DINESWIFT), lockout_seconds=2)
    party = sign_up(api, fresh.id)
    for _ in range(4):
        refused(lambda: login(api, fresh.id, party.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
                reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    with pytest.raises(grpc.RpcError) as fifth:
        login(api, fresh.id, party.email, "Wr0ng!Password")
    assert fifth.value.code() in (Code.UNAUTHENTICATED, Code.RESOURCE_EXHAUSTED)

    locked = refused(lambda: login(api, fresh.id, party.email, STRONG_PASSWORD), Code.RESOURCE_EXHAUSTED,
                     reason=Reason.ERROR_REASON_ACCOUNT_LOCKED)
    delay = seconds(status_detail(locked, error_details_pb2.RetryInfo).retry_delay)
    assert 0 < delay <= 2, "RetryInfo.retry_delay is what is left of the 2-second lockout"
    retry = time.time() + delay

    account = account_of(api, operator, fresh.id, party.account_id)
    # The delay was measured on the server before the answer travelled back.
    assert retry - 0.5 <= seconds(account.locked_until) <= retry

    time.sleep(max(0.0, retry - time.time()) + 0.3)
    assert login(api, fresh.id, party.email, STRONG_PASSWORD).account.id == party.account_id


def test_only_failed_logins_in_a_row_count_toward_the_lockout(api, identity_server, operator):
    fresh = create_marketplace(api, operator, identity_server.marketplace_id(DINESWIFT), lockout_seconds=2)
    party = sign_up(api, fresh.id)
    for _ in range(2):
        for _ in range(4):
            refused(lambda: login(api, fresh.id, party.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
                    reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
        login(api, fresh.id, party.email, STRONG_PASSWORD)


# ---- Administration ----

def test_admin_lists_accounts_by_role_and_status_across_pages(api, identity_server, operator):
    fresh = create_marketplace(api, operator, identity_server.marketplace_id(DINESWIFT))
    admin_email = unique_email("admin")
    created = api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=fresh.id, request_id=request_id(), email=admin_email, initial_password=STRONG_PASSWORD,
        given_name="Ada", family_name="Admin", roles=[Role.ROLE_ADMIN]), metadata=operator.md(), timeout=TIMEOUT)
    assert role_status(created, Role.ROLE_ADMIN) == RoleStatus.ROLE_STATUS_ACTIVE
    assert role_status(created, Role.ROLE_CUSTOMER) == RoleStatus.ROLE_STATUS_ACTIVE
    admin = Party.login(api, fresh.id, admin_email, STRONG_PASSWORD)

    customers = [sign_up(api, fresh.id) for _ in range(4)]
    couriers = [sign_up(api, fresh.id, requested_roles=[Role.ROLE_COURIER]) for _ in range(3)]
    everyone = {created.id} | {p.account_id for p in customers + couriers}

    def listed(page_size, **filters):
        request = pb.ListAccountsRequest(marketplace_id=fresh.id, page_size=page_size, **filters)
        pages = all_pages(api.accounts.ListAccounts, request, "accounts", admin.md)
        for items, token in pages[:-1]:
            assert len(items) == page_size and token, "only the last page may be short or end the list"
        assert pages[-1][1] == ""
        ids = [a.id for items, _ in pages for a in items]
        assert len(ids) == len(set(ids)), "an account appeared on two pages"
        assert all(a.marketplace_id == fresh.id for items, _ in pages for a in items)
        return set(ids)

    assert listed(3) == everyone
    assert listed(100) == everyone
    assert listed(0) == everyone  # 0 means the default page size (20)
    assert listed(2, role=Role.ROLE_COURIER, role_status=RoleStatus.ROLE_STATUS_PENDING) == \
        {p.account_id for p in couriers}
    assert listed(2, role=Role.ROLE_CUSTOMER, role_status=RoleStatus.ROLE_STATUS_ACTIVE) == everyone
    assert listed(5, role=Role.ROLE_ADMIN) == {created.id}
    assert listed(2, email_prefix=couriers[0].email[:10].upper()) == {couriers[0].account_id}

    blocked = customers[0]
    api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=fresh.id, account_id=blocked.account_id,
                                                     reason="Spam", expected_version=1),
                              metadata=admin.md(), timeout=TIMEOUT)
    assert listed(2, state=AccountState.ACCOUNT_STATE_BLOCKED) == {blocked.account_id}
    assert listed(2, state=AccountState.ACCOUNT_STATE_ACTIVE) == everyone - {blocked.account_id}

    # Refusals: negative page size, a page token reused with other filters, bad filter combinations.
    list_accounts = api.accounts.ListAccounts
    refused(lambda: list_accounts(pb.ListAccountsRequest(marketplace_id=fresh.id, page_size=-1), metadata=admin.md(),
                                  timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="page_size")
    first = list_accounts(pb.ListAccountsRequest(marketplace_id=fresh.id, page_size=2), metadata=admin.md(),
                          timeout=TIMEOUT)
    refused(lambda: list_accounts(pb.ListAccountsRequest(marketplace_id=fresh.id, page_size=2, role=Role.ROLE_COURIER,
                                                         page_token=first.next_page_token),
                                  metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="page_token")
    refused(lambda: list_accounts(pb.ListAccountsRequest(marketplace_id=fresh.id, page_token="garbage"),
                                  metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="page_token")
    for bad in [dict(role_status=RoleStatus.ROLE_STATUS_PENDING), dict(role=Role.ROLE_COURIER, email_prefix="a")]:
        assert code_of(lambda: list_accounts(pb.ListAccountsRequest(marketplace_id=fresh.id, **bad),
                                             metadata=admin.md(), timeout=TIMEOUT)) == Code.INVALID_ARGUMENT, bad
    # A customer may not list.
    refused(lambda: list_accounts(pb.ListAccountsRequest(marketplace_id=fresh.id), metadata=customers[1].md(),
                                  timeout=TIMEOUT), Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)


def create_menu_item_code(api, mp, party):
    """Probe of the provider role: CreateMenuItem (active providers) with a minimal request."""
    return code_of(lambda: api.catalog.CreateMenuItem(
        pb.CreateMenuItemRequest(marketplace_id=mp, request_id=request_id()), metadata=party.md(), timeout=TIMEOUT))


def courier_availability_code(api, mp, party):
    """Probe of the courier role: SetCourierAvailability (courier only) with a minimal request (offline)."""
    return code_of(lambda: api.deliveries.SetCourierAvailability(
        pb.SetCourierAvailabilityRequest(marketplace_id=mp), metadata=party.md(), timeout=TIMEOUT))


def test_admin_approves_and_rejects_pending_roles(api, mp, admin):
    party = sign_up(api, mp, requested_roles=[Role.ROLE_PROVIDER, Role.ROLE_COURIER])
    assert courier_availability_code(api, mp, party) == Code.PERMISSION_DENIED

    def decide(rpc, request_type, role, version, **fields):
        return rpc(request_type(marketplace_id=mp, account_id=party.account_id, role=role, expected_version=version,
                                **fields), metadata=admin.md(), timeout=TIMEOUT)

    version = party.me().version
    approved = decide(api.accounts.ApproveRole, pb.ApproveRoleRequest, Role.ROLE_COURIER, version)
    assert role_status(approved, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE
    assert approved.version == version + 1
    [grant] = [g for g in approved.roles if g.role == Role.ROLE_COURIER]
    assert grant.decided_by_account_id == admin.account_id and seconds(grant.decide_time) > 0
    assert courier_availability_code(api, mp, party) not in (Code.PERMISSION_DENIED, Code.UNAUTHENTICATED)

    refused(lambda: decide(api.accounts.ApproveRole, pb.ApproveRoleRequest, Role.ROLE_COURIER, approved.version),
            Code.FAILED_PRECONDITION)
    refused(lambda: decide(api.accounts.RejectRole, pb.RejectRoleRequest, Role.ROLE_PROVIDER, version,
                           reason="Incomplete documents"), Code.ABORTED, reason=Reason.ERROR_REASON_STALE_VERSION)
    # The fields are checked before the store: a stale request without a reason is told the reason is missing.
    refused(lambda: decide(api.accounts.RejectRole, pb.RejectRoleRequest, Role.ROLE_PROVIDER, version),
            Code.INVALID_ARGUMENT, field="reason")
    refused(lambda: decide(api.accounts.RejectRole, pb.RejectRoleRequest, Role.ROLE_PROVIDER, approved.version,
                           reason=""), Code.INVALID_ARGUMENT, field="reason")
    rejected = decide(api.accounts.RejectRole, pb.RejectRoleRequest, Role.ROLE_PROVIDER, approved.version,
                      reason="No food licence")
    [grant] = [g for g in rejected.roles if g.role == Role.ROLE_PROVIDER]
    assert (grant.status, grant.reason) == (RoleStatus.ROLE_STATUS_REJECTED, "No food licence")
    assert create_menu_item_code(api, mp, party) == Code.PERMISSION_DENIED

    # The audit log records who decided, and why.
    entries = api.admin.ListAuditEntries(pb.ListAuditEntriesRequest(
        marketplace_id=mp, resource=pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_ACCOUNT, id=party.account_id)),
        metadata=admin.md(), timeout=TIMEOUT).entries
    actions = {e.action: e for e in entries}
    assert {"souk.v1.Accounts/ApproveRole", "souk.v1.Accounts/RejectRole"} <= actions.keys()
    assert actions["souk.v1.Accounts/RejectRole"].reason == "No food licence"
    assert all(actions[a].actor_account_id == admin.account_id for a in
               ("souk.v1.Accounts/ApproveRole", "souk.v1.Accounts/RejectRole"))
    assert actions["souk.v1.Accounts/RejectRole"].actor_role == Role.ROLE_ADMIN


def test_admin_assigns_and_revokes_roles(api, mp, admin):
    party = sign_up(api, mp)

    def change(rpc, request_type, role, version, **fields):
        return rpc(request_type(marketplace_id=mp, account_id=party.account_id, role=role, expected_version=version,
                                **fields), metadata=admin.md(), timeout=TIMEOUT)

    assigned = change(api.accounts.AssignRole, pb.AssignRoleRequest, Role.ROLE_COURIER, 1)
    assert role_status(assigned, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE
    assert courier_availability_code(api, mp, party) not in (Code.PERMISSION_DENIED, Code.UNAUTHENTICATED)
    refused(lambda: change(api.accounts.AssignRole, pb.AssignRoleRequest, Role.ROLE_COURIER, assigned.version),
            Code.FAILED_PRECONDITION)
    refused(lambda: change(api.accounts.AssignRole, pb.AssignRoleRequest, Role.ROLE_OPERATOR, assigned.version),
            Code.INVALID_ARGUMENT, field="role")
    refused(lambda: change(api.accounts.AssignRole, pb.AssignRoleRequest, Role.ROLE_PROVIDER, 1),
            Code.ABORTED, reason=Reason.ERROR_REASON_STALE_VERSION)

    refused(lambda: change(api.accounts.RevokeRole, pb.RevokeRoleRequest, Role.ROLE_CUSTOMER, assigned.version,
                           reason="No"), Code.INVALID_ARGUMENT, field="role")
    revoked = change(api.accounts.RevokeRole, pb.RevokeRoleRequest, Role.ROLE_COURIER, assigned.version,
                     reason="Left the fleet")
    assert role_status(revoked, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_REVOKED
    assert courier_availability_code(api, mp, party) == Code.PERMISSION_DENIED
    # Assigning re-activates a revoked role.
    again = change(api.accounts.AssignRole, pb.AssignRoleRequest, Role.ROLE_COURIER, revoked.version)
    assert role_status(again, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE


def test_admin_blocks_and_unblocks_an_account(api, mp, admin):
    party = sign_up(api, mp)
    stale = party.me().version
    version = rename(api, party, "Renamed")

    def block(version, reason="Abusive messages", account_id=None):
        return api.accounts.BlockAccount(pb.BlockAccountRequest(
            marketplace_id=mp, account_id=account_id or party.account_id, reason=reason, expected_version=version),
            metadata=admin.md(), timeout=TIMEOUT)

    refused(lambda: block(version, reason=""), Code.INVALID_ARGUMENT, field="reason")
    refused(lambda: block(stale), Code.ABORTED, reason=Reason.ERROR_REASON_STALE_VERSION)
    refused(lambda: block(admin.me().version, account_id=admin.account_id), Code.FAILED_PRECONDITION)

    admin.md()  # refresh the admin's token first if needed, so the check below runs within the target's TTL
    session = login(api, mp, party.email, STRONG_PASSWORD)
    assert get_me(api, mp, session.access_token).id == party.account_id
    blocked = block(version)
    assert blocked.state == AccountState.ACCOUNT_STATE_BLOCKED and blocked.block_reason == "Abusive messages"
    assert_not_expired(session)
    with pytest.raises(grpc.RpcError) as at_once:
        get_me(api, mp, session.access_token)
    assert at_once.value.code() in (Code.UNAUTHENTICATED, Code.PERMISSION_DENIED), \
        "a blocked account's token must stop working at once"
    refused(lambda: login(api, mp, party.email, STRONG_PASSWORD), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_ACCOUNT_BLOCKED)
    with pytest.raises(grpc.RpcError) as refresh_refused:
        refresh(api, mp, session.refresh_token)
    assert refresh_refused.value.code() in (Code.UNAUTHENTICATED, Code.PERMISSION_DENIED)
    refused(lambda: block(blocked.version), Code.FAILED_PRECONDITION)

    unblocked = api.accounts.UnblockAccount(pb.UnblockAccountRequest(
        marketplace_id=mp, account_id=party.account_id, expected_version=blocked.version),
        metadata=admin.md(), timeout=TIMEOUT)
    assert unblocked.state == AccountState.ACCOUNT_STATE_ACTIVE
    refused(lambda: api.accounts.UnblockAccount(pb.UnblockAccountRequest(
        marketplace_id=mp, account_id=party.account_id, expected_version=unblocked.version),
        metadata=admin.md(), timeout=TIMEOUT), Code.FAILED_PRECONDITION)
    assert login(api, mp, party.email, STRONG_PASSWORD).account.id == party.account_id

    entries = api.admin.ListAuditEntries(pb.ListAuditEntriesRequest(
        marketplace_id=mp, resource=pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_ACCOUNT, id=party.account_id)),
        metadata=admin.md(), timeout=TIMEOUT).entries
    [blocking] = [e for e in entries if e.action == "souk.v1.Accounts/BlockAccount"]
    assert (blocking.from_state, blocking.to_state) == ("ACCOUNT_STATE_ACTIVE", "ACCOUNT_STATE_BLOCKED")
    assert (blocking.actor_account_id, blocking.reason) == (admin.account_id, "Abusive messages")
    assert blocking.resource_version == blocked.version
    [unblocking] = [e for e in entries if e.action == "souk.v1.Accounts/UnblockAccount"]
    assert (unblocking.from_state, unblocking.to_state) == ("ACCOUNT_STATE_BLOCKED", "ACCOUNT_STATE_ACTIVE")
    assert seconds(unblocking.create_time) >= seconds(blocking.create_time)


def test_create_account_is_idempotent_and_refuses_taken_emails(api, mp, admin):
    request = pb.CreateAccountRequest(marketplace_id=mp, request_id=request_id(), email=unique_email("staff"),
                                      initial_password=STRONG_PASSWORD, given_name="Sam", family_name="Staff",
                                      roles=[Role.ROLE_COURIER])
    first = api.accounts.CreateAccount(request, metadata=admin.md(), timeout=TIMEOUT)
    assert role_status(first, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE
    assert api.accounts.CreateAccount(request, metadata=admin.md(), timeout=TIMEOUT).id == first.id
    changed = pb.CreateAccountRequest()
    changed.CopyFrom(request)
    changed.given_name = "Other"
    refused(lambda: api.accounts.CreateAccount(changed, metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT,
            field="request_id", reason=Reason.ERROR_REASON_REQUEST_ID_REUSED)
    taken = pb.CreateAccountRequest()
    taken.CopyFrom(request)
    taken.request_id, taken.email = request_id(), request.email.upper()
    refused(lambda: api.accounts.CreateAccount(taken, metadata=admin.md(), timeout=TIMEOUT), Code.ALREADY_EXISTS,
            reason=Reason.ERROR_REASON_EMAIL_TAKEN)
    weak = pb.CreateAccountRequest()
    weak.CopyFrom(request)
    weak.request_id, weak.email, weak.initial_password = request_id(), unique_email("staff"), "password"
    refused(lambda: api.accounts.CreateAccount(weak, metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT,
            field="initial_password", reason=Reason.ERROR_REASON_WEAK_PASSWORD)
    assert login(api, mp, request.email, STRONG_PASSWORD).account.id == first.id
