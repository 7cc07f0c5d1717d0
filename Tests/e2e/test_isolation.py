"""Cross-marketplace isolation: a token from one marketplace never reads or changes another's
data. A request naming another marketplace than the token's is PERMISSION_DENIED
(MARKETPLACE_MISMATCH); a record id from another marketplace is NOT_FOUND, answered exactly
like an id that never existed."""
import uuid

import grpc
import pytest

from conftest import DEMO_MARKETPLACES, DEMO_ROLES
from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, AccountState, Api, FieldMask, MailKind, Reason, ResourceType, Role, RoleStatus,
    all_pages, code_of, login_party, operator_party, outbox, pb, refused, request_id, sign_up, unique_email,
)

Code = grpc.StatusCode


@pytest.fixture(scope="module")
def ids(identity_server):
    return {name: identity_server.marketplace_id(name) for name in DEMO_MARKETPLACES}


@pytest.fixture(scope="module")
def demo(api, identity_server):
    """Every demo account signed in, by (marketplace, role)."""
    return {(m, r): login_party(api, identity_server.demo_login(m, r)) for m in DEMO_MARKETPLACES for r in DEMO_ROLES}


def test_demo_marketplaces_are_distinct(ids):
    assert len(set(ids.values())) == len(DEMO_MARKETPLACES)


@pytest.mark.parametrize("role", DEMO_ROLES)
def test_a_token_is_refused_in_every_other_marketplace(api, ids, demo, role):
    for home in DEMO_MARKETPLACES:
        party = demo[(home, role)]
        assert party.session.account.marketplace_id == ids[home]
        assert party.me().id == party.account_id
        for other in DEMO_MARKETPLACES:
            if other == home:
                continue
            refused(lambda: api.accounts.GetMe(pb.GetMeRequest(marketplace_id=ids[other]), metadata=party.md(),
                                               timeout=TIMEOUT),
                    Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)


def test_an_admin_cannot_administer_another_marketplace(api, ids, demo):
    aqua_admin = demo[("Aqua Hub", "admin")]
    dineswift = ids["DineSwift"]
    victim = sign_up(api, dineswift)
    refused(lambda: api.accounts.ListAccounts(pb.ListAccountsRequest(marketplace_id=dineswift),
                                              metadata=aqua_admin.md(), timeout=TIMEOUT),
            Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
    refused(lambda: api.accounts.BlockAccount(pb.BlockAccountRequest(
        marketplace_id=dineswift, account_id=victim.account_id, reason="x", expected_version=1),
        metadata=aqua_admin.md(), timeout=TIMEOUT),
        Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
    refused(lambda: api.admin.ListMailOutbox(pb.ListMailOutboxRequest(marketplace_id=dineswift),
                                             metadata=aqua_admin.md(), timeout=TIMEOUT),
            Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
    assert victim.me().state == AccountState.ACCOUNT_STATE_ACTIVE, "untouched"


def uuid7_shaped() -> str:
    """A random UUID with the version-7 and RFC 4122 variant bits, like the server's ids."""
    value = uuid.uuid4().int
    value = (value & ~(0xF << 76)) | (0x7 << 76)
    value = (value & ~(0x3 << 62)) | (0x2 << 62)
    return str(uuid.UUID(int=value))


def same_answer_as_for_an_unknown_id(call_with_id, foreign_id):
    """A foreign record's id must be answered NOT_FOUND exactly like an id that never existed
    (its message compared with the ids blanked out), so the answer reveals nothing."""
    unknown_id = uuid7_shaped()
    foreign = refused(lambda: call_with_id(foreign_id), Code.NOT_FOUND)
    unknown = refused(lambda: call_with_id(unknown_id), Code.NOT_FOUND)
    assert foreign.details().replace(foreign_id, "<id>") == unknown.details().replace(unknown_id, "<id>")


def test_an_account_of_another_marketplace_is_not_found(api, ids, demo):
    dineswift = ids["DineSwift"]
    admin = demo[("DineSwift", "admin")]
    foreign = sign_up(api, ids["Aqua Hub"], requested_roles=[Role.ROLE_COURIER])

    def admin_call(rpc, request_type, **fields):
        return lambda account_id: rpc(request_type(marketplace_id=dineswift, account_id=account_id, **fields),
                                      metadata=admin.md(), timeout=TIMEOUT)

    same_answer_as_for_an_unknown_id(admin_call(api.accounts.GetAccount, pb.GetAccountRequest), foreign.account_id)
    same_answer_as_for_an_unknown_id(
        lambda account_id: api.accounts.GetPublicProfile(pb.GetPublicProfileRequest(
            marketplace_id=dineswift, account_id=account_id), timeout=TIMEOUT), foreign.account_id)
    same_answer_as_for_an_unknown_id(
        admin_call(api.accounts.BlockAccount, pb.BlockAccountRequest, reason="x", expected_version=1),
        foreign.account_id)
    same_answer_as_for_an_unknown_id(
        admin_call(api.accounts.ApproveRole, pb.ApproveRoleRequest, role=Role.ROLE_COURIER, expected_version=1),
        foreign.account_id)
    same_answer_as_for_an_unknown_id(
        admin_call(api.accounts.AssignRole, pb.AssignRoleRequest, role=Role.ROLE_PROVIDER, expected_version=1),
        foreign.account_id)
    same_answer_as_for_an_unknown_id(
        lambda account_id: api.accounts.UpdateProfile(pb.UpdateProfileRequest(
            marketplace_id=dineswift, account=pb.Account(id=account_id, given_name="Changed"),
            update_mask=FieldMask(paths=["given_name"]), expected_version=1), metadata=admin.md(), timeout=TIMEOUT),
        foreign.account_id)
    # Nothing happened to it.
    me = foreign.me()
    assert (me.given_name, me.state, me.version) == ("Test", AccountState.ACCOUNT_STATE_ACTIVE, 1)


def test_an_address_of_another_marketplace_is_not_found(api, ids, demo):
    aqua_customer = demo[("Aqua Hub", "customer")]
    address = api.accounts.CreateAddress(pb.CreateAddressRequest(
        marketplace_id=ids["Aqua Hub"], request_id=request_id(),
        address=pb.Address(label="Home", line1="King Abdulaziz Rd 12", city="Arar", region="Northern Borders",
                           postal_code="73211", country_code="SA", phone="+966512345678",
                           location=pb.GeoPoint(latitude=30.9753, longitude=41.0381))),
        metadata=aqua_customer.md(), timeout=TIMEOUT)
    dineswift = ids["DineSwift"]
    for role in ("customer", "admin"):
        reader = demo[("DineSwift", role)]
        same_answer_as_for_an_unknown_id(
            lambda address_id: api.accounts.GetAddress(pb.GetAddressRequest(
                marketplace_id=dineswift, address_id=address_id), metadata=reader.md(), timeout=TIMEOUT), address.id)
    admin = demo[("DineSwift", "admin")]
    try:
        listed = api.accounts.ListAddresses(pb.ListAddressesRequest(
            marketplace_id=dineswift, account_id=aqua_customer.account_id), metadata=admin.md(), timeout=TIMEOUT)
        assert list(listed.addresses) == []
    except grpc.RpcError as error:
        assert error.code() == Code.NOT_FOUND
    # Its owner still reads it at home.
    assert api.accounts.GetAddress(pb.GetAddressRequest(marketplace_id=ids["Aqua Hub"], address_id=address.id),
                                   metadata=aqua_customer.md(), timeout=TIMEOUT).id == address.id


def test_lists_show_only_the_marketplace_s_own_accounts(api, ids, demo):
    email = unique_email("twin")
    at_aqua = sign_up(api, ids["Aqua Hub"], email=email)
    # E-mail is unique per marketplace: the same address signs up again elsewhere, as another account.
    at_dineswift = sign_up(api, ids["DineSwift"], email=email.upper(), password="D1neSwift!Pass")
    assert at_aqua.account_id != at_dineswift.account_id

    admin = demo[("DineSwift", "admin")]
    request = pb.ListAccountsRequest(marketplace_id=ids["DineSwift"], page_size=100)
    everyone = [a for page, _ in all_pages(api.accounts.ListAccounts, request, "accounts", admin.md) for a in page]
    assert everyone and all(a.marketplace_id == ids["DineSwift"] for a in everyone)
    assert at_aqua.account_id not in {a.id for a in everyone}
    assert at_dineswift.account_id in {a.id for a in everyone}
    by_email = api.accounts.ListAccounts(pb.ListAccountsRequest(marketplace_id=ids["DineSwift"], email_prefix=email),
                                         metadata=admin.md(), timeout=TIMEOUT).accounts
    assert [a.id for a in by_email] == [at_dineswift.account_id]


def test_credentials_work_only_in_their_own_marketplace(api, ids):
    email = unique_email("traveller")
    sign_up(api, ids["MARA"], email=email)
    for other in ("Aqua Hub", "DineSwift", "Chateau Du Nox"):
        refused(lambda: api.accounts.Login(pb.LoginRequest(marketplace_id=ids[other], email=email,
                                                           password=STRONG_PASSWORD), timeout=TIMEOUT),
                Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    # An empty marketplace_id signs in operators only.
    refused(lambda: api.accounts.Login(pb.LoginRequest(marketplace_id="", email=email, password=STRONG_PASSWORD),
                                       timeout=TIMEOUT),
            Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_BAD_CREDENTIALS)


def test_a_refresh_token_is_refused_in_another_marketplace(api, ids):
    party = sign_up(api, ids["MARA"])
    code = code_of(lambda: api.accounts.Refresh(pb.RefreshRequest(marketplace_id=ids["DineSwift"],
                                                                  refresh_token=party.session.refresh_token),
                                                timeout=TIMEOUT))
    assert code in (Code.UNAUTHENTICATED, Code.PERMISSION_DENIED)


def test_request_ids_are_scoped_to_the_marketplace(api, ids):
    key = request_id()
    first = api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=ids["Aqua Hub"], request_id=key, email=unique_email(), password=STRONG_PASSWORD,
        given_name="Aisha", family_name="Saleh"), timeout=TIMEOUT)
    # The same key with another request in another marketplace is a new operation, not a reuse.
    second = api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=ids["DineSwift"], request_id=key, email=unique_email(), password=STRONG_PASSWORD,
        given_name="Dan", family_name="Swift"), timeout=TIMEOUT)
    assert second.account.id != first.account.id
    assert second.account.marketplace_id == ids["DineSwift"]


def test_blocking_in_one_marketplace_leaves_the_same_email_elsewhere_alone(api, ids, demo):
    email = unique_email("twin")
    at_aqua = sign_up(api, ids["Aqua Hub"], email=email)
    at_mara = sign_up(api, ids["MARA"], email=email)
    api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=ids["Aqua Hub"], account_id=at_aqua.account_id,
                                                     reason="Fraud", expected_version=1),
                              metadata=demo[("Aqua Hub", "admin")].md(), timeout=TIMEOUT)
    refused(lambda: api.accounts.Login(pb.LoginRequest(marketplace_id=ids["Aqua Hub"], email=email,
                                                       password=STRONG_PASSWORD), timeout=TIMEOUT),
            Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_ACCOUNT_BLOCKED)
    assert at_mara.me().id == at_mara.account_id
    api.accounts.Login(pb.LoginRequest(marketplace_id=ids["MARA"], email=email, password=STRONG_PASSWORD),
                       timeout=TIMEOUT)


def test_mail_and_audit_stay_in_their_marketplace(api, ids, demo):
    party = sign_up(api, ids["Chateau Du Nox"])
    api.accounts.RequestPasswordReset(pb.RequestPasswordResetRequest(marketplace_id=ids["Chateau Du Nox"],
                                                                     email=party.email), timeout=TIMEOUT)
    at_home = [m for m in outbox(api, demo[("Chateau Du Nox", "admin")], ids["Chateau Du Nox"])
               if m.to_address.lower() == party.email.lower()]
    assert MailKind.MAIL_KIND_PASSWORD_RESET in [m.kind for m in at_home]
    assert not [m for m in outbox(api, demo[("DineSwift", "admin")], ids["DineSwift"])
                if m.to_address.lower() == party.email.lower()]

    home_admin = demo[("Chateau Du Nox", "admin")]
    api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=ids["Chateau Du Nox"], account_id=party.account_id,
                                                     reason="Chargebacks", expected_version=1),
                              metadata=home_admin.md(), timeout=TIMEOUT)
    resource = pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_ACCOUNT, id=party.account_id)
    home = api.admin.ListAuditEntries(pb.ListAuditEntriesRequest(marketplace_id=ids["Chateau Du Nox"],
                                                                 resource=resource),
                                      metadata=home_admin.md(), timeout=TIMEOUT).entries
    assert "souk.v1.Accounts/BlockAccount" in {e.action for e in home}
    try:
        elsewhere = api.admin.ListAuditEntries(pb.ListAuditEntriesRequest(marketplace_id=ids["DineSwift"],
                                                                          resource=resource),
                                               metadata=demo[("DineSwift", "admin")].md(), timeout=TIMEOUT).entries
        assert list(elsewhere) == []
    except grpc.RpcError as error:
        assert error.code() == Code.NOT_FOUND


def test_an_operator_token_is_valid_in_every_marketplace(api, ids, demo, operator):
    assert operator.session.account.marketplace_id == ""
    assert [(g.role, g.status) for g in operator.session.account.roles] == \
        [(Role.ROLE_OPERATOR, RoleStatus.ROLE_STATUS_ACTIVE)]
    for name in DEMO_MARKETPLACES:
        customer = demo[(name, "customer")]
        account = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=ids[name],
                                                               account_id=customer.account_id),
                                          metadata=operator.md(), timeout=TIMEOUT)
        assert account.id == customer.account_id and account.marketplace_id == ids[name]
    # ... but a record is still found only in its own marketplace.
    refused(lambda: api.accounts.GetAccount(pb.GetAccountRequest(
        marketplace_id=ids["MARA"], account_id=demo[("Aqua Hub", "customer")].account_id),
        metadata=operator.md(), timeout=TIMEOUT), Code.NOT_FOUND)
