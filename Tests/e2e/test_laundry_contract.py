"""Drip 'n Dash answers as the contract says (issue 25): laundry ratings are listed by
Feedback.ListFeedback with every other rating; stage 7 names every missing or wrong final-cost
field, and a set 0 loads is told from unset ones; a Dasher of another dorm named as preferred is
FAILED_PRECONDITION once, with the field path once; refusals a client handles differently carry
their own reasons; status filters take several values and lists take `order_by`; the quiz shows
a correct answer of 0 to admins and none to students; every field violation of a request is
named at once."""
import grpc
import pytest

from souk_identity import TIMEOUT, Reason, pb, refused, request_id
from souk_protos import Stub, enum, field_violations
# The jobs modules' fixtures (api, drip) and helpers serve this module too.
from test_laundry_after_dropoff import dropped_off, pay, rate
from test_laundry_jobs import Dorm, advance, api, call, drip, submit, work  # noqa: F401

Code = grpc.StatusCode
Stage = enum("souk.v1.JobStage")
JobState = enum("souk.v1.JobState")
ResourceType = enum("souk.v1.ResourceType")


@pytest.fixture(scope="module")
def payments(identity_channel):
    return Stub(identity_channel, "souk.v1.Payments")


@pytest.fixture(scope="module")
def feedback(identity_channel):
    return Stub(identity_channel, "souk.v1.Feedback")


def listed(feedback, party, **filters):
    return feedback.ListFeedback(pb.ListFeedbackRequest(marketplace_id=party.marketplace_id, **filters), metadata=party.md(),
                                 timeout=TIMEOUT).feedback


def accepted(api, customer, dasher):
    job = submit(api, customer)
    assert work(api, dasher).id == job.id
    return call(api, "AcceptJob", dasher, job_id=job.id)


def to_stage_6(api, job, dasher):
    for stage in range(2, 7):
        job = advance(api, job, dasher, stage)
    return job


def test_laundry_ratings_are_listed_with_every_other_rating(api, drip, payments, feedback):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    first, second = dropped_off(api, customer, dasher), dropped_off(api, customer, dasher)
    for job, stars in ((first, 4), (second, 5)):
        pay(payments, job, customer, card_token="tok_visa")
        rate(api, job, customer, stars)
    rate(api, first, dasher, 3)
    summary = feedback.GetRatingSummary(pb.GetRatingSummaryRequest(marketplace_id=drip["id"], account_id=dasher.account_id),
                                        timeout=TIMEOUT)
    assert (summary.count, summary.average_hundredths) == (2, 450)
    # The Dasher's reviews, newest first, as a customer reads them before naming a Dasher.
    about_dasher = listed(feedback, customer, rated_account_id=dasher.account_id)
    assert [(e.subject.type, e.subject.id, e.stars) for e in about_dasher] == [
        (ResourceType.RESOURCE_TYPE_JOB, second.id, 5), (ResourceType.RESOURCE_TYPE_JOB, first.id, 4)]
    assert about_dasher[0].rated.display_name == "Dana" and about_dasher[0].author.display_name == "Casey"
    # Both sides of one job, and oldest first with order_by.
    about_job = listed(feedback, customer, subject_id=first.id)
    assert sorted(e.author_account_id for e in about_job) == sorted([customer.account_id, dasher.account_id])
    assert [e.stars for e in listed(feedback, customer, rated_account_id=dasher.account_id, order_by="create_time")] == [4, 5]
    assert [e.subject.id for e in listed(feedback, dasher, author_account_id=dasher.account_id)] == [first.id]
    # One rating per side still: the second one is refused, and nothing more is listed.
    refused(lambda: rate(api, first, customer, 1), Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_ALREADY_RATED)
    assert len(listed(feedback, customer, subject_id=first.id)) == 2
    refused(lambda: listed(feedback, customer, rated_account_id=dasher.account_id, order_by="stars"), Code.INVALID_ARGUMENT,
            field="order_by")


def test_stage_7_names_every_missing_final_cost_field_and_a_set_zero(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    job = to_stage_6(api, accepted(api, customer, dasher), dasher)
    cost = pb.Money(amount_minor=600, currency_code="USD")
    # Neither given: both named, as the fields the Dasher must fill in.
    error = refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING), Code.INVALID_ARGUMENT,
                    reason=Reason.ERROR_REASON_FINAL_COST_REQUIRED)
    assert [v.field for v in field_violations(error)] == ["actual_loads", "machine_cost_total"]
    # Loads missing: only they are named (the machine cost used to be).
    error = refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, machine_cost_total=cost),
                    Code.INVALID_ARGUMENT, field="actual_loads", reason=Reason.ERROR_REASON_FINAL_COST_REQUIRED)
    assert [v.field for v in field_violations(error)] == ["actual_loads"]
    # A set 0 is a wrong value, not a missing one; with a wrong cost both are named.
    refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=0, machine_cost_total=cost),
            Code.INVALID_ARGUMENT, field="actual_loads")
    error = refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=0,
                                    machine_cost_total=pb.Money(amount_minor=-1, currency_code="USD")), Code.INVALID_ARGUMENT)
    assert [v.field for v in field_violations(error)] == ["actual_loads", "machine_cost_total"]
    job = advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=2, machine_cost_total=cost)
    assert job.stage == Stage.JOB_STAGE_FINISHED_DRYING and job.actual_loads == 2


def test_a_dasher_of_another_dorm_is_not_accepting_here(api, drip):
    here, there = Dorm(api, drip), Dorm(api, drip)
    customer, elsewhere = here.student("casey"), there.student("omar", dasher=True)
    error = refused(lambda: submit(api, customer, preferred_dasher_account_id=elsewhere.account_id), Code.FAILED_PRECONDITION,
                    field="preferred_dasher_account_id", reason=Reason.ERROR_REASON_DASHER_NOT_ACCEPTING)
    assert error.details().count("preferred_dasher_account_id") == 1 and "another dorm" in error.details()
    # An account that is no Dasher at all is still unknown as one.
    refused(lambda: submit(api, customer, preferred_dasher_account_id=there.student("olive").account_id), Code.NOT_FOUND,
            field="preferred_dasher_account_id", reason=Reason.ERROR_REASON_RESOURCE_NOT_FOUND)


def test_refusals_a_client_handles_differently_have_their_own_reasons(api, drip, payments):
    dorm = Dorm(api, drip)
    customer, dasher, other = dorm.student("casey"), dorm.student("dana", dasher=True), dorm.student("drew", dasher=True)
    # A job offered to one Dasher cannot be taken or denied by another: ask for work again.
    job = submit(api, customer)
    assert work(api, dasher).id == job.id
    for method in ("AcceptJob", "DenyJob"):
        refused(lambda: call(api, method, other, job_id=job.id), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_JOB_NOT_OFFERED)
    call(api, "CancelJob", customer, job_id=job.id)
    # Disputes: not paid yet, then once only.
    job = dropped_off(api, customer, dasher)
    refused(lambda: call(api, "DisputeJob", customer, job_id=job.id, reason="a sock is missing"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_NOT_PAID)
    pay(payments, job, customer, card_token="tok_visa")
    call(api, "DisputeJob", customer, job_id=job.id, reason="a sock is missing")
    refused(lambda: call(api, "DisputeJob", customer, job_id=job.id, reason="again"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_ALREADY_DISPUTED)
    # A Dasher taking the quiz again.
    refused(lambda: call(api, "SubmitQuizAnswers", dasher, dasher_age=20), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_ALREADY_DASHER)


def test_job_lists_take_several_states_and_an_order(api, drip):
    dorm = Dorm(api, drip)
    customer, dasher = dorm.student("casey"), dorm.student("dana", dasher=True)
    cancelled = submit(api, customer)
    call(api, "CancelJob", customer, job_id=cancelled.id)
    done = dropped_off(api, customer, dasher)
    active = submit(api, customer)

    def ids(**fields):
        return [j.id for j in call(api, "ListJobs", customer, **fields).jobs]

    assert ids() == [active.id, done.id, cancelled.id]
    assert ids(states=[JobState.JOB_STATE_CANCELLED, JobState.JOB_STATE_DROPPED_OFF]) == [done.id, cancelled.id]
    assert ids(states=[JobState.JOB_STATE_ACTIVE]) == [active.id]
    assert ids(order_by="create_time") == [cancelled.id, done.id, active.id]
    assert [j.id for j in call(api, "ListJobs", dasher, dasher_account_id=dasher.account_id,
                                states=[JobState.JOB_STATE_DROPPED_OFF]).jobs] == [done.id]
    # Pages of a multi-state list follow each other.
    first = call(api, "ListJobs", customer, states=[JobState.JOB_STATE_CANCELLED, JobState.JOB_STATE_DROPPED_OFF], page_size=1)
    assert [j.id for j in first.jobs] == [done.id] and first.next_page_token
    rest = call(api, "ListJobs", customer, states=[JobState.JOB_STATE_CANCELLED, JobState.JOB_STATE_DROPPED_OFF], page_size=1,
                page_token=first.next_page_token)
    assert [j.id for j in rest.jobs] == [cancelled.id]
    # Every wrong field at once.
    error = refused(lambda: call(api, "ListJobs", customer, states=[0], order_by="stage", page_size=-1), Code.INVALID_ARGUMENT)
    assert {v.field for v in field_violations(error)} == {"states", "order_by", "page_size"}


def test_a_correct_choice_of_0_is_shown_to_admins_and_hidden_from_students(api, drip):
    operator = drip["operator"]
    student = Dorm(api, drip).student("casey")

    def create(**question):
        return api.laundry.CreateQuizQuestion(pb.CreateQuizQuestionRequest(
            marketplace_id=drip["id"], request_id=request_id(), question=pb.QuizQuestion(**question)),
            metadata=operator.md(), timeout=TIMEOUT)

    created = create(text="Cold water keeps dark colours?", choices=["Yes", "No"], correct_choice=0)
    assert created.HasField("correct_choice") and created.correct_choice == 0
    admin_view = api.laundry.ListQuizQuestions(pb.ListQuizQuestionsRequest(marketplace_id=drip["id"], page_size=100),
                                               metadata=operator.md(), timeout=TIMEOUT).questions
    assert all(q.HasField("correct_choice") for q in admin_view)
    student_view = call(api, "ListQuizQuestions", student, page_size=100).questions
    assert student_view and not any(q.HasField("correct_choice") for q in student_view)
    # Without an answer, with an empty text and one choice: every violation named.
    error = refused(lambda: create(text=" ", choices=["Only"]), Code.INVALID_ARGUMENT)
    assert {v.field for v in field_violations(error)} == {"question.text", "question.choices", "question.correct_choice"}


def test_a_submission_names_every_wrong_field(api, drip):
    customer = Dorm(api, drip).student("casey")
    error = refused(lambda: call(api, "SubmitJob", customer, request_id=request_id(), loads_estimate=0, add_ons=[0],
                                 instructions="x" * 1001), Code.INVALID_ARGUMENT)
    assert {v.field for v in field_violations(error)} == {"loads_estimate", "add_ons[0]", "instructions"}
