"""Helpers of the identity end-to-end tests: stubs of the souk.v1 services, signed-in parties that
keep their short-lived access token fresh (the package's Session), and assertions on refusals and
their error details (the package's SoukError)."""
import re
import threading
import time
import uuid

import grpc
import pytest
# pb: souk.v1 messages by short name (`pb.SignUpRequest(...)`); request_id: a new idempotency key.
from souk_client import Session, SoukError, pb, request_id

from souk_protos import Stub, enum, enum_name, message, rich_status

Role = enum("souk.v1.Role")
RoleStatus = enum("souk.v1.RoleStatus")
AccountState = enum("souk.v1.AccountState")
Reason = enum("souk.v1.ErrorReason")
MailKind = enum("souk.v1.MailKind")
MailStatus = enum("souk.v1.MailStatus")
ResourceType = enum("souk.v1.ResourceType")

ROLE_WORDS = {Role.ROLE_CUSTOMER: "customer", Role.ROLE_PROVIDER: "provider", Role.ROLE_COURIER: "courier",
              Role.ROLE_ADMIN: "admin", Role.ROLE_OPERATOR: "operator", Role.ROLE_PUSH_ADAPTER: "push_adapter"}

TIMEOUT = 10  # seconds per call: generous on a loaded machine; no test waits on it
STRONG_PASSWORD = "Str0ng!Passw0rd"
# A token is refreshed when it has less than this left, so a call never races its expiry.
REFRESH_MARGIN = 1.2

FieldMask = message("google.protobuf.FieldMask")
Duration = message("google.protobuf.Duration")


class Api:
    """Stubs of the souk.v1 services the identity tests call, over one channel."""

    def __init__(self, channel):
        self.channel = channel
        self.accounts = Stub(channel, "souk.v1.Accounts")
        self.marketplaces = Stub(channel, "souk.v1.Marketplaces")
        self.admin = Stub(channel, "souk.v1.Admin")
        self.catalog = Stub(channel, "souk.v1.Catalog")
        self.deliveries = Stub(channel, "souk.v1.Deliveries")


def bearer(access_token: str):
    return (("authorization", f"Bearer {access_token}"),)


def unique_email(tag: str = "user", domain: str = "example.com") -> str:
    return f"{tag}.{uuid.uuid4().hex[:12]}@{domain}"


def seconds(timestamp) -> float:
    """A google.protobuf.Timestamp as Unix seconds."""
    return timestamp.seconds + timestamp.nanos / 1e9


def role_status(account, role: int):
    """The status of one role of an account, or None if it does not hold it."""
    for grant in account.roles:
        if grant.role == role:
            return grant.status
    return None


def active_role_words(account) -> set:
    return {ROLE_WORDS[g.role] for g in account.roles if g.status == RoleStatus.ROLE_STATUS_ACTIVE}


class Party(Session):
    """A signed-in account: the package's Session over the tests' channel, keeping the tests'
    names (`session` for the token pair, `md()` for the call metadata, refreshed when the access
    token has less than REFRESH_MARGIN left; the identity server's tokens live 2 seconds)."""

    def __init__(self, api: Api, marketplace_id: str, email: str, password: str, session):
        super().__init__(api.channel, marketplace_id, session, timeout=TIMEOUT, refresh_margin=REFRESH_MARGIN,
                         fill_marketplace=False)
        self.api = api
        self.email = email
        self.password = password

    @classmethod
    def login(cls, api: Api, marketplace_id: str, email: str, password: str):
        signed = Session.sign_in(api.channel, marketplace_id, email, password, device_name="e2e", timeout=TIMEOUT)
        return cls(api, signed.marketplace_id, email, password, signed.tokens)

    @property
    def api(self) -> Api:
        return self._api

    @api.setter
    def api(self, api: Api):
        """Calls and refreshes go over the channel of the newest Api."""
        self._api = api
        self.channel = api.channel

    @property
    def session(self):
        """The souk.v1.Session: access and refresh tokens, their expiry, the account."""
        return self.tokens

    @session.setter
    def session(self, session):
        self.tokens = session

    def md(self):
        return self.metadata()

    def me(self):
        return self.api.accounts.GetMe(pb.GetMeRequest(marketplace_id=self.marketplace_id), metadata=self.md(),
                                       timeout=TIMEOUT)


def sign_up(api: Api, marketplace_id: str, *, email: str | None = None, password: str = STRONG_PASSWORD,
            given_name: str = "Test", family_name: str = "User", requested_roles=(), **fields):
    """Signs up a new account and returns it as a Party (with its SignUpResponse in `.signup`)."""
    email = email or unique_email()
    response = api.accounts.SignUp(pb.SignUpRequest(
        marketplace_id=marketplace_id, request_id=request_id(), email=email, password=password,
        given_name=given_name, family_name=family_name, requested_roles=list(requested_roles), **fields),
        timeout=TIMEOUT)
    party = Party(api, marketplace_id, email, password, response.session)
    party.signup = response
    return party


def refused(call, code: grpc.StatusCode, *, field: str | None = None, reason: int | None = None) -> grpc.RpcError:
    """Runs `call()`, which must fail with `code` and a rich status (AIP-193) in
    grpc-status-details-bin whose google.rpc.ErrorInfo has domain souk.v1. With `field`: the
    message starts with the field path, a google.rpc.BadRequest names it, and the ErrorInfo
    names it in its metadata (reason FIELD_INVALID unless `reason` says otherwise). With
    `reason`: the ErrorInfo carries that reason."""
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = info.value
    assert error.code() == code, f"expected {code.name}, got {error.code().name}: {error.details()!r}"
    status = rich_status(error)
    assert status is not None, f"grpc-status-details-bin missing: {error.details()!r}"
    decoded = SoukError.from_rpc_error(error)
    assert decoded.domain == "souk.v1", f"no souk.v1 ErrorInfo: {status!r}"
    if field is not None:
        assert (error.details() or "").startswith(f"{field}:"), \
            f"message should start with the field path {field!r}: {error.details()!r}"
        named = [v.field for v in decoded.field_violations]
        assert field in named, f"google.rpc.BadRequest should name {field!r}, names {named}"
        assert decoded.field == field, f"ErrorInfo.metadata should name {field!r}: {decoded.metadata!r}"
        if reason is None:
            reason = Reason.ERROR_REASON_FIELD_INVALID
    if reason is not None:
        assert decoded.reason_number == reason, \
            f"ErrorInfo.reason {decoded.reason}, expected {enum_name('souk.v1.ErrorReason', reason)}"
    return error


def code_of(call):
    """The status code of `call()`: OK when it returns."""
    try:
        call()
        return grpc.StatusCode.OK
    except grpc.RpcError as error:
        return error.code()


def assert_not_expired(session, what: str = "access token"):
    """Guards a revocation check: a refusal proves revocation only while the token has not
    expired on its own."""
    left = seconds(session.access_token_expire_time) - time.time()
    assert left > 0.05, f"the {what} expired before the check ({left:.2f}s left): the check proves nothing"


def login_party(api: Api, login) -> Party:
    """Signs in a DemoLogin."""
    return Party.login(api, login.marketplace_id, login.email, login.password)


def operator_party(api: Api, server, *, fresh: bool = False) -> Party:
    """The platform operator: Login with an empty marketplace_id, once per server. Test modules
    share the server's session (refreshed as it expires, on the newest module's channel), so the
    suite stays under the server's sign-in limit of 30 per account and 15 minutes; `fresh` gives a
    session of its own to a test that may end it."""
    if fresh:
        return Party.login(api, "", server.OPERATOR_EMAIL, server.OPERATOR_PASSWORD)
    party = getattr(server, "operator_session", None)
    if party is None:
        party = server.operator_session = Party.login(api, "", server.OPERATOR_EMAIL, server.OPERATOR_PASSWORD)
    party.api = api
    return party


def push_adapter_party(api: Api, operator: Party) -> Party:
    """A new push adapter: a platform service account the operator creates (CreateAccount with an
    empty marketplace_id and roles [PUSH_ADAPTER]), signed in with an empty marketplace_id."""
    email, password = unique_email("push-adapter"), STRONG_PASSWORD
    api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id="", request_id=request_id(), email=email, initial_password=password, given_name="Push adapter",
        roles=[Role.ROLE_PUSH_ADAPTER]), metadata=operator.md(), timeout=TIMEOUT)
    return Party.login(api, "", email, password)


def create_marketplace(api: Api, operator: Party, template_marketplace_id: str, *, lockout_seconds: int | None = None,
                       refresh_reuse_seconds: int | None = None, keep_email_domains: bool = False):
    """A fresh marketplace made by the operator, a copy of a demo marketplace (same vertical,
    currency and settings) with a new slug, no e-mail domain restriction unless
    `keep_email_domains` and, if given, its own lockout duration and refresh reuse interval."""
    template = api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=template_marketplace_id),
                                               timeout=TIMEOUT)
    fresh = pb.Marketplace()
    fresh.CopyFrom(template)
    for output_only in ("id", "version", "create_time", "update_time", "archived", "archive_time"):
        fresh.ClearField(output_only)
    fresh.slug = f"e2e-{uuid.uuid4().hex[:12]}"
    fresh.display_name = f"E2E {fresh.slug}"
    if not keep_email_domains:
        del fresh.settings.accounts.allowed_email_domains[:]
    if lockout_seconds is not None:
        fresh.settings.accounts.max_failed_logins = 5
        fresh.settings.accounts.lockout_duration.CopyFrom(Duration(seconds=lockout_seconds))
    if refresh_reuse_seconds is not None:
        fresh.settings.accounts.refresh_reuse_interval.CopyFrom(Duration(seconds=refresh_reuse_seconds))
    return api.marketplaces.CreateMarketplace(pb.CreateMarketplaceRequest(request_id=request_id(), marketplace=fresh),
                                              metadata=operator.md(), timeout=TIMEOUT)


def all_pages(list_call, request, items_field: str, metadata_fn):
    """Every page of a List call: (pages as lists of items, every item in order)."""
    pages = []
    while True:
        response = list_call(request, metadata=metadata_fn(), timeout=TIMEOUT)
        pages.append((list(getattr(response, items_field)), response.next_page_token))
        if not response.next_page_token:
            return pages
        request.page_token = response.next_page_token


def outbox(api: Api, reader: Party, marketplace_id: str, **filters):
    """Every mail in a marketplace's outbox, oldest first, as `reader` sees it; `filters` are
    ListMailOutboxRequest fields (to_address, kinds, statuses)."""
    request = pb.ListMailOutboxRequest(marketplace_id=marketplace_id, page_size=100, **filters)
    return [m for page, _ in all_pages(api.admin.ListMailOutbox, request, "messages", reader.md) for m in page]


def verification_code(api: Api, reader: Party, marketplace_id: str, email: str) -> str:
    """The newest e-mail verification code mailed to `email`, read by someone who sees mail
    bodies (the operator; admins see them redacted)."""
    mails = outbox(api, reader, marketplace_id, to_address=email, kinds=[MailKind.MAIL_KIND_EMAIL_VERIFICATION])
    return re.search(r"\b(\d{6})\b", mails[-1].body).group(1)


_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def reset_token_in(body: str) -> str:
    """The reset token in a password-reset mail body: the one run of 20 or more URL-safe
    characters (base64url or hex, as a token in a link would be) that is not a UUID."""
    candidates = {t for t in _TOKEN.findall(body) if not _UUID.fullmatch(t)}
    assert len(candidates) == 1, f"expected one reset token in the mail body, found {candidates}: {body!r}"
    return candidates.pop()


def race(calls):
    """Runs every call of `calls` on a thread of its own, all released together; what each
    returned, or the grpc.RpcError it raised, in the same order."""
    outcomes = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i):
        start.wait()
        try:
            outcomes[i] = calls[i]()
        except grpc.RpcError as error:
            outcomes[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
