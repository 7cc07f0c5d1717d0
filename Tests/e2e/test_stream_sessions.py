"""Open streams live no longer than their session (common.proto, STREAMS), and are capped.

- A blocked account's open streams end at once with UNAUTHENTICATED (ACCOUNT_BLOCKED).
- A signed-out session's stream ends with UNAUTHENTICATED (SESSION_REVOKED); the account's
  other session keeps its stream.
- A stream whose access token expires ends with UNAUTHENTICATED (TOKEN_EXPIRED), unless its
  session was refreshed in time (then it lasts to the new token's expiry).
- Streams past the per-connection or per-account cap answer RESOURCE_EXHAUSTED
  (TOO_MANY_STREAMS) with RetryInfo; closing one makes room.

The streams are WatchJob calls of a Drip 'n Dash job (each sends the job first) and the
account's own stream, WatchAccount (its response headers come once it follows the account), so
the test knows each stream is open on the server before it acts."""
import time

import grpc
import pytest
from google.rpc import error_details_pb2

from conftest import IdentityServer, stop_cleanly
from souk_identity import TIMEOUT, Api, Party, Reason, login_party, pb, refused, seconds
from souk_protos import Stub, status_detail
from test_laundry_jobs import Dorm, submit

Code = grpc.StatusCode
DRIP = "Drip 'n Dash"
PER_CONNECTION, PER_ACCOUNT = 2, 3


def own_channel(server):
    """A channel with a connection of its own (grpcio shares connections between channels otherwise)."""
    channel = server.channel(**{"grpc.use_local_subchannel_pool": 1})
    grpc.channel_ready_future(channel).result(timeout=30)
    return channel


def laundry_api(channel):
    api = Api(channel)
    api.laundry = Stub(channel, "souk.v1.Laundry")
    api.notifications = Stub(channel, "souk.v1.Notifications")
    return api


@pytest.fixture(scope="module")
def capped():
    """A server whose tokens live 10 minutes, with low stream caps."""
    server = IdentityServer(600, "--max-streams-per-connection", str(PER_CONNECTION), "--max-streams-per-account", str(PER_ACCOUNT))
    yield server
    stop_cleanly(server)


@pytest.fixture(scope="module")
def short_lived():
    """A server whose access tokens live 3 seconds."""
    server = IdentityServer(3)
    yield server
    stop_cleanly(server)


class Laundry:
    """A dorm of the server's demo Drip 'n Dash marketplace, its students and their jobs."""

    def __init__(self, server):
        self.server = server
        self.api = laundry_api(own_channel(server))
        admin = login_party(self.api, server.demo_login(DRIP, "admin"))
        self.dorm = Dorm(self.api, {"id": server.marketplace_id(DRIP), "operator": admin})
        self.admin = admin

    def student(self, name):
        return self.dorm.student(name)

    def session(self, party, channel=None):
        """Another session of `party`, calling over `channel` (a connection of its own by default)."""
        api = laundry_api(channel or own_channel(self.server))
        return Party.login(api, party.marketplace_id, party.email, party.password)

    def job(self, party):
        return submit(self.api, party)

    def watch(self, party, job_id):
        """An open WatchJob stream of `party`, its first event (the job as it is) already read."""
        stream = party.api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=party.marketplace_id, job_id=job_id),
                                            metadata=party.md(), timeout=TIMEOUT * 6)
        assert next(stream).job.id == job_id
        return stream

    def watch_account(self, party):
        """An open WatchAccount stream of `party`, following the account from now on."""
        stream = party.api.notifications.WatchAccount(pb.WatchAccountRequest(marketplace_id=party.marketplace_id),
                                                      metadata=party.md(), timeout=TIMEOUT * 6)
        stream.initial_metadata()
        return stream


def ends(stream, reason):
    """The stream ends with UNAUTHENTICATED and `reason` (after any event still on its way)."""
    return refused(lambda: list(stream), Code.UNAUTHENTICATED, reason=reason)


def test_a_blocked_accounts_open_streams_end_at_once(capped):
    laundry = Laundry(capped)
    casey = laundry.student("casey")
    job = laundry.job(casey)
    phone, laptop = laundry.session(casey), laundry.session(casey)
    # Every Watch RPC of the account, on both sessions: the job's and the account's own stream.
    streams = [laundry.watch(phone, job.id), laundry.watch_account(phone), laundry.watch_account(laptop)]
    account = laundry.api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=casey.marketplace_id, account_id=casey.account_id),
                                              metadata=laundry.admin.md(), timeout=TIMEOUT)
    laundry.api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=casey.marketplace_id, account_id=casey.account_id,
                                                             reason="abuse", expected_version=account.version),
                                      metadata=laundry.admin.md(), timeout=TIMEOUT)
    for stream in streams:
        error = ends(stream, Reason.ERROR_REASON_ACCOUNT_BLOCKED)
        assert "blocked" in error.details()


def test_a_signed_out_sessions_stream_ends_and_the_other_session_keeps_its_own(capped):
    laundry = Laundry(capped)
    casey = laundry.student("casey")
    dasher = laundry.dorm.student("dana", dasher=True)
    job = laundry.job(casey)
    phone, laptop = laundry.session(casey), laundry.session(casey)
    on_phone, on_laptop = laundry.watch(phone, job.id), laundry.watch(laptop, job.id)
    phone_account = laundry.watch_account(phone)  # the account's third stream (PER_ACCOUNT)
    phone.api.accounts.Logout(pb.LogoutRequest(marketplace_id=phone.marketplace_id), metadata=phone.md(), timeout=TIMEOUT)
    ends(on_phone, Reason.ERROR_REASON_SESSION_REVOKED)
    ends(phone_account, Reason.ERROR_REASON_SESSION_REVOKED)
    # The laptop's stream is still open: it gets the next change of the job.
    offered = laundry.api.laundry.RequestWork(pb.RequestWorkRequest(marketplace_id=dasher.marketplace_id),
                                              metadata=dasher.md(), timeout=TIMEOUT)
    assert offered.job.id == job.id
    assert next(on_laptop).job.offered_to_account_id == dasher.account_id
    # Signing out every session ends it too.
    laptop.api.accounts.Logout(pb.LogoutRequest(marketplace_id=laptop.marketplace_id, all_sessions=True),
                               metadata=laptop.md(), timeout=TIMEOUT)
    ends(on_laptop, Reason.ERROR_REASON_SESSION_REVOKED)


def test_a_stream_ends_when_its_token_expires_unless_the_session_was_refreshed(short_lived):
    laundry = Laundry(short_lived)
    casey = laundry.student("casey")
    job = laundry.job(casey)
    kept = laundry.session(casey)
    refreshed_stream = laundry.watch(kept, job.id)
    # The other session signs in later, so its token expires after the first one's.
    time.sleep(1)
    idle = laundry.session(casey)
    idle_stream = laundry.watch(idle, job.id)
    kept.session = kept.api.accounts.Refresh(pb.RefreshRequest(marketplace_id=kept.marketplace_id,
                                                               refresh_token=kept.session.refresh_token), timeout=TIMEOUT)
    error = ends(idle_stream, Reason.ERROR_REASON_TOKEN_EXPIRED)
    assert "expired" in error.details()
    # The refreshed session's first token expired before the idle one's: its stream is still open,
    # and ends only once the refreshed token expires in turn.
    assert not refreshed_stream.done()
    ends(refreshed_stream, Reason.ERROR_REASON_TOKEN_EXPIRED)


def test_streams_past_the_caps_are_refused_with_retry_info_and_closing_one_makes_room(capped):
    laundry = Laundry(capped)
    casey, robin = laundry.student("casey"), laundry.student("robin")
    job, other_job = laundry.job(casey), laundry.job(robin)
    first = laundry.session(casey)
    second = laundry.session(casey, first.api.channel)  # the same connection
    open_streams = [laundry.watch(first, job.id), laundry.watch(second, job.id)]

    def too_many(party):
        error = refused(lambda: laundry.watch(party, job.id), Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_TOO_MANY_STREAMS)
        assert seconds(status_detail(error, error_details_pb2.RetryInfo).retry_delay) > 0
        return error

    # A third stream on that connection is one too many.
    assert "connection" in too_many(first).details()
    # On another connection the account has room for one more, then none.
    third = laundry.session(casey)
    open_streams.append(laundry.watch(third, job.id))
    assert "account" in too_many(third).details()
    # Another account on that connection is not held back by it.
    robin_there = laundry.session(robin, third.api.channel)
    laundry.watch(robin_there, other_job.id).cancel()
    # Closing a stream makes room (the server sees the cancel a moment later).
    open_streams.pop().cancel()
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            open_streams.append(laundry.watch(third, job.id))
            break
        except grpc.RpcError as error:
            assert error.code() == Code.RESOURCE_EXHAUSTED and time.monotonic() < deadline
            time.sleep(0.05)
    for stream in open_streams:
        stream.cancel()


def test_account_streams_count_against_the_caps_until_they_end_however_they_end(capped):
    """WatchAccount streams wait for events without a task of their own: they are still counted
    while open, and free their place when their deadline passes or the client cancels one. (A
    WatchJob stream shows whether there is room: its first event comes at once, or its refusal.)"""
    laundry = Laundry(capped)
    casey = laundry.student("casey")
    job = laundry.job(casey)
    phones = [laundry.session(casey) for _ in range(PER_ACCOUNT)]
    kept = [laundry.watch_account(phone) for phone in phones[:-1]]
    short = phones[-1].api.notifications.WatchAccount(pb.WatchAccountRequest(marketplace_id=casey.marketplace_id),
                                                      metadata=phones[-1].md(), timeout=5)
    short.initial_metadata()
    extra = laundry.session(casey)
    refused(lambda: laundry.watch(extra, job.id), Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_TOO_MANY_STREAMS)

    def opens_in_time(open_stream):
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                return open_stream()
            except grpc.RpcError as error:
                assert error.code() == Code.RESOURCE_EXHAUSTED and time.monotonic() < deadline
                time.sleep(0.05)

    # The stream whose deadline passes ends with DEADLINE_EXCEEDED and makes room.
    with pytest.raises(grpc.RpcError) as ended:
        list(short)
    assert ended.value.code() == Code.DEADLINE_EXCEEDED
    first = opens_in_time(lambda: laundry.watch(extra, job.id))
    # So does a cancelled one (the account is at its cap again until then).
    refused(lambda: laundry.watch(extra, job.id), Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_TOO_MANY_STREAMS)
    kept.pop().cancel()
    second = opens_in_time(lambda: laundry.watch(extra, job.id))
    for stream in kept + [first, second]:
        stream.cancel()
