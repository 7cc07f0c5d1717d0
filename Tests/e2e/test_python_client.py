"""The Python package (clients/python, `souk_client`) against a real server: signing in by
marketplace name, slug or id; the token refreshed before it expires, after a skewed clock let it
expire, and across a lost refresh answer; errors as one SoukError with the rich status; server
streams; and every example of the five apps run against a demo server of its own."""
import os
import pathlib
import subprocess
import sys
import time
import types
import uuid

import grpc
import pytest
import souk_client
from souk_client import Session, SoukError, pb

from conftest import ROOT, Server, stop_cleanly
from souk_identity import Api, create_marketplace, operator_party, seconds
from souk_protos import Stub
from test_laundry_jobs import Dorm, call, submit, work

EXAMPLES = ROOT / "clients" / "python" / "examples"
PASSWORD = "Str0ng!Passw0rd"
MARKETPLACE = "Aqua Hub"


def new_customer(server, **options) -> Session:
    """A new Aqua Hub customer signed up through the package, on a channel of its own."""
    return Session.sign_up(server.address, MARKETPLACE, f"py.{uuid.uuid4().hex[:12]}@example.com", PASSWORD,
                           given_name="Huda", family_name="Client", **options)


def test_sign_in_names_the_marketplace_by_display_name_slug_or_id(identity_server):
    login = identity_server.demo_login(MARKETPLACE, "customer")
    for name in ("Aqua Hub", "aqua-hub", login.marketplace_id):
        with Session.sign_in(identity_server.address, name, login.email, login.password) as session:
            assert session.marketplace_id == login.marketplace_id
            assert session.account.email == login.email
            # The request's empty marketplace_id is the session's.
            assert session.accounts.GetMe(pb.GetMeRequest()).id == session.account_id
    with pytest.raises(SoukError) as info:
        Session.sign_in(identity_server.address, "No Such Market", login.email, login.password)
    assert info.value.code() == grpc.StatusCode.NOT_FOUND


def test_a_wrong_password_is_one_souk_error_with_its_reason(identity_server):
    login = identity_server.demo_login("MARA", "customer")
    with pytest.raises(SoukError) as info:
        Session.sign_in(identity_server.address, "MARA", login.email, "Wr0ng!Password")
    error = info.value
    assert isinstance(error, grpc.RpcError), "code written for grpcio catches it too"
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED and error.reason == "BAD_CREDENTIALS"
    assert error.reason_number == pb.ErrorReason.ERROR_REASON_BAD_CREDENTIALS
    assert error.domain == "souk.v1" and error.localized_message and error.field_violations == []


def test_field_violations_and_the_localized_message(identity_server):
    with Session.guest(identity_server.address, MARKETPLACE, language="ar") as guest:
        with pytest.raises(SoukError) as info:
            guest.accounts.SignUp(pb.SignUpRequest(request_id=souk_client.request_id(), email="not-an-address",
                                                   password="weak", given_name="Huda", phone="12"))
    error = info.value
    assert error.status == grpc.StatusCode.INVALID_ARGUMENT and error.reason
    assert {"email", "password", "phone"} <= {v.field for v in error.field_violations}
    assert all(v.description for v in error.field_violations)
    assert error.violation("password") is not None and error.field in {v.field for v in error.field_violations}
    assert error.locale == "ar" and any("\u0600" <= c <= "\u06ff" for c in error.localized_message)
    assert str(error).startswith("INVALID_ARGUMENT (")


def test_the_token_is_refreshed_before_it_expires(identity_server):
    session = new_customer(identity_server)
    first = session.tokens
    # The identity server's tokens live 2 seconds: wait until the session's margin is reached.
    while session.expires_in() >= session.refresh_margin:
        time.sleep(0.05)
    me = session.accounts.GetMe(pb.GetMeRequest())
    assert me.id == first.account.id
    assert session.tokens.access_token != first.access_token and session.tokens.refresh_token != first.refresh_token
    session.close()


def test_an_expired_token_on_a_slow_clock_is_refreshed_and_the_call_sent_again(identity_server, monkeypatch):
    session = new_customer(identity_server)
    first = session.tokens.access_token
    expiry = session.tokens.access_token_expire_time.seconds
    while time.time() < expiry + 1:  # expired, by the server's clock too
        time.sleep(0.05)
    # This machine's clock, as the session reads it, runs 100 s behind: it sees a fresh token.
    real = time.time
    monkeypatch.setattr(souk_client.session, "time", types.SimpleNamespace(time=lambda: real() - 100, sleep=time.sleep))
    assert session.expires_in() > session.refresh_margin
    assert session.accounts.GetMe(pb.GetMeRequest()).id == session.account_id
    assert session.tokens.access_token != first and session.tokens.access_token_expire_time.seconds > expiry
    session.close()


class LoseRefreshAnswers(grpc.UnaryUnaryClientInterceptor):
    """Lets the first `count` Refresh calls reach the server and drops their answers, as a
    connection lost after the server rotated the token would."""

    class Lost(grpc.RpcError):
        def code(self):
            return grpc.StatusCode.UNAVAILABLE

        def details(self):
            return "connection lost before the answer"

        def trailing_metadata(self):
            return ()

    def __init__(self, count=1):
        self.count = count
        self.dropped = []

    def intercept_unary_unary(self, continuation, details, request):
        outcome = continuation(details, request)
        if details.method == "/souk.v1.Accounts/Refresh" and len(self.dropped) < self.count:
            self.dropped.append(outcome.result())
            raise self.Lost()
        return outcome


def test_a_lost_refresh_answer_keeps_the_session(identity_server):
    lossy = LoseRefreshAnswers(count=2)
    channel = grpc.intercept_channel(identity_server.channel(), lossy)
    signed = new_customer(identity_server)
    session = Session(channel, signed.marketplace_id, signed.tokens)
    signed.close()
    before = session.tokens
    session.refresh()
    # The server rotated the token twice as far as it knows, yet answered the retries with the
    # pair of the first rotation, and the session goes on with it.
    assert len(lossy.dropped) == 2
    assert all(d.refresh_token == lossy.dropped[0].refresh_token for d in lossy.dropped)
    assert session.tokens.refresh_token == lossy.dropped[0].refresh_token != before.refresh_token
    assert session.tokens.access_token == lossy.dropped[0].access_token
    assert session.accounts.GetMe(pb.GetMeRequest()).id == session.account_id
    session.refresh()
    assert session.accounts.GetMe(pb.GetMeRequest()).id == session.account_id
    channel.close()


def test_a_session_without_retries_loses_itself_to_a_lost_answer(identity_server):
    """The control: the first attempt's failure surfaces when retries are off, and the session
    still holds the token the server retired (which a retry would have exchanged again)."""
    lossy = LoseRefreshAnswers(count=1)
    channel = grpc.intercept_channel(identity_server.channel(), lossy)
    signed = new_customer(identity_server)
    session = Session(channel, signed.marketplace_id, signed.tokens, refresh_attempts=1)
    signed.close()
    with pytest.raises(SoukError) as info:
        session.refresh()
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE and len(lossy.dropped) == 1
    channel.close()


@pytest.fixture(scope="module")
def laundry(identity_channel, identity_server):
    """A fresh copy of Drip 'n Dash on the identity server (2-second tokens), where a job's
    stages are events of its WatchJob stream."""
    api = Api(identity_channel)
    api.laundry = Stub(identity_channel, "souk.v1.Laundry")
    operator = operator_party(api, identity_server)
    marketplace = create_marketplace(api, operator, identity_server.marketplace_id("Drip 'n Dash"))
    return api, {"id": marketplace.id, "operator": operator}


def watched_job(laundry, keep_streams_alive):
    """A student's new job, watched through the package (the student is a Session) with the
    stream's first event read, and a Dasher of the same dorm."""
    api, drip = laundry
    dorm = Dorm(api, drip)
    casey, dana = dorm.student("casey"), dorm.student("dana", dasher=True)
    casey.keep_streams_alive = keep_streams_alive
    job = submit(api, casey)
    stream = casey.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=casey.marketplace_id, job_id=job.id))
    assert next(stream).job.id == job.id
    opened_with = casey.tokens
    # Past the expiry of the token the stream was opened with, by the server's clock too.
    while time.time() < seconds(opened_with.access_token_expire_time) + 1:
        time.sleep(0.05)
    return api, casey, dana, job, stream, opened_with


def test_an_open_stream_keeps_its_session_refreshed(laundry):
    api, casey, dana, job, stream, opened_with = watched_job(laundry, keep_streams_alive=True)
    # No call was made since, yet the session was refreshed, so the server kept the stream.
    assert casey.tokens.refresh_token != opened_with.refresh_token
    assert work(api, dana).id == job.id
    call(api, "AcceptJob", dana, job_id=job.id)
    assert any(event.job.stage == pb.JobStage.JOB_STAGE_DASHER_ACCEPTED_REQUEST for event in stream)
    stream.cancel()


def test_without_refreshes_the_stream_ends_with_its_token(laundry):
    api, casey, dana, job, stream, opened_with = watched_job(laundry, keep_streams_alive=False)
    with pytest.raises(SoukError) as info:
        for _ in stream:
            pass
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED and info.value.reason == "TOKEN_EXPIRED"
    assert casey.tokens.refresh_token == opened_with.refresh_token


def test_a_failing_stream_raises_souk_error(identity_server):
    session = new_customer(identity_server)
    stream = session.orders.WatchOrder(pb.WatchOrderRequest(order_id=str(uuid.uuid4())))
    with pytest.raises(SoukError) as info:
        next(stream)
    assert info.value.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED)
    assert info.value.reason
    session.close()


def test_an_error_without_details_decodes_to_empty_details():
    class Bare(grpc.RpcError):
        def code(self):
            return grpc.StatusCode.UNAVAILABLE

        def details(self):
            return "connection refused"

        def trailing_metadata(self):
            return ()

    error = SoukError.from_rpc_error(Bare())
    assert (error.status, error.message, error.reason, error.reason_number) == (grpc.StatusCode.UNAVAILABLE, "connection refused", "", None)
    assert error.field_violations == [] and error.localized_message == "" and error.retry_delay is None
    assert SoukError.from_rpc_error(error) is error


def test_every_souk_v1_service_has_a_stub_and_a_session_attribute():
    from souk_protos import service_names
    served = [name for name in service_names() if name.startswith("souk.v1.")]
    assert sorted(souk_client.SERVICES) == served
    session = Session(grpc.insecure_channel("127.0.0.1:1"))
    assert session.payment_gateway.descriptor.full_name == "souk.v1.PaymentGateway"
    assert session.service("Catalog") is session.catalog


@pytest.fixture(scope="module")
def demo_server():
    """A demo server of the examples' own: they book windows and buy stock the other modules count."""
    server = Server("--demo", "--password-hash-memory-kib", "8192")
    yield server
    stop_cleanly(server)


EXPECTED = {
    "aqua_hub": ["Aqua Hub: 5 services", "Safi Water", "cash collected: SAR 50.00, successful", ": completed"],
    "chateau_du_nox": ["Barbera d'Alba", "payment successful", "received (confirmed by the customer)"],
    "drip_n_dash": ["estimate for 2 loads with folding: USD 13.50", "dropped off laundry", "final price USD"],
    "mara": ["the cheapest listings", "lease requested", "confirmed", "lease active"],
    "dineswift": ["Pizza Roma", "Margherita Pizza", "in cash, placed", "Pizza Roma: preparing"],
}


@pytest.mark.parametrize("example", sorted(EXPECTED))
def test_the_example_runs_against_a_demo_server(demo_server, example):
    assert (EXAMPLES / f"{example}.py").is_file()
    run = subprocess.run([sys.executable, str(EXAMPLES / f"{example}.py"), "--target", demo_server.address],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert run.returncode == 0, f"{example} failed:\n{run.stdout}\n{run.stderr}"
    for text in EXPECTED[example]:
        assert text in run.stdout, f"{example} printed no {text!r}:\n{run.stdout}"


def test_there_is_one_example_per_app():
    assert sorted(p.stem for p in pathlib.Path(EXAMPLES).glob("*.py")) == sorted(EXPECTED)
