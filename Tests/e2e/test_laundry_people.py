"""Drip 'n Dash students through a real server (--demo): the Rutgers dorms, sign-up with a
proven @rutgers.edu address, the Dasher quiz (pass, fail and the 24-hour retry), and the
accepting Dashers a customer sees (own dorm only, first name, never private fields). The 5-try
login limit is tested in test_accounts.py."""
import grpc
import pytest

from souk_identity import (
    TIMEOUT, Party, Reason, Role, RoleStatus, login_party, operator_party, outbox, pb, refused, request_id, role_status,
    sign_up, unique_email, verification_code,
)
from souk_protos import Stub

Code = grpc.StatusCode
DRIP = "Drip 'n Dash"


@pytest.fixture(scope="module")
def api(identity_channel):
    from souk_identity import Api
    api = Api(identity_channel)
    api.laundry = Stub(identity_channel, "souk.v1.Laundry")
    return api


@pytest.fixture(scope="module")
def drip(identity_server):
    return identity_server.marketplace_id(DRIP)


@pytest.fixture(scope="module")
def admin(api, identity_server):
    return login_party(api, identity_server.demo_login(DRIP, "admin"))


def dorms(api, drip, campus=""):
    return api.laundry.ListDorms(pb.ListDormsRequest(marketplace_id=drip, campus=campus, page_size=100), timeout=TIMEOUT).dorms


def dorm_named(api, drip, name):
    return next(d for d in dorms(api, drip) if d.name == name)


def student(api, drip, dorm, *, given_name="Alex", gender=0):
    profile = pb.LaundryProfile(campus=dorm.campus, dorm_id=dorm.id, room="101", gender=gender)
    return sign_up(api, drip, email=unique_email("student", "rutgers.edu"), given_name=given_name,
                   family_name="Secretlastname", phone="+17325550177", laundry_profile=profile)


def verify(api, drip, operator, party, send=True):
    """Confirms the address with the newest mailed code, after sending one when `send`."""
    if send:
        api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=drip), metadata=party.md(),
                                          timeout=TIMEOUT)
    code = verification_code(api, operator, drip, party.email)
    return api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=drip, code=code), metadata=party.md(),
                                    timeout=TIMEOUT)


def quiz_answers(api, drip, admin, right):
    """Answers to the live quiz, the first `right` of them right."""
    questions = api.laundry.ListQuizQuestions(pb.ListQuizQuestionsRequest(marketplace_id=drip, page_size=100),
                                              metadata=admin.md(), timeout=TIMEOUT).questions
    return [pb.QuizAnswer(question_id=q.id, choice=q.correct_choice if i < right else (q.correct_choice + 1) % len(q.choices))
            for i, q in enumerate(questions)], len(questions)


def test_the_demo_lists_the_rutgers_campuses_and_their_dorms(api, drip):
    campuses = {d.campus for d in dorms(api, drip)}
    assert {"Busch", "Livingston", "College Avenue", "Cook/Douglass"} <= campuses
    busch = dorms(api, drip, "Busch")
    assert len(busch) >= 3 and all(d.campus == "Busch" for d in busch)
    assert [d.name for d in busch] == sorted(d.name for d in busch)


def test_registration_refuses_other_domains_and_unknown_dorms_and_keeps_the_profile(api, drip):
    mattia = dorm_named(api, drip, "Mattia Hall")
    profile = pb.LaundryProfile(campus="Busch", dorm_id=mattia.id, room="214")
    refused(lambda: sign_up(api, drip, email=unique_email("outsider", "gmail.com"), laundry_profile=profile),
            Code.INVALID_ARGUMENT, field="email", reason=Reason.ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED)
    nowhere = pb.LaundryProfile(campus="Busch", dorm_id="01900000-0000-7000-8000-0000000fffff", room="214")
    refused(lambda: sign_up(api, drip, email=unique_email("student", "rutgers.edu"), laundry_profile=nowhere),
            Code.INVALID_ARGUMENT, field="laundry_profile.dorm_id")
    refused(lambda: sign_up(api, drip, email=unique_email("student", "rutgers.edu")),
            Code.INVALID_ARGUMENT, field="laundry_profile")
    party = student(api, drip, mattia, gender=1)
    account = party.signup.account
    assert not account.email_verified
    assert account.laundry_profile.dorm_id == mattia.id and account.laundry_profile.gender == 1


def test_the_mailed_code_verifies_the_address_and_a_wrong_code_counts(api, drip, operator, admin):
    party = student(api, drip, dorm_named(api, drip, "Mattia Hall"))
    api.accounts.SendVerificationCode(pb.SendVerificationCodeRequest(marketplace_id=drip), metadata=party.md(),
                                      timeout=TIMEOUT)
    error = refused(lambda: api.accounts.VerifyEmail(pb.VerifyEmailRequest(marketplace_id=drip, code="not-it"),
                                                     metadata=party.md(), timeout=TIMEOUT),
                    Code.UNAUTHENTICATED, reason=Reason.ERROR_REASON_BAD_CREDENTIALS)
    assert "4 tries left" in error.details()
    # Admins read the outbox without the code.
    admin_view = [m for m in outbox(api, admin, drip) if m.to_address == party.email]
    assert admin_view and all("[redacted]" == m.body for m in admin_view)
    assert verify(api, drip, operator, party, send=False).email_verified
    assert party.me().email_verified


def test_an_unverified_student_cannot_take_the_quiz(api, drip, admin):
    party = student(api, drip, dorm_named(api, drip, "Mattia Hall"))
    answers, _ = quiz_answers(api, drip, admin, right=100)
    refused(lambda: api.laundry.SubmitQuizAnswers(pb.SubmitQuizAnswersRequest(marketplace_id=drip, answers=answers, dasher_age=20),
                                                  metadata=party.md(), timeout=TIMEOUT),
            Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_EMAIL_NOT_VERIFIED)


def test_students_get_the_quiz_without_its_answers(api, drip, operator):
    party = student(api, drip, dorm_named(api, drip, "Mattia Hall"))
    questions = api.laundry.ListQuizQuestions(pb.ListQuizQuestionsRequest(marketplace_id=drip), metadata=party.md(),
                                              timeout=TIMEOUT).questions
    assert len(questions) >= 5
    assert not any(q.HasField("correct_choice") for q in questions)
    refused(lambda: api.laundry.CreateQuizQuestion(pb.CreateQuizQuestionRequest(
        marketplace_id=drip, request_id=request_id(), question=pb.QuizQuestion(text="?", choices=["a", "b"])),
        metadata=party.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)


def test_the_quiz_fails_below_80_percent_with_the_retry_time_and_passes_at_80(api, drip, admin, operator):
    failer = student(api, drip, dorm_named(api, drip, "Mattia Hall"))
    verify(api, drip, operator, failer)
    answers, total = quiz_answers(api, drip, admin, right=0)
    result = api.laundry.SubmitQuizAnswers(pb.SubmitQuizAnswersRequest(marketplace_id=drip, answers=answers, dasher_age=20),
                                           metadata=failer.md(), timeout=TIMEOUT)
    assert not result.passed and result.score_percent == 0 and result.total == total
    assert result.retry_time.seconds > 0
    right, _ = quiz_answers(api, drip, admin, right=total)
    error = refused(lambda: api.laundry.SubmitQuizAnswers(pb.SubmitQuizAnswersRequest(
        marketplace_id=drip, answers=right, dasher_age=20), metadata=failer.md(), timeout=TIMEOUT),
        Code.RESOURCE_EXHAUSTED, reason=Reason.ERROR_REASON_QUIZ_RETRY_TOO_SOON)
    assert "24 hours" in error.details()

    passer = student(api, drip, dorm_named(api, drip, "Mattia Hall"))
    verify(api, drip, operator, passer)
    needed = -(-total * 80 // 100)  # the fewest right answers that reach 80 %
    answers, _ = quiz_answers(api, drip, admin, right=needed)
    result = api.laundry.SubmitQuizAnswers(pb.SubmitQuizAnswersRequest(marketplace_id=drip, answers=answers, dasher_age=19),
                                           metadata=passer.md(), timeout=TIMEOUT)
    assert result.passed and result.score_percent >= 80
    assert role_status(result.account, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE
    assert result.account.dasher_profile.age == 19 and result.account.rating.average_hundredths == 500


def dasher(api, drip, admin, operator, dorm, given_name, accepting=True):
    party = student(api, drip, dorm, given_name=given_name)
    verify(api, drip, operator, party)
    answers, _ = quiz_answers(api, drip, admin, right=1000)
    api.laundry.SubmitQuizAnswers(pb.SubmitQuizAnswersRequest(marketplace_id=drip, answers=answers, dasher_age=21),
                                  metadata=party.md(), timeout=TIMEOUT)
    party = Party.login(api, drip, party.email, party.password)  # the new token carries the courier role
    api.laundry.SetAcceptingRequests(pb.SetAcceptingRequestsRequest(marketplace_id=drip, accepting_requests=accepting),
                                     metadata=party.md(), timeout=TIMEOUT)
    return party


def test_a_customer_sees_only_the_accepting_dashers_of_their_own_dorm_and_nothing_private(api, drip, admin, operator):
    busch = [d for d in dorms(api, drip, "Busch") if d.name != "Mattia Hall"]
    home, away = busch[0], busch[1]
    shown = dasher(api, drip, admin, operator, home, "Riley")
    dasher(api, drip, admin, operator, home, "Quinn", accepting=False)
    dasher(api, drip, admin, operator, away, "Morgan")
    customer = student(api, drip, home)
    listed = api.laundry.ListAcceptingDashers(pb.ListAcceptingDashersRequest(marketplace_id=drip), metadata=customer.md(),
                                              timeout=TIMEOUT).dashers
    assert [d.person.account_id for d in listed] == [shown.account_id]
    seen = listed[0]
    assert seen.person.display_name == "Riley" and seen.person.rating.average_hundredths == 500
    assert seen.completed_jobs == 0 and seen.dasher_since.seconds > 0
    text = str(seen)
    for private in ("Secretlastname", "+1732555", "@rutgers.edu"):
        assert private not in text
    outsider = student(api, drip, away)
    others = api.laundry.ListAcceptingDashers(pb.ListAcceptingDashersRequest(marketplace_id=drip), metadata=outsider.md(),
                                              timeout=TIMEOUT).dashers
    assert shown.account_id not in [d.person.account_id for d in others]
    refused(lambda: api.laundry.ListAcceptingDashers(pb.ListAcceptingDashersRequest(marketplace_id=drip, dorm_id=home.id),
                                                     metadata=outsider.md(), timeout=TIMEOUT), Code.NOT_FOUND)


def test_an_unverified_student_can_neither_submit_nor_take_a_job_until_verified(api, drip, operator):
    party = student(api, drip, dorm_named(api, drip, "Mattia Hall"))

    def submit():
        return api.laundry.SubmitJob(pb.SubmitJobRequest(marketplace_id=drip, request_id=request_id(), loads_estimate=1),
                                     metadata=party.md(), timeout=TIMEOUT)
    refused(submit, Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_EMAIL_NOT_VERIFIED)
    verify(api, drip, operator, party)
    assert submit().id


def test_the_accepting_list_follows_blocks_and_revoked_roles_at_once(api, drip, admin, operator):
    """Laundry keeps a Dasher's accepting switch, identity the account's state and roles: a
    blocked Dasher, or one whose courier role an admin revoked, leaves the list at once; a
    block also switches the Dasher off, so after the unblock they switch on again themselves."""
    hall = api.laundry.CreateDorm(pb.CreateDormRequest(
        marketplace_id=drip, request_id=request_id(), dorm=pb.Dorm(campus="Busch", name=f"Seam Hall {request_id()[:8]}")),
        metadata=admin.md(), timeout=TIMEOUT)
    blocked = dasher(api, drip, admin, operator, hall, "Blake")
    revoked = dasher(api, drip, admin, operator, hall, "Rowan")
    kept = dasher(api, drip, admin, operator, hall, "Kai")
    customer = student(api, drip, hall)

    def listed():
        return {d.person.account_id for d in api.laundry.ListAcceptingDashers(
            pb.ListAcceptingDashersRequest(marketplace_id=drip), metadata=customer.md(), timeout=TIMEOUT).dashers}

    def version(party):
        return api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=drip, account_id=party.account_id),
                                       metadata=admin.md(), timeout=TIMEOUT).version

    assert listed() == {blocked.account_id, revoked.account_id, kept.account_id}
    api.accounts.BlockAccount(pb.BlockAccountRequest(
        marketplace_id=drip, account_id=blocked.account_id, reason="reported", expected_version=version(blocked)),
        metadata=admin.md(), timeout=TIMEOUT)
    api.accounts.RevokeRole(pb.RevokeRoleRequest(
        marketplace_id=drip, account_id=revoked.account_id, role=Role.ROLE_COURIER, reason="left campus",
        expected_version=version(revoked)), metadata=admin.md(), timeout=TIMEOUT)
    assert listed() == {kept.account_id}
    api.accounts.UnblockAccount(pb.UnblockAccountRequest(
        marketplace_id=drip, account_id=blocked.account_id, expected_version=version(blocked)), metadata=admin.md(), timeout=TIMEOUT)
    assert listed() == {kept.account_id}
    blocked = Party.login(api, drip, blocked.email, blocked.password)
    me = api.laundry.SetAcceptingRequests(pb.SetAcceptingRequestsRequest(marketplace_id=drip, accepting_requests=True),
                                          metadata=blocked.md(), timeout=TIMEOUT)
    assert me.dasher_profile.accepting_requests and me.laundry_profile.dorm_id == hall.id
    assert listed() == {kept.account_id, blocked.account_id}
