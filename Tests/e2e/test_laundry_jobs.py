"""Drip 'n Dash jobs end to end through grpcio: the customer flow, denying the first Dasher,
cancelling before pickup and being refused after it, the Dasher flow, denying a job and taking
the next, and 50 Dashers asking at once for work from a queue of 20 jobs."""
import threading
import uuid

import grpc
import pytest

from souk_identity import TIMEOUT, Api, Party, Reason, STRONG_PASSWORD, create_marketplace, operator_party, pb, refused, request_id
from souk_protos import Stub, enum

Code = grpc.StatusCode
Stage = enum("souk.v1.JobStage")
JobState = enum("souk.v1.JobState")
Role = enum("souk.v1.Role")
MARKETPLACE = "Drip 'n Dash"


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.laundry = Stub(identity_channel, "souk.v1.Laundry")
    return api


@pytest.fixture(scope="module")
def drip(api, identity_server):
    operator = operator_party(api, identity_server)
    marketplace = create_marketplace(api, operator, identity_server.marketplace_id(MARKETPLACE))
    return {"id": marketplace.id, "operator": operator, "settings": marketplace.settings.laundry}


class Dorm:
    """Students of one dorm of the fresh marketplace (a dorm of their own per test, so queues
    do not mix)."""

    def __init__(self, api, drip):
        self.api, self.drip = api, drip
        self.id = api.laundry.CreateDorm(pb.CreateDormRequest(
            marketplace_id=drip["id"], request_id=request_id(), dorm=pb.Dorm(campus="Busch", name=f"Hall {uuid.uuid4().hex[:8]}")),
            metadata=drip["operator"].md(), timeout=TIMEOUT).id

    def student(self, name: str, *, dasher: bool = False) -> Party:
        email = f"{name}-{uuid.uuid4().hex[:8]}@rutgers.edu"
        self.api.accounts.CreateAccount(pb.CreateAccountRequest(
            marketplace_id=self.drip["id"], request_id=request_id(), email=email, initial_password=STRONG_PASSWORD,
            given_name=name.capitalize(), family_name="Private", roles=[Role.ROLE_COURIER] if dasher else [],
            laundry_profile=pb.LaundryProfile(campus="Busch", dorm_id=self.id, room="214")),
            metadata=self.drip["operator"].md(), timeout=TIMEOUT)
        return Party.login(self.api, self.drip["id"], email, STRONG_PASSWORD)


def call(api, method, party, **fields):
    request = getattr(pb, f"{method}Request")(marketplace_id=party.marketplace_id, **fields)
    return getattr(api.laundry, method)(request, metadata=party.md(), timeout=TIMEOUT)


def submit(api, customer, loads=2, **fields):
    return call(api, "SubmitJob", customer, request_id=request_id(), loads_estimate=loads, instructions="delicates", **fields)


def work(api, dasher):
    response = call(api, "RequestWork", dasher)
    return response.job if response.HasField("job") else None


def advance(api, job, dasher, stage, **fields):
    return call(api, "AdvanceJobStage", dasher, job_id=job.id, target_stage=stage, **fields)


STAGES = [Stage.JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP, Stage.JOB_STAGE_PICKED_UP_LAUNDRY, Stage.JOB_STAGE_LAUNDRY_IN_WASHER,
          Stage.JOB_STAGE_FINISHED_WASHING, Stage.JOB_STAGE_LAUNDRY_IN_DRYER]


def test_the_stages_carry_the_apps_numbers():
    assert Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT == 0
    assert Stage.JOB_STAGE_PICKED_UP_LAUNDRY == 3
    assert Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY == 9


def test_the_customer_and_dasher_flows(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    settings = drip["settings"]
    estimate = call(api, "EstimateJobPrice", customer, loads_estimate=2, add_ons=[1])
    assert estimate.total.amount_minor == (2 * settings.machine_cost_per_load.amount_minor + settings.service_fee.amount_minor
                                           + settings.folding_price.amount_minor)
    job = submit(api, customer, add_ons=[1])
    assert job.stage == 0 and job.state == JobState.JOB_STATE_ACTIVE and job.estimate.total == estimate.total

    offered = work(api, dasher)
    assert offered.id == job.id
    job = call(api, "AcceptJob", dasher, job_id=job.id)
    assert job.stage == 1 and job.dasher.display_name == "Dana" and "Private" not in str(job.dasher)
    for stage in STAGES:
        job = advance(api, job, dasher, stage)
    refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING), Code.INVALID_ARGUMENT,
            field="actual_loads", reason=Reason.ERROR_REASON_FINAL_COST_REQUIRED)
    job = advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=2,
                  machine_cost_total=pb.Money(amount_minor=700, currency_code="USD"))
    assert job.final_price.subtotal.amount_minor == 700 and job.stage == 7
    job = advance(api, job, dasher, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF)
    job = advance(api, job, dasher, Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY)
    assert job.stage == 9 and job.state == JobState.JOB_STATE_DROPPED_OFF
    mine = call(api, "ListJobs", customer)
    assert [j.id for j in mine.jobs] == [job.id]


def test_denying_the_first_dasher_sends_the_job_back_to_the_queue(api, drip):
    dorm = Dorm(api, drip)
    customer, first, second = dorm.student("casey"), dorm.student("dana", dasher=True), dorm.student("drew", dasher=True)
    job = submit(api, customer)
    assert work(api, first).id == job.id
    call(api, "AcceptJob", first, job_id=job.id)
    job = call(api, "RejectDasher", customer, job_id=job.id)
    assert job.stage == 0 and job.dasher_account_id == ""
    assert work(api, first) is None
    assert work(api, second).id == job.id


def test_cancelling_before_pickup_and_refused_after_it(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    early = submit(api, customer)
    assert call(api, "CancelJob", customer, job_id=early.id).state == JobState.JOB_STATE_CANCELLED
    assert work(api, dasher) is None
    job = submit(api, customer)
    work(api, dasher)
    job = call(api, "AcceptJob", dasher, job_id=job.id)
    job = advance(api, job, dasher, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP)
    job = advance(api, job, dasher, Stage.JOB_STAGE_PICKED_UP_LAUNDRY)
    error = refused(lambda: call(api, "CancelJob", customer, job_id=job.id), Code.FAILED_PRECONDITION,
                    reason=Reason.ERROR_REASON_CANCEL_NOT_ALLOWED)
    assert "already been picked up" in error.details()


def test_a_dasher_denies_a_job_and_takes_the_next(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    first, second = submit(api, customer), submit(api, customer)
    assert work(api, dasher).id == first.id
    call(api, "DenyJob", dasher, job_id=first.id)
    assert work(api, dasher).id == second.id
    other = dorm.student("drew", dasher=True)
    assert work(api, other).id == first.id  # the denied job kept its place


def test_fifty_dashers_asking_at_once_from_a_queue_of_twenty(api, drip):
    dorm = Dorm(api, drip)
    customer = dorm.student("casey")
    jobs = [submit(api, customer, loads=1).id for _ in range(20)]
    dashers = [dorm.student(f"dasher{i}", dasher=True) for i in range(50)]
    for d in dashers:
        d.md()  # fresh tokens before the start line
    results, start = [None] * 50, threading.Barrier(50)

    def ask(index):
        start.wait()
        job = work(api, dashers[index])
        results[index] = job.id if job else ""

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    taken = [r for r in results if r]
    assert len(taken) == 20 and set(taken) == set(jobs)
    assert results.count("") == 30


def test_the_dashboard_counts_jobs_as_orders(api, identity_server):
    """Drip 'n Dash's overview: a job is placed when submitted, completed when dropped off (its
    final price is revenue), cancelled when cancelled; job stages are no order statuses."""
    operator = operator_party(api, identity_server)
    market = create_marketplace(api, operator, identity_server.marketplace_id(MARKETPLACE))
    own = {"id": market.id, "operator": operator, "settings": market.settings.laundry}
    dorm = Dorm(api, own)
    customers, dasher = [dorm.student("casey"), dorm.student("cody")], dorm.student("dana", dasher=True)
    jobs = [submit(api, customers[n % 2]) for n in range(4)]
    call(api, "CancelJob", customers[1], job_id=jobs[1].id, reason="changed my mind")
    job = call(api, "AcceptJob", dasher, job_id=work(api, dasher).id)
    assert job.id == jobs[0].id
    for stage in STAGES:
        job = advance(api, job, dasher, stage)
    job = advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=2,
                  machine_cost_total=pb.Money(amount_minor=700, currency_code="USD"))
    job = advance(api, job, dasher, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF)
    job = advance(api, job, dasher, Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY)
    reports = Stub(api.channel, "souk.v1.Reports")
    overview = reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market.id, period=enum("souk.v1.ReportPeriod").REPORT_PERIOD_WEEK),
                                         metadata=operator.md(), timeout=TIMEOUT)
    assert (overview.orders_placed, overview.orders_completed, overview.orders_cancelled, overview.deliveries_completed) == (4, 1, 1, 1)
    assert overview.revenue.amount_minor == job.final_price.subtotal.amount_minor > 0
    assert overview.fees.amount_minor == job.final_price.fees_total.amount_minor
    assert overview.active_customers == 2 and overview.active_couriers == 1 and not overview.orders_by_status
    assert sum(d.orders_placed for d in overview.days) == 4 and len(overview.days) == 7
