"""The Drip 'n Dash report's "Design of Tests", case by case, through a real souk-server, each
person arriving as a new user would: a dorm found with ListDorms, sign-up with an @rutgers.edu
address, the code from the mail outbox, a login. Each test is named after the report's case.
Then the rules the issue adds: the preferred Dasher and its timeout, the same-gender rule,
unverified and non-Rutgers addresses, and dorms that never see each other.

What the backend does not serve of a case is said where it happens: the report's screens
(redirects, highlighted fields) are the app's; "the customer confirms the job is completed" is
paying it. Covered elsewhere and not repeated here: disputes, histories and earnings
(test_laundry_after_dropoff.py); 50 Dashers asking at once for work from a queue of 20 jobs
(test_laundry_jobs.py); the lockout's end and what counts toward it (test_accounts.py)."""
import threading
import time
import uuid

import grpc
import pytest
from google.rpc import error_details_pb2

from souk_identity import (
    TIMEOUT, Api, Duration, FieldMask, Party, Reason, Role, RoleStatus, STRONG_PASSWORD, create_marketplace, operator_party, pb,
    refused, request_id, role_status, seconds, sign_up, unique_email, verification_code,
)
from souk_protos import Stub, enum, status_detail

Code = grpc.StatusCode
Stage = enum("souk.v1.JobStage")
JobState = enum("souk.v1.JobState")
Gender = enum("souk.v1.Gender")
AddOn = enum("souk.v1.LaundryAddOn")
TEMPLATE = "Drip 'n Dash"
# How long a test polls for a change the server makes on its own (an offer's timeout, the quiz's
# retry delay) before it fails; the waits themselves are a second or two.
PATIENCE = 30


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.laundry = Stub(identity_channel, "souk.v1.Laundry")
    api.notifications = Stub(identity_channel, "souk.v1.Notifications")
    api.payments = Stub(identity_channel, "souk.v1.Payments")
    return api


class Campus:
    """A fresh Drip 'n Dash marketplace made like the demo one (sign-up only with @rutgers.edu,
    the demo's prices and timeouts), with its own admin and quiz, so settings changed here touch
    no other test. Each test takes dorms of its own, so queues never mix."""

    def __init__(self, api: Api, operator: Party, template_id: str):
        self.api, self.operator = api, operator
        self.marketplace = create_marketplace(api, operator, template_id, keep_email_domains=True)
        assert list(self.marketplace.settings.accounts.allowed_email_domains) == ["rutgers.edu"]
        self.id = self.marketplace.id
        email = unique_email("admin", "rutgers.edu")
        api.accounts.CreateAccount(pb.CreateAccountRequest(
            marketplace_id=self.id, request_id=request_id(), email=email, initial_password=STRONG_PASSWORD,
            given_name="Avery", roles=[Role.ROLE_ADMIN]), metadata=operator.md(), timeout=TIMEOUT)
        self.admin = Party.login(api, self.id, email, STRONG_PASSWORD)
        for text, choices, right in [
            ("Which water temperature keeps dark colours from fading?", ["Cold", "Warm", "Hot"], 0),
            ("Where does detergent go in a front-loading washer?", ["On the clothes", "In the drawer", "In the dryer"], 1),
            ("What do you clean before every dryer load?", ["The lint trap", "The drum", "Nothing"], 0),
            ("A red sock in a load of whites will most likely...", ["Do nothing", "Turn them pink", "Shrink"], 1),
            ("A garment labelled dry clean only is...", ["Washed on delicate", "Left out and the customer told"], 1),
        ]:
            api.laundry.CreateQuizQuestion(pb.CreateQuizQuestionRequest(
                marketplace_id=self.id, request_id=request_id(),
                question=pb.QuizQuestion(text=text, choices=choices, correct_choice=right)),
                metadata=self.admin.md(), timeout=TIMEOUT)

    def dorm(self, campus: str = "Busch"):
        """A new dorm, as admins add them; students find it with ListDorms as guests."""
        name = f"Hall {uuid.uuid4().hex[:8]}"
        self.api.laundry.CreateDorm(pb.CreateDormRequest(
            marketplace_id=self.id, request_id=request_id(), dorm=pb.Dorm(campus=campus, name=name)),
            metadata=self.admin.md(), timeout=TIMEOUT)
        listed = self.api.laundry.ListDorms(pb.ListDormsRequest(marketplace_id=self.id, campus=campus, page_size=100),
                                            timeout=TIMEOUT).dorms
        return next(d for d in listed if d.name == name)

    def settings(self, **laundry):
        """Changes laundry settings through the admin's UpdateMarketplaceSettings."""
        current = self.api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=self.id), timeout=TIMEOUT)
        return self.api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
            marketplace_id=self.id, settings=pb.MarketplaceSettings(laundry=pb.LaundrySettings(**laundry)),
            update_mask=FieldMask(paths=[f"laundry.{name}" for name in laundry]), expected_version=current.version),
            metadata=self.admin.md(), timeout=TIMEOUT)

    # ---- People ----

    def profile(self, dorm, room: str = "214", gender: int = 0):
        return pb.LaundryProfile(campus=dorm.campus, dorm_id=dorm.id, room=room, gender=gender)

    def sign_up(self, dorm, given_name: str = "Casey", gender: int = 0, **fields) -> Party:
        return sign_up(self.api, self.id, email=unique_email(given_name.lower(), "rutgers.edu"), given_name=given_name,
                       family_name="Lastname", phone="+17325550123", laundry_profile=self.profile(dorm, gender=gender), **fields)

    def mailed_code(self, party: Party) -> str:
        """The newest verification code mailed to `party` (the operator reads the bodies)."""
        return verification_code(self.api, self.operator, self.id, party.email)

    def verify(self, party: Party):
        self.api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=self.id), metadata=party.md(),
                                               timeout=TIMEOUT)
        return self.api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=self.id, code=self.mailed_code(party)),
                                             metadata=party.md(), timeout=TIMEOUT)

    def student(self, dorm, given_name: str = "Casey", gender: int = 0) -> Party:
        """A verified student, logged in."""
        party = self.sign_up(dorm, given_name, gender)
        self.verify(party)
        return Party.login(self.api, self.id, party.email, party.password)

    def answers(self, right: int):
        """Answers to the live quiz, the first `right` of them right (the admin knows them)."""
        questions = self.api.laundry.ListQuizQuestions(pb.ListQuizQuestionsRequest(marketplace_id=self.id, page_size=100),
                                                       metadata=self.admin.md(), timeout=TIMEOUT).questions
        return [pb.QuizAnswer(question_id=q.id, choice=q.correct_choice if i < right else (q.correct_choice + 1) % len(q.choices))
                for i, q in enumerate(questions)]

    def take_quiz(self, party: Party, right: int = 1000, age: int = 20):
        return self.api.laundry.SubmitQuizAnswers(pb.SubmitQuizAnswersRequest(
            marketplace_id=self.id, answers=self.answers(right), dasher_age=age), metadata=party.md(), timeout=TIMEOUT)

    def dasher(self, dorm, given_name: str = "Dana", gender: int = 0, accepting: bool = True) -> Party:
        """A verified student who passed the quiz, logged in again (the token carries the role)."""
        party = self.student(dorm, given_name, gender)
        assert self.take_quiz(party).passed
        party = Party.login(self.api, self.id, party.email, party.password)
        call(self.api, "SetAcceptingRequests", party, accepting_requests=accepting)
        return party


@pytest.fixture(scope="module")
def campus(api, operator, identity_server):
    return Campus(api, operator, identity_server.marketplace_id(TEMPLATE))


@pytest.fixture
def own_campus(api, operator, identity_server):
    """A marketplace for one test that changes its settings."""
    return Campus(api, operator, identity_server.marketplace_id(TEMPLATE))


def call(api, method, party, **fields):
    request = getattr(pb, f"{method}Request")(marketplace_id=party.marketplace_id, **fields)
    return getattr(api.laundry, method)(request, metadata=party.md(), timeout=TIMEOUT)


def submit(api, customer, loads=2, **fields):
    return call(api, "SubmitJob", customer, request_id=request_id(), loads_estimate=loads, instructions="Cold wash, no softener",
                **fields)


def work(api, dasher):
    response = call(api, "RequestWork", dasher)
    return response.job if response.HasField("job") else None


def advance(api, job, dasher, stage, **fields):
    return call(api, "AdvanceJobStage", dasher, job_id=job.id, target_stage=stage, **fields)


def poll(what, check):
    """Calls `check()` until it returns something true, failing after PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while True:
        result = check()
        if result:
            return result
        assert time.monotonic() < deadline, f"{what} did not happen within {PATIENCE} s"
        time.sleep(0.2)


def retry_delay(error) -> float:
    return seconds(status_detail(error, error_details_pb2.RetryInfo).retry_delay)


def rate(api, job, who, stars):
    return call(api, "RateJob", who, request_id=request_id(), job_id=job.id, stars=stars, comment="Thanks!")


def rating(api, party, field="rating"):
    account = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=party.marketplace_id, account_id=party.account_id),
                                      metadata=party.md(), timeout=TIMEOUT)
    summary = getattr(account, field)
    return summary.count, summary.average_hundredths


def notified(api, party, title):
    found = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=party.marketplace_id, page_size=50),
                                                metadata=party.md(), timeout=TIMEOUT).notifications
    return [n for n in found if n.title == title]


# Stages 2 to 6, which need nothing but the Dasher's word.
PLAIN_STAGES = [Stage.JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP, Stage.JOB_STAGE_PICKED_UP_LAUNDRY, Stage.JOB_STAGE_LAUNDRY_IN_WASHER,
                Stage.JOB_STAGE_FINISHED_WASHING, Stage.JOB_STAGE_LAUNDRY_IN_DRYER]


def run_to_drop_off(api, job, dasher, cost=600):
    """Moves an accepted job through stages 2 to 9; stage 7 with the loads and the machine cost."""
    for stage in PLAIN_STAGES:
        job = advance(api, job, dasher, stage)
    job = advance(api, job, dasher, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=job.loads_estimate,
                  machine_cost_total=pb.Money(amount_minor=cost, currency_code="USD"))
    job = advance(api, job, dasher, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF)
    return advance(api, job, dasher, Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY)


# ======== Customer registration ========

def test_customer_registration_1_sunny_day(api, campus):
    # The registration screen lists the dorms to guests.
    dorm = campus.dorm()
    guests_see = api.laundry.ListDorms(pb.ListDormsRequest(marketplace_id=campus.id, page_size=100), timeout=TIMEOUT).dorms
    assert dorm.id in [d.id for d in guests_see]
    party = campus.sign_up(dorm, "Casey", gender=Gender.GENDER_FEMALE)
    account = party.signup.account
    assert not account.email_verified and role_status(account, Role.ROLE_CUSTOMER) == RoleStatus.ROLE_STATUS_ACTIVE
    assert account.laundry_profile == campus.profile(dorm, gender=Gender.GENDER_FEMALE)
    # Not a customer of the service until the address is proven.
    error = refused(lambda: submit(api, party), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_EMAIL_NOT_VERIFIED)
    assert "not verified" in error.details()
    assert campus.verify(party).email_verified
    me = Party.login(api, campus.id, party.email, party.password).me()
    assert me.email_verified and me.laundry_profile.dorm_id == dorm.id
    assert submit(api, party).stage == Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT


def registration_refusals(campus, dorm):
    """Sign-ups with one field invalid or blank each; every refusal names its field."""
    good = campus.profile(dorm)
    cases = [
        (dict(given_name=""), "given_name", None, "is required"),
        (dict(password="short"), "password", Reason.ERROR_REASON_WEAK_PASSWORD, "password"),
        (dict(password=""), "password", Reason.ERROR_REASON_WEAK_PASSWORD, "password"),
        (dict(phone="732-555"), "phone", None, "E.164"),
        (dict(email=""), "email", None, "is required"),
        (dict(email="casey@gmail.com"), "email", Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED, "@rutgers.edu"),
        (dict(laundry_profile=None), "laundry_profile", None, "is required"),
        (dict(laundry_profile=pb.LaundryProfile(campus=dorm.campus, dorm_id=dorm.id, room="")), "laundry_profile.room", None,
         "is required"),
        (dict(laundry_profile=pb.LaundryProfile(campus="", dorm_id=dorm.id, room="214")), "laundry_profile.campus", None,
         "is required"),
        (dict(laundry_profile=pb.LaundryProfile(campus=dorm.campus, dorm_id=str(uuid.uuid4()), room="214")),
         "laundry_profile.dorm_id", None, "must name a dorm"),
        (dict(laundry_profile=pb.LaundryProfile(campus="Livingston", dorm_id=dorm.id, room="214")), "laundry_profile.campus",
         None, "must be the dorm's campus"),
    ]
    for change, field, reason, words in cases:
        fields = dict(email=unique_email("casey", "rutgers.edu"), password=STRONG_PASSWORD, given_name="Casey",
                      family_name="Lastname", phone="+17325550123", laundry_profile=good)
        fields.update(change)
        if fields["laundry_profile"] is None:
            del fields["laundry_profile"]
        error = refused(lambda: campus.api.accounts.SignUp(pb.SignUpRequest(
            marketplace_id=campus.id, request_id=request_id(), **fields), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field=field, reason=reason)
        assert words in error.details(), f"{field}: {error.details()!r}"


def test_customer_registration_2_rainy_day_invalid_or_blank_fields(api, campus):
    dorm = campus.dorm()
    registration_refusals(campus, dorm)
    # Submitted again with the fields corrected, the registration goes through.
    assert campus.sign_up(dorm).signup.account.id


def test_customer_registration_3_mandarin_and_emojis(api, campus):
    dorm = campus.dorm()
    good = dict(password=STRONG_PASSWORD, given_name="Casey", family_name="Lastname", phone="+17325550123",
                laundry_profile=campus.profile(dorm))
    cases = [
        (dict(email="学生@rutgers.edu"), "email", None, "not allowed before the @"),
        (dict(email="😀😀@rutgers.edu"), "email", None, "not allowed before the @"),
        (dict(email="casey@罗格斯.edu"), "email", None, "invalid domain"),
        (dict(password="密码密码密码密码"), "password", Reason.ERROR_REASON_WEAK_PASSWORD, "password"),
        (dict(password="😀😀😀😀😀😀😀😀"), "password", Reason.ERROR_REASON_WEAK_PASSWORD, "password"),
        (dict(phone="电话号码"), "phone", None, "E.164"),
        (dict(phone="📞📞📞"), "phone", None, "E.164"),
        (dict(laundry_profile=pb.LaundryProfile(campus=dorm.campus, dorm_id="宿舍", room="214")), "laundry_profile.dorm_id",
         None, ""),
        (dict(laundry_profile=pb.LaundryProfile(campus="校园", dorm_id=dorm.id, room="214")), "laundry_profile.campus", None,
         "must be the dorm's campus"),
    ]
    for change, field, reason, words in cases:
        fields = dict(good, email=unique_email("casey", "rutgers.edu"))
        fields.update(change)
        error = refused(lambda: api.accounts.SignUp(pb.SignUpRequest(marketplace_id=campus.id, request_id=request_id(), **fields),
                                                    timeout=TIMEOUT), Code.INVALID_ARGUMENT, field=field, reason=reason)
        assert words in error.details(), f"{field}: {error.details()!r}"
    # Unlike the report, a name in Chinese characters is a name: the platform takes names in any
    # script (DOMAIN.md), so a student called 王小明 can register.
    party = sign_up(api, campus.id, email=unique_email("wang", "rutgers.edu"), given_name="小明", family_name="王",
                    laundry_profile=campus.profile(dorm))
    assert party.signup.account.given_name == "小明"


# ======== Dasher registration ========

def test_dasher_registration_1_sunny_day(api, campus):
    dorm = campus.dorm()
    # "Register as a Dasher": the courier role is asked for at sign-up and stays pending...
    party = campus.sign_up(dorm, "Dana", requested_roles=[Role.ROLE_COURIER])
    assert role_status(party.signup.account, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_PENDING
    campus.verify(party)
    party = Party.login(api, campus.id, party.email, party.password)
    error = refused(lambda: work(api, party), Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_ROLE_PENDING)
    assert "still pending approval" in error.details()
    # ...until the quiz is passed with 80 % or more.
    result = campus.take_quiz(party, right=4, age=19)
    assert result.passed and result.score_percent == 80 and result.correct == 4 and result.total == 5
    assert role_status(result.account, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE
    profile = result.account.dasher_profile
    assert profile.age == 19 and profile.completed_jobs == 0 and profile.dasher_since.seconds > 0
    assert result.account.rating.average_hundredths == 500
    party = Party.login(api, campus.id, party.email, party.password)
    assert work(api, party) is None  # an active Dasher may ask for work; the dorm's queue is empty


def test_dasher_registration_2_rainy_day_then_corrected(api, campus):
    dorm = campus.dorm()
    registration_refusals(campus, dorm)
    # The corrected registration goes through and the quiz follows.
    party = campus.sign_up(dorm, "Dana", requested_roles=[Role.ROLE_COURIER])
    campus.verify(party)
    error = refused(lambda: campus.take_quiz(party, age=12), Code.INVALID_ARGUMENT, field="dasher_age")
    assert "between 16 and 120" in error.details()
    assert campus.take_quiz(party).passed


def test_dasher_registration_3_quiz_failed_then_retaken_after_the_wait(api, own_campus):
    campus = own_campus
    party = campus.student(campus.dorm(), "Dana")
    failed = campus.take_quiz(party, right=3)
    assert not failed.passed and failed.score_percent == 60
    assert role_status(failed.account, Role.ROLE_COURIER) is None
    # The retry is 24 hours after the attempt.
    assert 24 * 3600 - 60 <= seconds(failed.retry_time) - time.time() <= 24 * 3600 + 60
    # Trying again an hour (here: a moment) later says how many hours remain.
    error = refused(lambda: campus.take_quiz(party), Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_QUIZ_RETRY_TOO_SOON)
    assert "failed with 60 %" in error.details() and "retry in 24 hours" in error.details()
    assert 23 * 3600 < retry_delay(error) <= 24 * 3600
    # The wait is a marketplace setting; the admin shortens it, so "after 24 hours" comes soon.
    for wrong in (0, 31 * 86400):
        error = refused(lambda: campus.settings(quiz_retry_delay=Duration(seconds=wrong)), Code.INVALID_ARGUMENT,
                        field="settings.laundry.quiz_retry_delay")
        assert "between 1 and 2592000 seconds" in error.details()
    updated = campus.settings(quiz_retry_delay=Duration(seconds=1))
    assert updated.settings.laundry.quiz_retry_delay.seconds == 1

    def retake():
        try:
            return campus.take_quiz(party)
        except grpc.RpcError as error:
            assert error.code() == Code.RESOURCE_EXHAUSTED, error.details()
            return None
    passed = poll("the retake", retake)
    assert passed.passed and role_status(passed.account, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE


# Dasher registration 4 (Mandarin and emojis) repeats Customer registration 3 word for word: the
# same sign-up serves both (test_customer_registration_3_mandarin_and_emojis).


# ======== User log in ========

def test_user_log_in_1_sunny_day(api, campus):
    party = campus.student(campus.dorm(), "Casey")
    session = api.accounts.Login(pb.LoginRequest(marketplace_id=campus.id, email=party.email, password=party.password),
                                 timeout=TIMEOUT)
    assert session.access_token and session.account.id == party.account_id
    # The e-mail is compared in any case.
    assert api.accounts.Login(pb.LoginRequest(marketplace_id=campus.id, email=party.email.upper(), password=party.password),
                              timeout=TIMEOUT).account.id == party.account_id


def login(api, campus, email, password):
    return api.accounts.Login(pb.LoginRequest(marketplace_id=campus.id, email=email, password=password), timeout=TIMEOUT)


def test_user_log_in_2_wrong_password_then_right_within_five_tries(api, campus):
    party = campus.student(campus.dorm(), "Casey")
    for _ in range(4):
        error = refused(lambda: login(api, campus, party.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
                        reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
        assert error.details() == "wrong e-mail or password"
    assert login(api, campus, party.email, party.password).account.id == party.account_id
    # The limit itself: five wrong in a row lock the account, even against the right password.
    for _ in range(4):
        refused(lambda: login(api, campus, party.email, "Wr0ng!Password"), Code.UNAUTHENTICATED,
                reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    with pytest.raises(grpc.RpcError):
        login(api, campus, party.email, "Wr0ng!Password")
    error = refused(lambda: login(api, campus, party.email, party.password), Code.RESOURCE_EXHAUSTED,
                    reason=Reason.ERROR_REASON_ACCOUNT_LOCKED)
    assert "locked" in error.details()
    assert 14 * 60 < retry_delay(error) <= 15 * 60


def test_user_log_in_3_unknown_username_then_registered(api, campus):
    email = unique_email("newcomer", "rutgers.edu")
    # The answer is the wrong-password one: telling which addresses have accounts would let
    # anyone probe for students (the report's "that username does not exist" is the app's
    # wording of it, with its link to registration).
    error = refused(lambda: login(api, campus, email, STRONG_PASSWORD), Code.UNAUTHENTICATED,
                    reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert error.details() == "wrong e-mail or password"
    party = sign_up(api, campus.id, email=email, given_name="Nico", laundry_profile=campus.profile(campus.dorm()))
    assert login(api, campus, email, STRONG_PASSWORD).account.id == party.account_id


# ======== Customer requests job ========

def watch(api, party, job_id, events, until_stage):
    """Collects the job's events as `party` sees them until one reaches `until_stage`."""
    stream = api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=party.marketplace_id, job_id=job_id),
                                  metadata=party.md(), timeout=PATIENCE)

    def read():
        for event in stream:
            events.append(event)
            if event.job.stage == until_stage:
                stream.cancel()
                return
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    poll("the watch's first event", lambda: events)  # the stream starts with the job as it is
    return thread


def test_customer_requests_job_1_sunny_day(api, campus):
    dorm = campus.dorm()
    customer, dasher = campus.student(dorm, "Casey"), campus.dasher(dorm, "Dana")
    # The request screen: the price before submitting.
    settings = campus.marketplace.settings.laundry
    estimate = call(api, "EstimateJobPrice", customer, loads_estimate=2, add_ons=[AddOn.LAUNDRY_ADD_ON_FOLDING])
    assert estimate.total.amount_minor == (2 * settings.machine_cost_per_load.amount_minor + settings.service_fee.amount_minor
                                           + settings.folding_price.amount_minor)
    job = submit(api, customer, add_ons=[AddOn.LAUNDRY_ADD_ON_FOLDING])
    assert job.stage == Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT and job.estimate.total == estimate.total
    events = []
    watcher = watch(api, customer, job.id, events, Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY)

    assert work(api, dasher).id == job.id
    call(api, "AcceptJob", dasher, job_id=job.id)
    # The customer is matched and sees the Dasher: first name and rating, nothing private.
    seen = call(api, "GetJob", customer, job_id=job.id)
    assert seen.stage == Stage.JOB_STAGE_DASHER_ACCEPTED_REQUEST and seen.dasher.display_name == "Dana"
    assert seen.dasher.rating.average_hundredths == 500
    assert seen.dasher_completed_jobs == 0 and seen.dasher_since.seconds > 0
    for private in ("Lastname", "+1732555", "@rutgers.edu"):
        assert private not in str(seen.dasher)
    # Keeping the Dasher is not rejecting them; the Active Jobs page lists the job.
    active = call(api, "ListJobs", customer, states=[JobState.JOB_STATE_ACTIVE]).jobs
    assert [j.id for j in active] == [job.id]
    done = run_to_drop_off(api, seen, dasher)
    assert done.state == JobState.JOB_STATE_DROPPED_OFF and done.final_price.total.amount_minor > 0
    assert call(api, "GetJob", customer, job_id=job.id).dasher_completed_jobs == 1
    watcher.join(PATIENCE)
    # The customer saw every stage, in order, as it happened.
    stages = [e.job.stage for e in events]
    assert stages[-1] == Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY
    reached = [s for i, s in enumerate(stages) if i == 0 or s != stages[i - 1]]
    assert reached == list(range(10))
    assert len(notified(api, customer, "Stage 9: Dropped Off Laundry")) == 1
    history = call(api, "ListJobs", customer, states=[JobState.JOB_STATE_DROPPED_OFF]).jobs
    assert [j.id for j in history] == [job.id]
    # The customer confirms the completed job by paying it (Apple Pay), then rates the Dasher.
    error = refused(lambda: rate(api, done, customer, 5), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_NOT_RATABLE)
    assert "paid" in error.details()
    payment = api.payments.CreatePayment(pb.CreatePaymentRequest(
        marketplace_id=campus.id, request_id=request_id(), job_id=job.id,
        method=pb.PaymentMethodInput(apple_pay_token="applepay_e2e_0123456789")), metadata=customer.md(), timeout=TIMEOUT)
    assert payment.amount == done.final_price.total and payment.payee_account_id == dasher.account_id
    assert rating(api, dasher) == (0, 500)
    entry = rate(api, done, customer, 4)
    assert entry.rated_account_id == dasher.account_id and entry.rated.display_name == "Dana"
    assert rating(api, dasher) == (1, 400)


def test_customer_requests_job_2_customer_denies_the_first_dasher(api, campus):
    dorm = campus.dorm()
    customer = campus.student(dorm, "Casey")
    first, second = campus.dasher(dorm, "Dana"), campus.dasher(dorm, "Drew")
    job = submit(api, customer)
    assert work(api, first).id == job.id
    call(api, "AcceptJob", first, job_id=job.id)
    assert call(api, "GetJob", customer, job_id=job.id).dasher.display_name == "Dana"
    job = call(api, "RejectDasher", customer, job_id=job.id, reason="I know Dana")
    assert job.stage == Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT and job.dasher_account_id == ""
    assert len(notified(api, first, "The customer chose another Dasher")) == 1
    # The first Dasher never sees the job again; the next one does, and the customer keeps them.
    assert work(api, first) is None
    assert work(api, second).id == job.id
    call(api, "AcceptJob", second, job_id=job.id)
    job = call(api, "GetJob", customer, job_id=job.id)
    assert job.dasher.display_name == "Drew" and job.stage == Stage.JOB_STAGE_DASHER_ACCEPTED_REQUEST
    assert run_to_drop_off(api, job, second).state == JobState.JOB_STATE_DROPPED_OFF


def matched(api, campus, dorm):
    """A customer's job accepted by a Dasher of the dorm."""
    customer, dasher = campus.student(dorm, "Casey"), campus.dasher(dorm, "Dana")
    job = submit(api, customer)
    assert work(api, dasher).id == job.id
    return customer, dasher, call(api, "AcceptJob", dasher, job_id=job.id)


def test_customer_requests_job_3_cancelled_before_pickup(api, campus):
    dorm = campus.dorm()
    customer, dasher, job = matched(api, campus, dorm)
    job = advance(api, job, dasher, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP)
    job = call(api, "CancelJob", customer, job_id=job.id, reason="Plans changed")
    assert job.state == JobState.JOB_STATE_CANCELLED and job.cancel_reason == "Plans changed"
    # The Dasher is told, and the job is out of the queue and theirs no more.
    assert len(notified(api, dasher, "Laundry job cancelled")) == 1
    assert work(api, campus.dasher(dorm, "Drew")) is None
    error = refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_PICKED_UP_LAUNDRY), Code.FAILED_PRECONDITION,
                    reason=Reason.ERROR_REASON_STAGE_NOT_NEXT)
    assert "CANCELLED" in error.details()
    assert call(api, "ListJobs", customer, states=[JobState.JOB_STATE_CANCELLED]).jobs[0].id == job.id


def test_customer_requests_job_4_cancel_refused_after_pickup(api, campus):
    dorm = campus.dorm()
    customer, dasher, job = matched(api, campus, dorm)
    job = advance(api, job, dasher, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP)
    job = advance(api, job, dasher, Stage.JOB_STAGE_PICKED_UP_LAUNDRY)
    error = refused(lambda: call(api, "CancelJob", customer, job_id=job.id), Code.FAILED_PRECONDITION,
                    reason=Reason.ERROR_REASON_CANCEL_NOT_ALLOWED)
    assert "cannot be cancelled: the laundry has already been picked up (stage 3)" in error.details()
    assert call(api, "GetJob", customer, job_id=job.id).state == JobState.JOB_STATE_ACTIVE


# ======== Dasher requests job ========

def test_dasher_requests_job_1_sunny_day(api, campus):
    dorm = campus.dorm()
    customer, dasher = campus.student(dorm, "Casey"), campus.dasher(dorm, "Dana")
    job = submit(api, customer, loads=3, add_ons=[AddOn.LAUNDRY_ADD_ON_IRONING])
    offered = work(api, dasher)
    # The job info screen: what to do and where, and the customer's first name only.
    assert offered.id == job.id and offered.loads_estimate == 3 and offered.instructions == "Cold wash, no softener"
    assert offered.room == "214" and list(offered.add_ons) == [AddOn.LAUNDRY_ADD_ON_IRONING]
    assert offered.customer.display_name == "Casey" and "Lastname" not in str(offered.customer)
    job = call(api, "AcceptJob", dasher, job_id=job.id)
    # The Active Jobs page, updated stage by stage: "on the way", "wash", "dry", "on the way".
    assert [j.id for j in call(api, "ListJobs", dasher, dasher_account_id=dasher.account_id).jobs] == [job.id]
    error = refused(lambda: advance(api, job, dasher, Stage.JOB_STAGE_PICKED_UP_LAUNDRY), Code.FAILED_PRECONDITION,
                    reason=Reason.ERROR_REASON_STAGE_NOT_NEXT)
    assert "JOB_STAGE_DASHER_ACCEPTED_REQUEST" in error.details()
    done = run_to_drop_off(api, job, dasher, cost=900)
    assert done.stage == Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY and done.machine_cost_total.amount_minor == 900
    assert done.final_price.subtotal.amount_minor == 900
    me = dasher.me()
    assert me.dasher_profile.completed_jobs == 1
    # The Dasher rates the customer, once.
    assert rate(api, done, dasher, 5).rated_account_id == customer.account_id
    assert rating(api, customer, "customer_rating") == (1, 500)
    error = refused(lambda: rate(api, done, dasher, 4), Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_ALREADY_RATED)
    assert error.details()


def test_dasher_requests_job_2_denies_the_first_and_accepts_the_next(api, campus):
    dorm = campus.dorm()
    first_customer, second_customer = campus.student(dorm, "Casey"), campus.student(dorm, "Cory")
    dasher = campus.dasher(dorm, "Dana")
    first, second = submit(api, first_customer), submit(api, second_customer)
    assert work(api, dasher).id == first.id
    denied = call(api, "DenyJob", dasher, job_id=first.id)
    assert denied.stage == Stage.JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT and denied.offered_to_account_id == ""
    assert work(api, dasher).id == second.id
    job = call(api, "AcceptJob", dasher, job_id=second.id)
    assert run_to_drop_off(api, job, dasher).state == JobState.JOB_STATE_DROPPED_OFF
    # The denied job kept its place at the head of the queue, for other Dashers only.
    assert work(api, dasher) is None
    assert work(api, campus.dasher(dorm, "Drew")).id == first.id


# ======== The rules ========

def test_a_preferred_dasher_gets_the_job_first(api, campus):
    dorm = campus.dorm()
    customer = campus.student(dorm, "Casey")
    named, other = campus.dasher(dorm, "Dana"), campus.dasher(dorm, "Drew")
    off = campus.dasher(dorm, "Dale", accepting=False)
    elsewhere = campus.dasher(campus.dorm(), "Devon")
    listed = call(api, "ListAcceptingDashers", customer).dashers
    assert {d.person.account_id for d in listed} == {named.account_id, other.account_id}
    # Only a Dasher accepting requests in the customer's dorm may be named.
    error = refused(lambda: submit(api, customer, preferred_dasher_account_id=off.account_id), Code.FAILED_PRECONDITION,
                    field="preferred_dasher_account_id", reason=Reason.ERROR_REASON_DASHER_NOT_ACCEPTING)
    assert "not accepting requests" in error.details()
    error = refused(lambda: submit(api, customer, preferred_dasher_account_id=elsewhere.account_id), Code.FAILED_PRECONDITION,
                    field="preferred_dasher_account_id", reason=Reason.ERROR_REASON_DASHER_NOT_ACCEPTING)
    assert "another dorm" in error.details()
    job = submit(api, customer, preferred_dasher_account_id=named.account_id)
    assert len(notified(api, named, "A laundry job names you")) == 1
    # The job waits for the named Dasher (the offer timeout is 2 minutes here).
    assert work(api, other) is None
    assert work(api, named).id == job.id


def test_a_preferred_dasher_who_does_not_ask_in_time_lets_the_job_join_the_queue_in_its_place(api, own_campus):
    campus = own_campus
    campus.settings(job_offer_timeout=Duration(seconds=1))
    dorm = campus.dorm()
    customer = campus.student(dorm, "Casey")
    named, other, third = campus.dasher(dorm, "Dana"), campus.dasher(dorm, "Drew"), campus.dasher(dorm, "Dale")
    waiting = submit(api, customer, preferred_dasher_account_id=named.account_id)
    later = submit(api, customer)

    def offer_of_waiting():
        offered = work(api, other)
        if offered and offered.id == later.id:
            call(api, "DenyJob", other, job_id=later.id)  # offered before the timeout: not the one awaited
            return None
        return offered
    offered = poll("the preferred Dasher's timeout", offer_of_waiting)
    assert offered.id == waiting.id and offered.preferred_dasher_account_id == named.account_id
    # Denied, it goes back in its original place: ahead of the job submitted after it.
    call(api, "DenyJob", other, job_id=waiting.id)
    assert work(api, third).id == waiting.id


def test_same_gender_only_jobs_go_to_dashers_of_the_customers_gender(api, campus):
    dorm = campus.dorm()
    customer = campus.student(dorm, "Casey", gender=Gender.GENDER_FEMALE)
    silent = campus.student(dorm, "Cory")
    error = refused(lambda: submit(api, silent, same_gender_only=True), Code.INVALID_ARGUMENT, field="same_gender_only")
    assert "gender" in error.details()
    man, unsaid = campus.dasher(dorm, "Dan", gender=Gender.GENDER_MALE), campus.dasher(dorm, "Dee")
    woman = campus.dasher(dorm, "Dana", gender=Gender.GENDER_FEMALE)
    job = submit(api, customer, same_gender_only=True)
    assert work(api, man) is None and work(api, unsaid) is None
    assert work(api, woman).id == job.id
    # Without the option any Dasher may take the job.
    open_job = submit(api, customer)
    assert work(api, man).id == open_job.id


def test_unverified_and_non_rutgers_addresses_are_refused(api, campus):
    dorm = campus.dorm()
    refused(lambda: sign_up(api, campus.id, email=unique_email("casey", "gmail.com"), laundry_profile=campus.profile(dorm)),
            Code.INVALID_ARGUMENT, field="email", reason=Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED)
    refused(lambda: sign_up(api, campus.id, email=unique_email("casey", "rutgers.edu.example.com"),
                            laundry_profile=campus.profile(dorm)),
            Code.INVALID_ARGUMENT, field="email", reason=Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED)
    party = campus.sign_up(dorm)
    for attempt in (lambda: submit(api, party), lambda: campus.take_quiz(party)):
        error = refused(attempt, Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_EMAIL_NOT_VERIFIED)
        assert "not verified" in error.details()
    # Codes are rationed: a second one at once is refused, saying how long to wait.
    api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=campus.id), metadata=party.md(),
                                      timeout=TIMEOUT)
    error = refused(lambda: api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=campus.id),
                                                              metadata=party.md(), timeout=TIMEOUT),
                    Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_VERIFICATION_CODE_LIMIT)
    assert "limited to 5 an hour, 60 seconds apart" in error.details()
    assert 0 < retry_delay(error) <= 60
    # A wrong code counts; the mailed one proves the address.
    error = refused(lambda: api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=campus.id, code="000000x"),
                                                     metadata=party.md(), timeout=TIMEOUT),
                    Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert "4 tries left" in error.details()
    assert api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=campus.id, code=campus.mailed_code(party)),
                                    metadata=party.md(), timeout=TIMEOUT).email_verified
    assert submit(api, party).id


def test_accounts_an_admin_creates_keep_to_the_dorm_rules(api, campus):
    dorm = campus.dorm()

    def create(profile):
        return api.accounts.CreateAccount(pb.CreateAccountRequest(
            marketplace_id=campus.id, request_id=request_id(), email=unique_email("dasher", "rutgers.edu"),
            initial_password=STRONG_PASSWORD, given_name="Dana", roles=[Role.ROLE_COURIER], laundry_profile=profile),
            metadata=campus.admin.md(), timeout=TIMEOUT)
    error = refused(lambda: create(pb.LaundryProfile(campus="Busch", dorm_id=str(uuid.uuid4()), room="1")), Code.INVALID_ARGUMENT,
                    field="laundry_profile.dorm_id")
    assert "must name a dorm of this marketplace" in error.details()
    error = refused(lambda: create(pb.LaundryProfile(campus="Livingston", dorm_id=dorm.id, room="1")), Code.INVALID_ARGUMENT,
                    field="laundry_profile.campus")
    assert "must be the dorm's campus, Busch" in error.details()
    assert create(campus.profile(dorm)).laundry_profile.dorm_id == dorm.id


def test_a_customer_of_another_dorm_never_sees_this_dorms_dashers_or_jobs(api, campus):
    here, there = campus.dorm(), campus.dorm()
    customer, dasher = campus.student(here, "Casey"), campus.dasher(here, "Dana")
    outsider, outside_dasher = campus.student(there, "Olive"), campus.dasher(there, "Omar")
    job = submit(api, customer)
    # Dashers: only one's own dorm is listed, another's is unknown, and its Dashers cannot be named.
    assert [d.person.account_id for d in call(api, "ListAcceptingDashers", outsider).dashers] == [outside_dasher.account_id]
    error = refused(lambda: call(api, "ListAcceptingDashers", outsider, dorm_id=here.id), Code.NOT_FOUND,
                    reason=Reason.ERROR_REASON_RESOURCE_NOT_FOUND)
    assert here.id in error.details()
    refused(lambda: submit(api, outsider, preferred_dasher_account_id=dasher.account_id), Code.FAILED_PRECONDITION,
            field="preferred_dasher_account_id", reason=Reason.ERROR_REASON_DASHER_NOT_ACCEPTING)
    # Jobs: not readable, not listable, not watchable, and never offered to the other dorm's Dasher.
    for attempt in (lambda: call(api, "GetJob", outsider, job_id=job.id),
                    lambda: call(api, "ListJobs", outsider, dorm_id=here.id),
                    lambda: call(api, "ListJobs", outsider, customer_account_id=customer.account_id),
                    lambda: call(api, "CancelJob", outsider, job_id=job.id),
                    lambda: next(iter(api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=campus.id, job_id=job.id),
                                                           metadata=outsider.md(), timeout=TIMEOUT)))):
        error = refused(attempt, Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)
        assert "may act only on their own resources" in error.details()
    assert len(call(api, "ListJobs", outsider).jobs) == 0
    assert work(api, outside_dasher) is None
    assert work(api, dasher).id == job.id


def test_instructions_are_at_most_a_thousand_characters(api, campus):
    customer = campus.student(campus.dorm(), "Casey")
    error = refused(lambda: call(api, "SubmitJob", customer, request_id=request_id(), loads_estimate=1, instructions="x" * 1001),
                    Code.INVALID_ARGUMENT, field="instructions")
    assert "at most 1000 characters" in error.details()
    assert call(api, "SubmitJob", customer, request_id=request_id(), loads_estimate=1, instructions="界" * 1000).id
