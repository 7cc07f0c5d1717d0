"""Drip 'n Dash after stage 9 end to end through grpcio: a job taken to stage 9, paid with a
card token after a declined card (which stores nothing), rated both ways with the averages
checked, a dispute resolved with a partial refund, both histories, the Dasher's earnings for
the week and the month, and the job's event stream ending at stage 9."""
import datetime

import grpc
import pytest

from souk_identity import TIMEOUT, Reason, pb, refused, request_id
from souk_protos import Stub, enum
# The jobs module's fixtures (api, drip) serve this module too.
from test_laundry_jobs import Dorm, advance, api, call, drip, submit, work  # noqa: F401

Code = grpc.StatusCode
Stage = enum("souk.v1.JobStage")
JobState = enum("souk.v1.JobState")
PaymentStatus = enum("souk.v1.PaymentStatus")
DisputeStatus = enum("souk.v1.DisputeStatus")
DisputeOutcome = enum("souk.v1.DisputeOutcome")
EarningsPeriod = enum("souk.v1.EarningsPeriod")


@pytest.fixture(scope="module")
def payments(identity_channel):
    return Stub(identity_channel, "souk.v1.Payments")


def dropped_off(api, customer, dasher, machine_cost=900):
    """A job of `customer` taken by `dasher` through the ten stages."""
    job = submit(api, customer, add_ons=[1])
    assert work(api, dasher).id == job.id
    job = call(api, "AcceptJob", dasher, job_id=job.id)
    for stage in range(2, 10):
        fields = {"actual_loads": 3, "machine_cost_total": pb.Money(amount_minor=machine_cost, currency_code="USD")} if stage == 7 else {}
        job = advance(api, job, dasher, stage, **fields)
    assert job.state == JobState.JOB_STATE_DROPPED_OFF and job.HasField("complete_time")
    return job


def pay(payments, job, customer, rid=None, **method):
    request = pb.CreatePaymentRequest(marketplace_id=customer.marketplace_id, request_id=rid or request_id(), job_id=job.id,
                                      method=pb.PaymentMethodInput(**method))
    return payments.CreatePayment(request, metadata=customer.md(), timeout=TIMEOUT)


def rate(api, job, who, stars, rid=None):
    return call(api, "RateJob", who, request_id=rid or request_id(), job_id=job.id, stars=stars, comment="thanks")


def account(api, party):
    return api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=party.marketplace_id, account_id=party.account_id), metadata=party.md(), timeout=TIMEOUT)


def test_paid_rated_disputed_with_histories_and_earnings(api, drip, payments):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    operator = drip["operator"]
    settings = drip["settings"]
    early = submit(api, customer)
    refused(lambda: pay(payments, early, customer, card_token="tok_visa"), Code.FAILED_PRECONDITION)
    call(api, "CancelJob", customer, job_id=early.id)

    job = dropped_off(api, customer, dasher)
    price = 900 + settings.service_fee.amount_minor + settings.folding_price.amount_minor
    assert job.final_price.total.amount_minor == price

    # A declined card stores nothing; a card token pays the Dasher; the job is paid once.
    refused(lambda: pay(payments, job, customer, card_token="tok_decline"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_PAYMENT_DECLINED)
    assert call(api, "GetJob", customer, job_id=job.id).payment_id == ""
    payment = pay(payments, job, customer, rid="pay-" + job.id, card_token="tok_visa")
    assert payment.status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL and payment.amount.amount_minor == price
    assert payment.payee_account_id == dasher.account_id and payment.card_last4 == "4242"
    assert pay(payments, job, customer, rid="pay-" + job.id, card_token="tok_visa").id == payment.id
    refused(lambda: pay(payments, job, customer, card_token="tok_visa"), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_ALREADY_PAID)
    job = call(api, "GetJob", customer, job_id=job.id)
    assert job.payment_id == payment.id and job.paid_amount.amount_minor == price

    # Ratings both ways, once each; the first rating replaces the Dasher's starting 5.
    assert account(api, dasher).rating.average_hundredths == 500
    entry = rate(api, job, customer, 4)
    assert entry.rated_account_id == dasher.account_id and entry.rated.display_name == "Dana"
    refused(lambda: call(api, "DisputeJob", dasher, job_id=job.id, reason="not mine"), Code.PERMISSION_DENIED)
    refused(lambda: rate(api, job, customer, 5), Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_ALREADY_RATED)
    rate(api, job, dasher, 3)
    second = dropped_off(api, customer, dasher)
    pay(payments, second, customer, google_pay_token="googlepay_e2e_0123456789")
    rate(api, second, customer, 5)
    rate(api, second, dasher, 4)
    dana, casey = account(api, dasher), account(api, customer)
    assert (dana.rating.count, dana.rating.average_hundredths) == (2, 450)
    assert (casey.customer_rating.count, casey.customer_rating.average_hundredths) == (2, 350)

    # A dispute, listed for admins and resolved with a partial refund.
    disputed = call(api, "DisputeJob", customer, job_id=job.id, reason="a shirt came back with a stain")
    assert disputed.dispute.status == DisputeStatus.DISPUTE_STATUS_OPEN
    listed = api.laundry.ListJobs(pb.ListJobsRequest(marketplace_id=customer.marketplace_id, open_disputes=True),
                                  metadata=operator.md(), timeout=TIMEOUT)
    assert job.id in [j.id for j in listed.jobs]
    resolved = api.laundry.ResolveDispute(pb.ResolveDisputeRequest(
        marketplace_id=customer.marketplace_id, job_id=job.id, resolution="half of the machine cost back",
        refund=pb.Money(amount_minor=450, currency_code="USD")), metadata=operator.md(), timeout=TIMEOUT)
    assert resolved.dispute.outcome == DisputeOutcome.DISPUTE_OUTCOME_PARTIAL_REFUND
    assert resolved.payment_status == PaymentStatus.PAYMENT_STATUS_PARTIALLY_REFUNDED and resolved.refunded_amount.amount_minor == 450
    refunded = payments.GetPayment(pb.GetPaymentRequest(marketplace_id=customer.marketplace_id, payment_id=payment.id),
                                   metadata=customer.md(), timeout=TIMEOUT)
    assert refunded.refunded_amount.amount_minor == 450

    # Both histories: request and completion times, the other party, the amount.
    mine = call(api, "ListJobs", customer, states=[JobState.JOB_STATE_DROPPED_OFF])
    assert [j.id for j in mine.jobs] == [second.id, job.id]
    seen = mine.jobs[1]
    assert seen.dasher.display_name == "Dana" and "Private" not in str(seen.dasher) and seen.paid_amount.amount_minor == price
    assert seen.create_time.seconds <= seen.complete_time.seconds
    worked = call(api, "ListJobs", dasher, dasher_account_id=dasher.account_id, states=[JobState.JOB_STATE_DROPPED_OFF])
    assert [j.id for j in worked.jobs] == [second.id, job.id]
    assert worked.jobs[1].customer.display_name == "Casey" and worked.jobs[1].room == ""

    # Earnings of this week and this month: two jobs paid, one refund.
    today = datetime.datetime.fromtimestamp(payment.create_time.seconds, datetime.timezone.utc).date()
    day = pb.Date(year=today.year, month=today.month, day=today.day)
    for period in (EarningsPeriod.EARNINGS_PERIOD_WEEK, EarningsPeriod.EARNINGS_PERIOD_MONTH):
        earnings = call(api, "GetDasherEarnings", dasher, period=period, start_date=day, end_date=day)
        assert len(earnings.periods) == 1
        only = earnings.periods[0]
        assert only.jobs_paid == 2 and only.paid.amount_minor == 2 * price and only.refunded.amount_minor == 450
        assert only.earnings.amount_minor == 2 * price - 450 == earnings.total_earnings.amount_minor
    refused(lambda: call(api, "GetDasherEarnings", customer, dasher_account_id=dasher.account_id,
                         period=EarningsPeriod.EARNINGS_PERIOD_WEEK, start_date=day, end_date=day), Code.PERMISSION_DENIED)


def test_the_event_stream_ends_at_stage_9(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    job = dropped_off(api, customer, dasher)

    def watch(resume):
        # list() returns only when the server ends the stream (else the deadline fails it).
        return list(api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=customer.marketplace_id, job_id=job.id,
                                                            resume_after_sequence=resume), metadata=customer.md(), timeout=TIMEOUT))

    replayed = watch(1)
    assert [e.previous_stage for e in replayed][-8:] == list(range(1, 9))
    assert replayed[-1].job.stage == Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY
    current = watch(0)
    assert len(current) == 1 and current[0].job.stage == Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY
