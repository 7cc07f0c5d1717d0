"""Every souk.v1 RPC, called by every kind of caller, is let through or refused exactly as the
`// Access:` line of its proto comment says (common.proto, ACCESS LINE).

The RPCs come from the server's own descriptor set, so a new RPC joins the table by itself. Each
is called with a minimal request (marketplace_id set to DineSwift's, every other field default)
by: a guest (no token); DineSwift's demo customer, provider, courier and admin; the platform
operator; the push adapter (a platform service account the operator creates); and a new
customer whose provider and courier roles are still pending.

- Refused: UNAUTHENTICATED for a guest on a non-guest RPC; PERMISSION_DENIED for a signed-in
  caller without an allowed active role, with ErrorInfo reason ROLE_PENDING when only a
  pending role would have allowed it, NOT_ALLOWED otherwise.
- Allowed: any status but UNAUTHENTICATED, PERMISSION_DENIED and UNIMPLEMENTED (every RPC is
  served). INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION (e.g. WRONG_VERTICAL) are all fine for a
  minimal request. The one exception: an RPC whose Errors line lists UNAUTHENTICATED for a
  domain reason (Login, Refresh, ChangePassword, DeleteAccount check credentials) may answer
  it with ErrorInfo reason BAD_CREDENTIALS or TOKEN_INVALID. `(owner)` counts as allowed:
  a minimal request names no resource to own.
"""
import concurrent.futures
from dataclasses import dataclass

import grpc
import pytest

from conftest import DEMO_ROLES, IdentityServer, stop_cleanly
from souk_identity import ROLE_WORDS, Api, Party, Reason, Role, RoleStatus, active_role_words, login_party, \
    operator_party, push_adapter_party, sign_up
from souk_protos import ACCESS_WORDS, enum_name, error_reason, methods, parse_access_line

Code = grpc.StatusCode
METHODS = methods("souk.v1")
MARKETPLACE = "DineSwift"
CALLERS = ("guest", "customer", "provider", "courier", "admin", "operator", "push_adapter", "pending")
UNARY_DEADLINE = 10  # seconds; a refusal comes at once, an allowed call may take its time
STREAM_WAIT = 1.5  # seconds to wait for a stream's first message or status before cancelling it
# These act on the marketplace every call runs in. Should the server take a minimal request's
# expected_version 0 or empty mask as "any", they would change it under the other calls, so
# they run after every other call, one at a time, with the operator (who may archive) last.
MARKETPLACE_CHANGES = (
    "/souk.v1.Marketplaces/UpdateMarketplaceSettings",
    "/souk.v1.Marketplaces/UpdateMarketplace",
    "/souk.v1.Marketplaces/RestoreMarketplace",
    "/souk.v1.Marketplaces/ArchiveMarketplace",
)
# Ends the caller's session: each caller makes this call with a second session of its own.
SESSION_ENDERS = ("/souk.v1.Accounts/Logout",)
# Reasons for which a credential-checking RPC answers UNAUTHENTICATED to an allowed caller.
CREDENTIAL_REASONS = (Reason.ERROR_REASON_BAD_CREDENTIALS, Reason.ERROR_REASON_TOKEN_INVALID)


# ---- The Access lines themselves (no server needed) ----

def test_every_rpc_has_a_valid_access_line():
    assert METHODS, "no souk.v1 RPC in the descriptor set"
    problems = []
    for method in METHODS:
        try:
            method.access()
        except ValueError as error:
            problems.append(f"{method.short}: {error}")
    assert not problems, "\n".join(problems)
    used = set().union(*(m.access().callers for m in METHODS))
    assert used == set(ACCESS_WORDS), f"caller words never used: {set(ACCESS_WORDS) - used}"


def test_every_rpc_has_an_errors_line():
    missing = [m.short for m in METHODS if not m.errors_text()]
    assert not missing, missing


@pytest.mark.parametrize("line,callers,owner_only", [
    ("Access: guest.", {"guest"}, set()),
    ("Access: admin, operator.", {"admin", "operator"}, set()),
    ("Access: customer (owner), provider (owner), admin, operator.", {"customer", "provider", "admin", "operator"},
     {"customer", "provider"}),
])
def test_access_line_grammar_accepts(line, callers, owner_only):
    rule = parse_access_line(line)
    assert (rule.callers, rule.owner_only) == (callers, owner_only)


@pytest.mark.parametrize("line", [
    "Access: guest", "Access: user.", "Access: admin,operator.", "Access: admin (owner).", "Access: guest (owner).",
    "Access: customer, customer.", "Access: guest, admin.", "Access: customer (owner)(owner).", "Access:", "",
    "Creates an account.",
])
def test_access_line_grammar_refuses(line):
    with pytest.raises(ValueError):
        parse_access_line(line)


def test_allowed_means_an_active_role_in_the_line():
    rule = parse_access_line("Access: provider (owner), admin, operator.")
    assert not rule.allows(None)
    assert not rule.allows({"customer", "courier"})
    assert rule.allows({"customer", "provider"}) and rule.allows({"operator"})
    assert parse_access_line("Access: guest.").allows(None)


# ---- Every RPC, every caller ----

@dataclass(frozen=True)
class Caller:
    """One column of the table: the caller's active and pending role words and tokens."""
    name: str
    roles: frozenset | None  # active role words; None for a guest
    pending: frozenset
    token: str | None
    logout_token: str | None  # a second session, spent on Logout

    def metadata(self, path: str):
        token = self.logout_token if path in SESSION_ENDERS else self.token
        return () if token is None else (("authorization", f"Bearer {token}"),)


@dataclass(frozen=True)
class Outcome:
    code: grpc.StatusCode
    details: str
    reason: int | None  # the ErrorReason that google.rpc.ErrorInfo names, if sent

    def describe(self) -> str:
        reason = "" if self.reason is None else f" [{enum_name('souk.v1.ErrorReason', self.reason)}]"
        return f"{self.code.name}{reason} {self.details!r}"


@pytest.fixture(scope="module")
def access_server():
    """A server of its own: the table's minimal calls must not disturb the other tests' data.
    Tokens live long here, so none expires while the table runs."""
    s = IdentityServer(access_token_ttl=600)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def callers(access_server):
    with access_server.channel() as channel:
        api = Api(channel)
        marketplace_id = access_server.marketplace_id(MARKETPLACE)

        def caller(name, first: Party, second: Party):
            account = first.session.account
            pending = {ROLE_WORDS[g.role] for g in account.roles if g.status == RoleStatus.ROLE_STATUS_PENDING}
            return Caller(name, frozenset(active_role_words(account)), frozenset(pending),
                          first.session.access_token, second.session.access_token)

        out = {"guest": Caller("guest", None, frozenset(), None, None)}
        for role in DEMO_ROLES:
            login = access_server.demo_login(MARKETPLACE, role)
            out[role] = caller(role, login_party(api, login), login_party(api, login))
            assert role in out[role].roles, f"the {MARKETPLACE} demo {role} should hold the {role} role, active"
        out["operator"] = caller("operator", operator_party(api, access_server, fresh=True), operator_party(api, access_server, fresh=True))
        assert out["operator"].roles == {"operator"}, "the operator holds the operator role only"
        operator = operator_party(api, access_server)
        adapter = push_adapter_party(api, operator)
        out["push_adapter"] = caller("push_adapter", adapter, Party.login(api, "", adapter.email, adapter.password))
        assert out["push_adapter"].roles == {"push_adapter"}, "the push adapter holds the push_adapter role only"
        pending = sign_up(api, marketplace_id, requested_roles=[Role.ROLE_PROVIDER, Role.ROLE_COURIER])
        out["pending"] = caller("pending", pending,
                                Party.login(api, marketplace_id, pending.email, pending.password))
        assert out["pending"].roles == {"customer"} and out["pending"].pending == {"provider", "courier"}
        return out


def minimal_request(method, marketplace_id):
    request = method.request()
    if "marketplace_id" in method.request.DESCRIPTOR.fields_by_name:
        request.marketplace_id = marketplace_id
    return request


def outcome_of(error: grpc.RpcError) -> Outcome:
    return Outcome(error.code(), error.details() or "", error_reason(error))


def call(channel, method, request, metadata) -> Outcome:
    """One call of any shape: unary, client stream (one message), or server stream (the first
    message or the status, whichever comes first within STREAM_WAIT, then cancel)."""
    serialize, deserialize = method.request.SerializeToString, method.response.FromString
    try:
        if method.server_streaming:
            kind = channel.stream_stream if method.client_streaming else channel.unary_stream
            multi = kind(method.path, request_serializer=serialize, response_deserializer=deserialize)
            stream = multi(iter([request]) if method.client_streaming else request, metadata=metadata,
                           timeout=STREAM_WAIT)
            try:
                next(stream)
            except StopIteration:
                pass
            finally:
                stream.cancel()
        elif method.client_streaming:
            channel.stream_unary(method.path, request_serializer=serialize, response_deserializer=deserialize)(
                iter([request]), metadata=metadata, timeout=UNARY_DEADLINE)
        else:
            channel.unary_unary(method.path, request_serializer=serialize, response_deserializer=deserialize)(
                request, metadata=metadata, timeout=UNARY_DEADLINE)
        return Outcome(Code.OK, "", None)
    except grpc.RpcError as error:
        return outcome_of(error)


@pytest.fixture(scope="module")
def outcomes(access_server, callers):
    """Every (RPC, caller) called once: all at once on a thread pool, then the marketplace
    changes one at a time."""
    marketplace_id = access_server.marketplace_id(MARKETPLACE)
    by_path = {m.path: m for m in METHODS}
    cases = [(m.path, c) for m in METHODS for c in CALLERS]
    later = [(p, c) for p in MARKETPLACE_CHANGES for c in CALLERS if c != "operator"] + \
            [(p, "operator") for p in MARKETPLACE_CHANGES]
    first = [case for case in cases if case[0] not in MARKETPLACE_CHANGES]
    results = {}
    with access_server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)

        def run(case):
            path, name = case
            method = by_path[path]
            return case, call(channel, method, minimal_request(method, marketplace_id), callers[name].metadata(path))

        with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
            results.update(pool.map(run, first))
        results.update(run(case) for case in later if case[0] in by_path)
    return results


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.short)
def test_access(outcomes, callers, method, caller):
    rule = method.access()
    who = callers[caller]
    outcome = outcomes[(method.path, caller)]
    where = f"{method.short} ({rule.line}) called by {caller} (active roles {sorted(who.roles or [])}): " \
            f"got {outcome.describe()}"
    if rule.allows(who.roles):
        credential_check = (outcome.code == Code.UNAUTHENTICATED and "UNAUTHENTICATED" in method.errors_text()
                            and outcome.reason in CREDENTIAL_REASONS)
        assert outcome.code not in (Code.UNAUTHENTICATED, Code.PERMISSION_DENIED) or credential_check, \
            f"allowed, but refused: {where}"
    elif who.roles is None:
        assert outcome.code == Code.UNAUTHENTICATED, f"a guest must get UNAUTHENTICATED: {where}"
    else:
        assert outcome.code == Code.PERMISSION_DENIED, f"must be PERMISSION_DENIED: {where}"
        expected = Reason.ERROR_REASON_ROLE_PENDING if who.pending & rule.callers else Reason.ERROR_REASON_NOT_ALLOWED
        assert outcome.reason == expected, \
            f"ErrorInfo.reason should be {enum_name('souk.v1.ErrorReason', expected)}: {where}"


def test_every_rpc_of_the_contract_is_served(outcomes):
    unbuilt = sorted({path for (path, _), outcome in outcomes.items() if outcome.code == Code.UNIMPLEMENTED})
    assert unbuilt == [], f"answered UNIMPLEMENTED: {unbuilt}"
