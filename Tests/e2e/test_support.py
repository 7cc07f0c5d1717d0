"""souk.v1.Support end to end through grpcio: a ticket from every role (a DineSwift customer,
restaurant and driver, a Drip 'n Dash Dasher) answered and closed by an admin, the author
notified and seeing each change on Notifications.WatchAccount; a guest's ticket whose answers
are mailed; attachments checked like uploads; only the author and the marketplace's admins read
a ticket; the admins' lists by status, topic, author role and age with order_by and pages; the
overdue list against the marketplace's response target; retries that give one ticket and one
message; and concurrent closes of one ticket of which exactly one wins."""
import queue
import re
import threading
import uuid

import grpc
import pytest

from conftest import IdentityServer, stop_cleanly
from souk_identity import (
    TIMEOUT, Api, Duration, FieldMask, MailKind, Party, Reason, Role, create_marketplace, login_party, operator_party, pb, refused,
    request_id, sign_up,
)
from souk_protos import Stub, enum, enum_name, error_reason, field_violations, methods
from test_dispatch_rules import staff
from test_laundry_design import poll
from test_media import JPEG, PDF, upload

Code = grpc.StatusCode
Status = enum("souk.v1.TicketStatus")
Topic = enum("souk.v1.TicketTopic")
Kind = enum("souk.v1.NotificationKind")
ResourceType = enum("souk.v1.ResourceType")
OPEN, ANSWERED, CLOSED = Status.TICKET_STATUS_OPEN, Status.TICKET_STATUS_ANSWERED, Status.TICKET_STATUS_CLOSED
ERRORS = {m.name: m.errors_text() for m in methods("souk.v1") if m.service == "souk.v1.Support"}


def documented(method, error):
    """Each field the refusal names (indexes written [i]), or its reason, is in the RPC's Errors line."""
    reason = error_reason(error)
    if reason == Reason.ERROR_REASON_FIELD_INVALID:
        names = [re.sub(r"\[\d+\]", "[i]", v.field) for v in field_violations(error)]
    else:
        names = [enum_name("souk.v1.ErrorReason", reason).removeprefix("ERROR_REASON_")]
    for name in names:
        assert name in ERRORS[method], f"{method}'s Errors line does not list {name}: {ERRORS[method]!r}"
    return error


@pytest.fixture(scope="module")
def server():
    """A server of its own whose access tokens live a minute, so account streams stay open."""
    s = IdentityServer(60)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(server):
    with server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        api = Api(channel)
        api.support = Stub(channel, "souk.v1.Support")
        api.notifications = Stub(channel, "souk.v1.Notifications")
        api.media = Stub(channel, "souk.v1.Media")
        yield api


@pytest.fixture(scope="module")
def operator(api, server):
    return operator_party(api, server)


class Market:
    """A fresh copy of DineSwift with its own admin, so lists hold only this test's tickets."""

    def __init__(self, api, operator, server):
        self.api = api
        self.id = create_marketplace(api, operator, server.marketplace_id("DineSwift")).id
        self.admin = staff(api, self.id, operator, Role.ROLE_ADMIN)

    def customer(self):
        return sign_up(self.api, self.id)

    def staff(self, role):
        return staff(self.api, self.id, self.admin, role)

    def target(self, seconds):
        return self.api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
            marketplace_id=self.id, settings=pb.MarketplaceSettings(support=pb.SupportSettings(response_target=Duration(seconds=seconds))),
            update_mask=FieldMask(paths=["support.response_target"])), metadata=self.admin.md(), timeout=TIMEOUT)


# ---- Calls ----

def open_ticket(api, party, *, market_id=None, topic=Topic.TICKET_TOPIC_ORDER, role=0, subject="My order is late",
                text="Where is it?", key=None, metadata=None, **fields):
    return api.support.CreateTicket(pb.CreateTicketRequest(
        marketplace_id=market_id or party.marketplace_id, request_id=request_id() if key is None else key, subject=subject, text=text, topic=topic,
        acting_role=role, **fields), metadata=party.md() if metadata is None else metadata, timeout=TIMEOUT)


def write(api, party, ticket_id, text="Thanks", key=None, **fields):
    return api.support.AddTicketMessage(pb.AddTicketMessageRequest(
        marketplace_id=party.marketplace_id, request_id=request_id() if key is None else key, ticket_id=ticket_id, text=text, **fields),
        metadata=party.md(), timeout=TIMEOUT)


def close(api, party, ticket_id, **fields):
    return api.support.CloseTicket(pb.CloseTicketRequest(marketplace_id=party.marketplace_id, ticket_id=ticket_id, **fields),
                                   metadata=party.md(), timeout=TIMEOUT)


def get(api, party, ticket_id, market_id=None):
    return api.support.GetTicket(pb.GetTicketRequest(marketplace_id=market_id or party.marketplace_id, ticket_id=ticket_id),
                                 metadata=party.md(), timeout=TIMEOUT)


def messages(api, party, ticket_id):
    return list(api.support.ListTicketMessages(pb.ListTicketMessagesRequest(
        marketplace_id=party.marketplace_id, ticket_id=ticket_id, page_size=100), metadata=party.md(), timeout=TIMEOUT).messages)


def listed(api, party, **filters):
    return api.support.ListTickets(pb.ListTicketsRequest(marketplace_id=party.marketplace_id, **filters), metadata=party.md(),
                                   timeout=TIMEOUT)


def ids(api, party, **filters):
    """Every ticket id of a list, page by page, in order."""
    found, token = [], ""
    while True:
        response = listed(api, party, page_token=token, **filters)
        found += [t.id for t in response.tickets]
        token = response.next_page_token
        if not token:
            return found


class AccountStream:
    """Notifications.WatchAccount of one account from now on, read on a thread."""

    def __init__(self, api, party):
        inbox = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=party.marketplace_id, page_size=1),
                                                    metadata=party.md(), timeout=TIMEOUT)
        self.events = queue.Queue()
        self.call = api.notifications.WatchAccount(pb.WatchAccountRequest(
            marketplace_id=party.marketplace_id, resume_after_sequence=inbox.last_sequence), metadata=party.md(), timeout=120)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for event in self.call:
                self.events.put(event)
        except grpc.RpcError:
            pass
        self.events.put(None)

    def next(self, kind, ticket_id):
        """The next event of `kind` ("ticket" or "notification") about the ticket."""
        while True:
            event = self.events.get(timeout=TIMEOUT)
            assert event is not None, "the account stream ended"
            if event.WhichOneof("event") != kind:
                continue
            if kind == "ticket" and event.ticket.id == ticket_id:
                return event
            if kind == "notification" and event.notification.subject.id == ticket_id:
                return event

    def close(self):
        self.call.cancel()


# ---- Every role ----

@pytest.mark.parametrize("marketplace,role,acting", [
    ("DineSwift", "customer", Role.ROLE_CUSTOMER),
    ("DineSwift", "provider", Role.ROLE_PROVIDER),
    ("DineSwift", "courier", Role.ROLE_COURIER),
    ("Drip 'n Dash", "courier", Role.ROLE_COURIER),
])
def test_a_ticket_from_each_role_is_answered_and_closed_and_its_author_sees_each_change(api, server, marketplace, role, acting):
    author = login_party(api, server.demo_login(marketplace, role))
    admin = login_party(api, server.demo_login(marketplace, "admin"))
    stream = AccountStream(api, author)
    try:
        ticket = open_ticket(api, author, role=acting, topic=Topic.TICKET_TOPIC_DELIVERY, subject=f"Help from a {role}")
        assert ticket.status == OPEN and ticket.author_role == acting and ticket.author_account_id == author.account_id
        assert ticket.message_count == 1 and ticket.contact_email == author.email
        assert not ticket.HasField("waiting_since"), "the author does not see the admins' fields"
        opened = stream.next("ticket", ticket.id).ticket
        assert opened.status == OPEN and opened.version == ticket.version

        seen = get(api, admin, ticket.id)
        assert seen.HasField("waiting_since") and seen.HasField("response_due_time") and not seen.overdue
        assert ticket.id in ids(api, admin, author_role=acting, statuses=[OPEN], topics=[Topic.TICKET_TOPIC_DELIVERY])

        admin_stream = AccountStream(api, admin)
        try:
            answer = write(api, admin, ticket.id, "We are on it: the courier is two minutes away.")
            # The answering admin's other devices see the ticket as an admin sees it: no longer waiting.
            seen_by_admin = admin_stream.next("ticket", ticket.id).ticket
            assert seen_by_admin.status == ANSWERED and not seen_by_admin.HasField("waiting_since")
        finally:
            admin_stream.close()
        assert answer.from_admin and answer.ticket_id == ticket.id
        answered = stream.next("ticket", ticket.id).ticket
        assert answered.status == ANSWERED and answered.message_count == 2
        note = stream.next("notification", ticket.id).notification
        assert note.kind == Kind.NOTIFICATION_KIND_SUPPORT and note.subject.type == ResourceType.RESOURCE_TYPE_TICKET
        assert "two minutes away" in note.body

        closed = close(api, admin, ticket.id)
        assert closed.status == CLOSED
        shown = stream.next("ticket", ticket.id).ticket
        assert shown.status == CLOSED and shown.version == closed.version
        assert stream.next("notification", ticket.id).notification.kind == Kind.NOTIFICATION_KIND_SUPPORT

        assert get(api, author, ticket.id).status == CLOSED
        thread = messages(api, author, ticket.id)
        assert [m.from_admin for m in thread] == [False, True] and thread[1].author_account_id == admin.account_id
        inbox = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=author.marketplace_id, page_size=100),
                                                    metadata=author.md(), timeout=TIMEOUT)
        assert sum(n.subject.id == ticket.id and n.kind == Kind.NOTIFICATION_KIND_SUPPORT for n in inbox.notifications) == 2
    finally:
        stream.close()


def test_the_author_reopens_by_writing_and_admins_do_not_write_to_a_closed_ticket(api, operator, server):
    market = Market(api, operator, server)
    author = market.customer()
    ticket = open_ticket(api, author)
    write(api, author, ticket.id, "Still waiting")
    assert get(api, author, ticket.id).status == OPEN
    write(api, market.admin, ticket.id, "Sorry!")
    write(api, market.admin, ticket.id, "It left the kitchen.")
    assert get(api, author, ticket.id).status == ANSWERED, "a second answer leaves it answered"
    assert write(api, author, ticket.id, "Not here yet").ticket_id == ticket.id
    assert get(api, author, ticket.id).status == OPEN, "the author's message reopens it"
    close(api, author, ticket.id)
    documented("AddTicketMessage", refused(lambda: write(api, market.admin, ticket.id, "Late"), Code.FAILED_PRECONDITION,
                                           reason=Reason.ERROR_REASON_TICKET_CLOSED))
    documented("CloseTicket", refused(lambda: close(api, market.admin, ticket.id), Code.FAILED_PRECONDITION,
                                      reason=Reason.ERROR_REASON_TICKET_CLOSED))
    write(api, author, ticket.id, "It never came")
    reopened = get(api, market.admin, ticket.id)
    assert reopened.status == OPEN and reopened.message_count == 6
    refused(lambda: close(api, author, ticket.id, expected_version=reopened.version - 1), Code.ABORTED)


# ---- Guests ----

def test_a_guest_ticket_is_answered_by_mail(api, operator, server):
    market = Market(api, operator, server)
    email = f"forgot-{uuid.uuid4().hex[:8]}@example.com"
    guest = Party(api, market.id, "", "", None)
    key = request_id()
    opened = open_ticket(api, guest, market_id=market.id, metadata=(), key=key, topic=Topic.TICKET_TOPIC_ACCOUNT,
                         subject="I forgot my e-mail", text="I signed up with a work address.", contact_email=email, contact_name="Rami")
    assert opened.author_account_id == "" and opened.contact_email == email and opened.author_role == 0
    again = open_ticket(api, guest, market_id=market.id, metadata=(), key=key, topic=Topic.TICKET_TOPIC_ACCOUNT,
                        subject="I forgot my e-mail", text="I signed up with a work address.", contact_email=email, contact_name="Rami")
    assert again.id == opened.id, "a retry gives the first ticket"
    documented("CreateTicket", refused(lambda: open_ticket(api, guest, market_id=market.id, metadata=()), Code.INVALID_ARGUMENT,
                                       field="contact_email"))
    error = refused(lambda: open_ticket(api, guest, market_id=market.id, metadata=(), contact_email=email,
                                        attachments=[pb.Attachment(media_id=str(uuid.uuid4()))]), Code.INVALID_ARGUMENT, field="attachments")
    documented("CreateTicket", error)

    write(api, market.admin, opened.id, "Your account uses r***@work.example.")
    mails = [m for m in api.admin.ListMailOutbox(pb.ListMailOutboxRequest(marketplace_id=market.id, to_address=email, page_size=100),
                                                 metadata=market.admin.md(), timeout=TIMEOUT).messages]
    assert len(mails) == 1 and mails[0].kind == MailKind.MAIL_KIND_SUPPORT_REPLY
    assert "r***@work.example" in mails[0].body and "I forgot my e-mail" in mails[0].subject
    assert get(api, market.admin, opened.id).status == ANSWERED


# ---- Fields, retries, attachments ----

def test_every_wrong_field_is_named_at_once(api, operator, server):
    market = Market(api, operator, server)
    customer = market.customer()
    error = refused(lambda: open_ticket(api, customer, subject=" ", text="", topic=0, role=Role.ROLE_COURIER,
                                        related=pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_ACCOUNT, id="x")),
                    Code.INVALID_ARGUMENT, field="subject")
    named = [v.field for v in field_violations(error)]
    assert {"subject", "text", "topic", "acting_role", "related.type", "related.id"} <= set(named), named
    documented("CreateTicket", error)
    ticket = open_ticket(api, customer)
    error = refused(lambda: write(api, customer, ticket.id, "", key="", attachments=[pb.Attachment(media_id="nope")]),
                    Code.INVALID_ARGUMENT, field="request_id")
    assert {"request_id", "attachments[0].media_id"} <= {v.field for v in field_violations(error)}
    documented("AddTicketMessage", error)
    documented("ListTickets", refused(lambda: listed(api, market.admin, order_by="subject"), Code.INVALID_ARGUMENT, field="order_by"))
    error = refused(lambda: listed(api, market.admin, statuses=[0], topics=[99], order_by="update_time"), Code.INVALID_ARGUMENT,
                    field="statuses[0]")
    assert {"statuses[0]", "topics[0]"} <= {v.field for v in field_violations(error)}
    documented("ListTickets", error)


def test_retries_give_one_ticket_and_one_message(api, operator, server):
    market = Market(api, operator, server)
    customer = market.customer()
    key = request_id()
    first = open_ticket(api, customer, key=key)
    assert open_ticket(api, customer, key=key).id == first.id
    documented("CreateTicket", refused(lambda: open_ticket(api, customer, key=key, subject="Another"), Code.INVALID_ARGUMENT,
                                       reason=Reason.ERROR_REASON_REQUEST_ID_REUSED))
    assert ids(api, customer) == [first.id]
    key = request_id()
    message = write(api, market.admin, first.id, "Answer", key=key)
    assert write(api, market.admin, first.id, "Answer", key=key).id == message.id
    assert get(api, customer, first.id).message_count == 2
    assert len(messages(api, customer, first.id)) == 2


def test_attachments_are_media_the_writer_uploaded(api, operator, server):
    market = Market(api, operator, server)
    customer, stranger = market.customer(), market.customer()
    pdf = upload(api.media, customer, PDF, "application/pdf", purpose="MEDIA_PURPOSE_ATTACHMENT", file_name="receipt.pdf")
    photo = upload(api.media, customer, JPEG, "image/jpeg", purpose="MEDIA_PURPOSE_ATTACHMENT", file_name="door.jpg")
    theirs = upload(api.media, stranger, JPEG, "image/jpeg", purpose="MEDIA_PURPOSE_ATTACHMENT")
    error = refused(lambda: open_ticket(api, customer, attachments=[
        pb.Attachment(media_id=pdf.id), pb.Attachment(media_id=theirs.id), pb.Attachment(media_id=str(uuid.uuid4()))]),
        Code.INVALID_ARGUMENT, field="attachments[1].media_id")
    assert [v.field for v in field_violations(error)] == ["attachments[1].media_id", "attachments[2].media_id"]
    documented("CreateTicket", error)
    assert ids(api, customer) == [], "a refused ticket stores nothing"

    ticket = open_ticket(api, customer, text="", attachments=[pb.Attachment(media_id=pdf.id), pb.Attachment(media_id=photo.id)])
    first = messages(api, market.admin, ticket.id)[0]
    assert [(a.media_id, a.content_type, a.file_name) for a in first.attachments] == [
        (pdf.id, "application/pdf", "receipt.pdf"), (photo.id, "image/jpeg", "door.jpg")]
    assert first.attachments[0].size_bytes == len(PDF)
    # The admins read the files of the ticket; another customer does not.
    api.media.GetMedia(pb.GetMediaRequest(marketplace_id=market.id, media_id=pdf.id), metadata=market.admin.md(), timeout=TIMEOUT)
    refused(lambda: api.media.GetMedia(pb.GetMediaRequest(marketplace_id=market.id, media_id=pdf.id), metadata=stranger.md(),
                                       timeout=TIMEOUT), Code.PERMISSION_DENIED)


# ---- Who reads ----

def test_only_the_author_and_the_marketplaces_admins_read_a_ticket(api, operator, server):
    market = Market(api, operator, server)
    author, stranger = market.customer(), market.customer()
    provider = market.staff(Role.ROLE_PROVIDER)
    ticket = open_ticket(api, author)
    write(api, author, ticket.id, "More details")
    for outsider in (stranger, provider):
        for call in (lambda: get(api, outsider, ticket.id), lambda: messages(api, outsider, ticket.id),
                     lambda: write(api, outsider, ticket.id), lambda: close(api, outsider, ticket.id),
                     lambda: listed(api, outsider, author_account_id=author.account_id)):
            refused(call, Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)
        assert ids(api, outsider) == [], "a non-admin lists only their own tickets"
    assert ids(api, author) == [ticket.id]
    assert ids(api, market.admin, author_account_id=author.account_id) == [ticket.id]
    # Another marketplace's admin gets nothing: not with this marketplace, not with their own.
    elsewhere = login_party(api, server.demo_login("DineSwift", "admin"))
    refused(lambda: get(api, elsewhere, ticket.id, market_id=market.id), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
    refused(lambda: get(api, elsewhere, ticket.id), Code.NOT_FOUND)
    assert ticket.id not in ids(api, elsewhere)
    refused(lambda: api.support.GetTicket(pb.GetTicketRequest(marketplace_id=market.id, ticket_id=ticket.id), timeout=TIMEOUT),
            Code.UNAUTHENTICATED)


# ---- Admins' lists ----

def test_admins_list_tickets_by_status_topic_role_and_age(api, operator, server):
    market = Market(api, operator, server)
    customer, driver = market.customer(), market.staff(Role.ROLE_COURIER)
    order = open_ticket(api, customer, topic=Topic.TICKET_TOPIC_ORDER, subject="order")
    pay = open_ticket(api, customer, topic=Topic.TICKET_TOPIC_PAYMENT, subject="payment")
    late = open_ticket(api, driver, role=Role.ROLE_COURIER, topic=Topic.TICKET_TOPIC_DELIVERY, subject="delivery")
    cutoff = get(api, market.admin, late.id).create_time
    other = open_ticket(api, customer, topic=Topic.TICKET_TOPIC_OTHER, subject="other")
    write(api, market.admin, pay.id, "Refunded")
    close(api, market.admin, other.id)
    admin = market.admin
    created = [order.id, pay.id, late.id, other.id]

    # Most recently active first by default; the oldest ticket answered now comes first.
    assert ids(api, admin) == [other.id, pay.id, late.id, order.id]
    write(api, admin, order.id, "On its way")
    assert ids(api, admin)[0] == order.id
    assert ids(api, admin, order_by="update_time")[-1] == order.id
    assert ids(api, admin, order_by="create_time") == created
    assert ids(api, admin, order_by="create_time desc") == created[::-1]
    # Status, topic, role, each alone or several of a kind.
    assert ids(api, admin, statuses=[OPEN]) == [late.id]
    assert set(ids(api, admin, statuses=[OPEN, ANSWERED])) == {order.id, pay.id, late.id}
    assert ids(api, admin, topics=[Topic.TICKET_TOPIC_PAYMENT]) == [pay.id]
    assert set(ids(api, admin, topics=[Topic.TICKET_TOPIC_ORDER, Topic.TICKET_TOPIC_OTHER])) == {order.id, other.id}
    assert ids(api, admin, topics=[Topic.TICKET_TOPIC_ORDER, Topic.TICKET_TOPIC_OTHER], statuses=[CLOSED]) == [other.id]
    assert ids(api, admin, author_role=Role.ROLE_COURIER) == [late.id]
    assert ids(api, admin, author_role=Role.ROLE_CUSTOMER, statuses=[ANSWERED], order_by="create_time") == [order.id, pay.id]
    # Age: opened before or since a time, oldest or newest first.
    assert ids(api, admin, created_before=cutoff) == [pay.id, order.id]
    assert ids(api, admin, created_after=cutoff, order_by="create_time") == [late.id, other.id]
    documented("ListTickets", refused(lambda: listed(api, admin, created_before=cutoff, order_by="update_time desc"),
                                      Code.INVALID_ARGUMENT, field="order_by"))
    documented("ListTickets", refused(lambda: listed(api, admin, author_account_id=customer.account_id, topics=[Topic.TICKET_TOPIC_ORDER]),
                                      Code.INVALID_ARGUMENT, field="topics"))
    # The author's own list, with a status filter.
    assert ids(api, customer, statuses=[CLOSED]) == [other.id]
    assert set(ids(api, customer)) == {order.id, pay.id, other.id}
    # Pages of two hold every ticket once; a token is bound to its filters.
    first = listed(api, admin, page_size=2, order_by="create_time")
    assert [t.id for t in first.tickets] == created[:2] and first.next_page_token
    assert ids(api, admin, page_size=2, order_by="create_time") == created
    documented("ListTickets", refused(lambda: listed(api, admin, page_size=2, page_token=first.next_page_token),
                                      Code.INVALID_ARGUMENT, field="page_token"))


def test_the_overdue_list_holds_the_tickets_waiting_longer_than_the_response_target(api, operator, server):
    market = Market(api, operator, server)
    admin = market.admin
    assert listed(api, admin).response_target.seconds == 24 * 3600, "24 hours unless set"
    for wrong in (0, 31 * 24 * 3600):
        refused(lambda: market.target(wrong), Code.INVALID_ARGUMENT, field="settings.support.response_target")
    customer = market.customer()
    waiting = open_ticket(api, customer, subject="waiting")
    answered = open_ticket(api, customer, subject="answered")
    closed = open_ticket(api, customer, subject="closed")
    write(api, admin, answered.id, "Done")
    close(api, customer, closed.id)
    assert ids(api, admin, overdue=True) == [], "nothing waited 24 hours"
    assert not get(api, admin, waiting.id).overdue

    # A target of one second: the waiting ticket passes it; answered and closed ones wait for nobody.
    market.target(1)
    assert poll("the waiting ticket to pass the target", lambda: ids(api, admin, overdue=True)) == [waiting.id]
    late = get(api, admin, waiting.id)
    assert late.overdue and late.response_due_time.seconds * 10**9 + late.response_due_time.nanos == \
        (late.waiting_since.seconds + 1) * 10**9 + late.waiting_since.nanos
    write(api, customer, waiting.id, "Hello?")
    assert get(api, admin, waiting.id).waiting_since == late.waiting_since, "writing again does not restart the wait"
    assert ids(api, admin, overdue=True) == [waiting.id]
    assert listed(api, admin, overdue=True).tickets[0].overdue
    documented("ListTickets", refused(lambda: listed(api, customer, overdue=True), Code.INVALID_ARGUMENT, field="overdue"))
    documented("ListTickets", refused(lambda: listed(api, admin, overdue=True, statuses=[OPEN]), Code.INVALID_ARGUMENT, field="overdue"))

    # An answer ends the wait; the author's reply starts a new one, within the target again at 24 hours.
    write(api, admin, waiting.id, "Here")
    assert ids(api, admin, overdue=True) == []
    market.target(24 * 3600)
    write(api, customer, waiting.id, "Thanks, one more thing")
    again = get(api, admin, waiting.id)
    assert again.status == OPEN and again.waiting_since.seconds >= late.waiting_since.seconds and not again.overdue
    assert ids(api, admin, overdue=True) == []


# ---- Races ----

def race(calls):
    """Runs the calls at once (released together); returns each one's result or error."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            results[index] = call()
        except grpc.RpcError as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_of_concurrent_closes_exactly_one_wins(api, operator, server):
    market = Market(api, operator, server)
    customer = market.customer()
    second_admin = market.staff(Role.ROLE_ADMIN)
    for _ in range(3):
        ticket = open_ticket(api, customer)
        closers = [customer, market.admin, second_admin] * 3
        results = race([lambda p=p: close(api, p, ticket.id) for p in closers])
        won = [r for r in results if not isinstance(r, grpc.RpcError)]
        lost = [r for r in results if isinstance(r, grpc.RpcError)]
        assert len(won) == 1 and won[0].status == CLOSED
        assert all(e.code() == Code.FAILED_PRECONDITION and error_reason(e) == Reason.ERROR_REASON_TICKET_CLOSED for e in lost), \
            [(e.code(), e.details()) for e in lost]


def test_answers_racing_a_close_are_kept_or_refused_whole(api, operator, server):
    market = Market(api, operator, server)
    customer = market.customer()
    ticket = open_ticket(api, customer)
    calls = [lambda i=i: write(api, market.admin, ticket.id, f"answer {i}") for i in range(6)]
    calls += [lambda: close(api, market.admin, ticket.id) for _ in range(4)]
    results = race(calls)
    answers, closes = results[:6], results[6:]
    assert sum(not isinstance(r, grpc.RpcError) for r in closes) == 1
    kept = [r for r in answers if not isinstance(r, grpc.RpcError)]
    assert all(error_reason(r) == Reason.ERROR_REASON_TICKET_CLOSED for r in answers + closes if isinstance(r, grpc.RpcError))
    final = get(api, customer, ticket.id)
    assert final.status == CLOSED and final.message_count == 1 + len(kept)
    assert sorted(m.id for m in messages(api, customer, ticket.id)[1:]) == sorted(m.id for m in kept)


# ---- The author's language ----

def test_the_author_is_told_of_answers_and_closes_in_their_own_language(api, operator, server):
    from test_push_outbox import notifications_of, set_locale
    market = Market(api, operator, server)
    texts = {"ar-SA": ("ردّ الدعم", "أُغلقت تذكرة الدعم"), "vi-VN": ("Bộ phận hỗ trợ đã trả lời", "Yêu cầu hỗ trợ đã đóng"),
             "en-US": ("Support answered", "Support ticket closed")}
    for locale, (answered, closed) in texts.items():
        author = market.customer()
        set_locale(api, author, locale)
        ticket = open_ticket(api, author, subject=f"Ticket in {locale}")
        write(api, market.admin, ticket.id, "On its way")
        close(api, market.admin, ticket.id)
        told = [n for n in notifications_of(api, author) if n.kind == Kind.NOTIFICATION_KIND_SUPPORT]
        assert [n.title for n in told] == [closed, answered], f"{locale}: {[n.title for n in told]}"
        assert f"Ticket in {locale}" in told[1].body and "On its way" in told[1].body
