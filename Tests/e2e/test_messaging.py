"""Messaging through a real server (--demo), as the apps use it: a MARA lessee and lessor chat
about a booking with a photo, read receipts bring the unread counts down, and typing shows on the
bidirectional WatchConversation stream (never replayed); a Drip 'n Dash customer and Dasher chat
about a job and neither ever sees the other's phone, e-mail or last name; strangers and another
marketplace's tokens can neither read nor write either conversation; a customer talks with
support (an admin); racing creates give one conversation per subject and pair; a retried send
gives one message; the conversation, with its unread count, reaches the other participant's
account stream (Notifications.WatchAccount)."""
import queue
import threading
import uuid

import grpc
import pytest

from conftest import IdentityServer, stop_cleanly
from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, Api, Party, Reason, Role, login_party, operator_party, pb, refused, request_id, sign_up,
    unique_email,
)
from souk_protos import Stub, enum
from test_rentals_listings import PNG, apartment, create

Code = grpc.StatusCode
ResourceType = enum("souk.v1.ResourceType")
Typing = enum("souk.v1.TypingState")
Kind = enum("souk.v1.NotificationKind")
Purpose = enum("souk.v1.MediaPurpose")
MARA, DRIP = "MARA", "Drip 'n Dash"
WAIT = 20  # seconds: a bound on waiting for a stream's event, never an assertion about time


@pytest.fixture(scope="module")
def identity_server():
    """A server of its own whose tokens outlive the streams the tests hold open."""
    s = IdentityServer(access_token_ttl=600)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def identity_channel(identity_server):
    with identity_server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield ch


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.messaging = Stub(identity_channel, "souk.v1.Messaging")
    api.rentals = Stub(identity_channel, "souk.v1.Rentals")
    api.media = Stub(identity_channel, "souk.v1.Media")
    api.laundry = Stub(identity_channel, "souk.v1.Laundry")
    api.notifications = Stub(identity_channel, "souk.v1.Notifications")
    api.carts = Stub(identity_channel, "souk.v1.Carts")
    api.orders = Stub(identity_channel, "souk.v1.Orders")
    return api


def chat(api, method, party, marketplace_id=None, **fields):
    request = getattr(pb, f"{method}Request")(marketplace_id=marketplace_id or party.marketplace_id, **fields)
    return getattr(api.messaging, method)(request, metadata=party.md(), timeout=TIMEOUT)


def open_conversation(api, party, other, subject=None, **fields):
    return chat(api, "CreateConversation", party, request_id=request_id(), participant_account_ids=[other.account_id],
                subject=subject, **fields)


def send(api, party, conversation, text="", **fields):
    return chat(api, "SendMessage", party, request_id=fields.pop("request_id", None) or request_id(),
                conversation_id=conversation.id, text=text, **fields)


def upload(api, party, content=PNG, content_type="image/png", name="phong.png"):
    metadata = pb.UploadMediaMetadata(request_id=request_id(), content_type=content_type, size_bytes=len(content),
                                      file_name=name, purpose=Purpose.MEDIA_PURPOSE_ATTACHMENT)
    requests = [pb.UploadMediaRequest(marketplace_id=party.marketplace_id, metadata=metadata),
                pb.UploadMediaRequest(marketplace_id=party.marketplace_id, chunk=content)]
    return api.media.UploadMedia(iter(requests), metadata=party.md(), timeout=TIMEOUT)


class Watch:
    """One WatchConversation stream: requests go in through `say`, events come out of `next`."""

    _END = object()

    def __init__(self, api, party, conversation_id, resume_after=0, typing=Typing.TYPING_STATE_UNSPECIFIED):
        self.party = party
        self.requests = queue.Queue()
        self.events = queue.Queue()
        self.requests.put(pb.WatchConversationRequest(marketplace_id=party.marketplace_id, conversation_id=conversation_id,
                                                      resume_after_sequence=resume_after, typing=typing))
        self.call = api.messaging.WatchConversation(self._requests(), metadata=party.md())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _requests(self):
        while True:
            request = self.requests.get()
            if request is self._END:
                return
            yield request

    def _read(self):
        try:
            for event in self.call:
                self.events.put(event)
        except grpc.RpcError as error:
            self.events.put(error)

    def say(self, typing):
        self.requests.put(pb.WatchConversationRequest(marketplace_id=self.party.marketplace_id, typing=typing))

    def next(self):
        event = self.events.get(timeout=WAIT)
        if isinstance(event, grpc.RpcError):
            raise event
        return event

    def next_of(self, kind):
        """The next event of `kind` (message, read_receipt, typing), skipping the others."""
        while True:
            event = self.next()
            if event.WhichOneof("event") == kind:
                return event

    def close(self):
        self.call.cancel()
        self.requests.put(self._END)
        self.thread.join(timeout=WAIT)


class AccountStream:
    """One Notifications.WatchAccount stream from the caller's current position."""

    def __init__(self, api, party):
        listed = api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=party.marketplace_id),
                                                     metadata=party.md(), timeout=TIMEOUT)
        self.call = api.notifications.WatchAccount(pb.WatchAccountRequest(
            marketplace_id=party.marketplace_id, resume_after_sequence=listed.last_sequence), metadata=party.md())
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for event in self.call:
                self.events.put(event)
        except grpc.RpcError as error:
            self.events.put(error)

    def next_of(self, kind):
        while True:
            event = self.events.get(timeout=WAIT)
            if isinstance(event, grpc.RpcError):
                raise event
            if event.WhichOneof("event") == kind:
                return event

    def close(self):
        self.call.cancel()


# ---- MARA: a lessee and a lessor about a booking ----

@pytest.fixture(scope="module")
def mara(identity_server):
    return identity_server.marketplace_id(MARA)


@pytest.fixture(scope="module")
def mara_admin(api, identity_server):
    return login_party(api, identity_server.demo_login(MARA, "admin"))


@pytest.fixture(scope="module")
def lease(api, mara, mara_admin):
    """A lessor (Lê Hoa) whose listing a lessee (Minh Phạm) asked to rent, and the booking."""
    lessor = sign_up(api, mara, email=unique_email("lessor"), given_name="Lê", family_name="Hoa",
                     requested_roles=[Role.ROLE_PROVIDER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=mara, account_id=lessor.account_id, role=Role.ROLE_PROVIDER),
                             metadata=mara_admin.md(), timeout=TIMEOUT)
    regions = api.rentals.ListRegions(pb.ListRegionsRequest(marketplace_id=mara, page_size=100), timeout=TIMEOUT).regions
    hcmc = next(r for r in regions if r.name == "Thành phố Hồ Chí Minh")
    draft = create(api, lessor, apartment(hcmc, title="Căn hộ Quận 1 có ban công"))
    listing = api.rentals.PublishListing(pb.PublishListingRequest(marketplace_id=mara, listing_id=draft.id),
                                         metadata=lessor.md(), timeout=TIMEOUT)
    lessee = sign_up(api, mara, email=unique_email("lessee"), given_name="Minh", family_name="Phạm")
    from test_rentals_leases import next_month
    start = next_month()
    booking = api.rentals.RequestBooking(pb.RequestBookingRequest(
        marketplace_id=mara, request_id=request_id(), listing_id=listing.id, months=12,
        start_date=pb.Date(year=start.year, month=start.month, day=start.day)), metadata=lessee.md(), timeout=TIMEOUT)
    return {"lessor": lessor, "lessee": lessee, "listing": listing, "booking": booking,
            "subject": pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_BOOKING, id=booking.id)}


@pytest.fixture(scope="module")
def lease_chat(api, lease):
    return open_conversation(api, lease["lessee"], lease["lessor"], lease["subject"], first_message_text="Chào chị, em là Minh")


def unread(api, party, conversation_id):
    listed = chat(api, "ListConversations", party, page_size=100)
    mine = [c for c in listed.conversations if c.id == conversation_id]
    assert len(mine) == 1
    return mine[0].unread_count, listed.total_unread_count


def test_a_lessee_and_a_lessor_chat_with_a_photo_receipts_and_typing(api, lease, lease_chat):
    lessee, lessor = lease["lessee"], lease["lessor"]
    assert sorted(lease_chat.participant_account_ids) == sorted([lessee.account_id, lessor.account_id])
    assert lease_chat.subject.id == lease["booking"].id and lease_chat.title == lease["listing"].title
    assert lease_chat.last_message.text == "Chào chị, em là Minh" and lease_chat.unread_count == 0
    names = {p.account_id: p.display_name for p in lease_chat.participants}
    assert names == {lessee.account_id: "Minh P.", lessor.account_id: "Lê H."}

    seen = chat(api, "GetConversation", lessor, conversation_id=lease_chat.id)
    assert seen.unread_count == 1
    watch = Watch(api, lessor, lease_chat.id, resume_after=seen.last_sequence)
    try:
        photo = upload(api, lessee)
        sent = send(api, lessee, lease_chat, "Ảnh phòng khách", attachments=[pb.Attachment(media_id=photo.id)])
        assert [(a.media_id, a.content_type, a.size_bytes) for a in sent.attachments] == [(photo.id, "image/png", len(PNG))]
        event = watch.next_of("message")
        assert event.sequence == sent.sequence > seen.last_sequence
        assert event.message.id == sent.id and event.message.attachments[0].media_id == photo.id
        # The photo is readable by the lessor through the conversation.
        chunks = api.media.DownloadMedia(pb.DownloadMediaRequest(marketplace_id=lessor.marketplace_id, media_id=photo.id),
                                         metadata=lessor.md(), timeout=TIMEOUT)
        assert b"".join(c.chunk for c in chunks if c.chunk) == PNG

        assert unread(api, lessor, lease_chat.id)[0] == 2
        before_total = unread(api, lessor, lease_chat.id)[1]
        # Reading the first message only leaves the photo unread; reading it too leaves none.
        receipt = chat(api, "MarkConversationRead", lessor, conversation_id=lease_chat.id,
                       through_sequence=lease_chat.last_message.sequence)
        assert receipt.account_id == lessor.account_id and receipt.through_sequence == lease_chat.last_message.sequence
        assert unread(api, lessor, lease_chat.id) == (1, before_total - 1)
        chat(api, "MarkConversationRead", lessor, conversation_id=lease_chat.id, through_sequence=sent.sequence)
        assert unread(api, lessor, lease_chat.id) == (0, before_total - 2)
        # Moving the mark backwards is ignored.
        back = chat(api, "MarkConversationRead", lessor, conversation_id=lease_chat.id, through_sequence=1)
        assert back.through_sequence == sent.sequence
        receipt_event = watch.next_of("read_receipt")
        assert receipt_event.sequence > sent.sequence and receipt_event.read_receipt.account_id == lessor.account_id

        # The lessee types, on a stream of their own: the lessor sees it, with sequence 0.
        typing = Watch(api, lessee, lease_chat.id, typing=Typing.TYPING_STATE_TYPING)
        try:
            shown = watch.next_of("typing")
            assert shown.sequence == 0 and shown.typing.account_id == lessee.account_id and shown.typing.typing
            assert shown.typing.expire_time.seconds - shown.event_time.seconds == 10
            typing.say(Typing.TYPING_STATE_STOPPED)
            stopped = watch.next_of("typing")
            assert stopped.sequence == 0 and not stopped.typing.typing
            reply = send(api, lessor, lease_chat, "Chào em")
            assert typing.next_of("message").message.id == reply.id
        finally:
            typing.close()
        conversation = chat(api, "GetConversation", lessee, conversation_id=lease_chat.id)
        assert {r.account_id: r.through_sequence for r in conversation.read_receipts}[lessor.account_id] == reply.sequence
    finally:
        watch.close()

    # A resumed stream replays the stored events in order and no typing.
    replay = Watch(api, lessee, lease_chat.id, resume_after=lease_chat.last_message.sequence)
    try:
        kinds, sequences = [], []
        while not sequences or sequences[-1] < reply.sequence:
            event = replay.next()
            kinds.append(event.WhichOneof("event"))
            sequences.append(event.sequence)
        assert "typing" not in kinds and kinds[0] == "message" and "read_receipt" in kinds
        assert sequences == sorted(sequences) and 0 not in sequences
    finally:
        replay.close()

    history = chat(api, "ListMessages", lessee, conversation_id=lease_chat.id, page_size=2)
    assert [m.id for m in history.messages] == [reply.id, sent.id] and history.next_page_token
    older = chat(api, "ListMessages", lessee, conversation_id=lease_chat.id, page_size=2, page_token=history.next_page_token)
    assert [m.text for m in older.messages] == ["Chào chị, em là Minh"] and not older.next_page_token


def test_message_fields_are_checked_together(api, lease, lease_chat):
    lessee, lessor = lease["lessee"], lease["lessor"]
    error = refused(lambda: chat(api, "SendMessage", lessee, conversation_id=lease_chat.id, request_id=""),
                    Code.INVALID_ARGUMENT)
    assert "text" in error.details() and "request_id" in error.details()
    refused(lambda: send(api, lessee, lease_chat, "x" * 4001), Code.INVALID_ARGUMENT, field="text")
    refused(lambda: send(api, lessee, lease_chat, "", attachments=[pb.Attachment(media_id=str(uuid.uuid4()))] * 11),
            Code.INVALID_ARGUMENT, field="attachments")
    # Someone else's upload cannot be attached.
    theirs = upload(api, lessor)
    refused(lambda: send(api, lessee, lease_chat, "", attachments=[pb.Attachment(media_id=theirs.id)]),
            Code.INVALID_ARGUMENT, field="attachments[0].media_id")
    refused(lambda: chat(api, "MarkConversationRead", lessee, conversation_id=lease_chat.id, through_sequence=10**9),
            Code.INVALID_ARGUMENT, field="through_sequence")


# ---- Drip 'n Dash: a customer and a Dasher about a job ----

@pytest.fixture(scope="module")
def job_chat(api, identity_server):
    """A customer (Casey Private) and a Dasher (Dana Hidden) of one dorm, each with a phone; the
    Dasher accepted the customer's job; the customer opened a conversation about it."""
    drip = identity_server.marketplace_id(DRIP)
    operator = operator_party(api, identity_server)
    dorm = api.laundry.CreateDorm(pb.CreateDormRequest(
        marketplace_id=drip, request_id=request_id(), dorm=pb.Dorm(campus="Busch", name=f"Hall {uuid.uuid4().hex[:8]}")),
        metadata=operator.md(), timeout=TIMEOUT).id

    def student(given, family, phone, dasher=False):
        email = f"{given.lower()}-{uuid.uuid4().hex[:8]}@rutgers.edu"
        api.accounts.CreateAccount(pb.CreateAccountRequest(
            marketplace_id=drip, request_id=request_id(), email=email, initial_password=STRONG_PASSWORD, given_name=given,
            family_name=family, phone=phone, roles=[Role.ROLE_COURIER] if dasher else [],
            laundry_profile=pb.LaundryProfile(campus="Busch", dorm_id=dorm, room="214")), metadata=operator.md(), timeout=TIMEOUT)
        party = Party.login(api, drip, email, STRONG_PASSWORD)
        party.private = (email, phone, family)
        return party

    customer = student("Casey", "Privatelast", "+17325550101")
    dasher = student("Dana", "Hiddenlast", "+17325550102", dasher=True)
    job = api.laundry.SubmitJob(pb.SubmitJobRequest(marketplace_id=drip, request_id=request_id(), loads_estimate=2,
                                                    instructions="delicates"), metadata=customer.md(), timeout=TIMEOUT)
    offered = api.laundry.RequestWork(pb.RequestWorkRequest(marketplace_id=drip), metadata=dasher.md(), timeout=TIMEOUT)
    assert offered.job.id == job.id
    api.laundry.AcceptJob(pb.AcceptJobRequest(marketplace_id=drip, job_id=job.id), metadata=dasher.md(), timeout=TIMEOUT)
    subject = pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_JOB, id=job.id)
    conversation = open_conversation(api, customer, dasher, subject, first_message_text="Hi! Bag is at the door")
    return {"customer": customer, "dasher": dasher, "job": job, "subject": subject, "conversation": conversation}


def assert_private(party, *answers):
    """None of `answers` shows `party`'s e-mail, phone or family name."""
    text = "\n".join(str(a) for a in answers)
    for secret in party.private:
        assert secret not in text, f"{secret!r} shown"


def test_a_customer_and_a_dasher_never_see_each_others_contact_details(api, job_chat):
    customer, dasher, conversation = job_chat["customer"], job_chat["dasher"], job_chat["conversation"]
    names = {p.account_id: p.display_name for p in conversation.participants}
    assert names == {customer.account_id: "Casey", dasher.account_id: "Dana"}
    stream = AccountStream(api, customer)
    try:
        reply = send(api, dasher, conversation, "On my way, 5 min")
        streamed = stream.next_of("conversation")
        assert streamed.conversation.last_message.id == reply.id and streamed.conversation.unread_count == 1
    finally:
        stream.close()
    seen_by_customer = [
        chat(api, "GetConversation", customer, conversation_id=conversation.id),
        chat(api, "ListConversations", customer),
        chat(api, "ListMessages", customer, conversation_id=conversation.id),
        streamed,
        api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=customer.marketplace_id),
                                            metadata=customer.md(), timeout=TIMEOUT),
    ]
    seen_by_dasher = [
        conversation,
        chat(api, "GetConversation", dasher, conversation_id=conversation.id),
        chat(api, "ListConversations", dasher),
        chat(api, "ListMessages", dasher, conversation_id=conversation.id),
        reply,
        api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=dasher.marketplace_id),
                                            metadata=dasher.md(), timeout=TIMEOUT),
    ]
    assert_private(dasher, conversation, *seen_by_customer)
    assert_private(customer, *seen_by_dasher)
    told = [n for n in seen_by_customer[-1].notifications if n.kind == Kind.NOTIFICATION_KIND_MESSAGE]
    assert told and told[0].title == "Dana" and told[0].subject.id == conversation.id


# ---- DineSwift: a customer and a restaurant about an order ----

def test_a_customer_asks_the_restaurant_about_an_order(api, identity_server):
    from souk_food import a_point, approved_open_restaurant, pizza_input
    dine = identity_server.marketplace_id("DineSwift")
    market = {"id": dine, "admin": login_party(api, identity_server.demo_login("DineSwift", "admin"))}
    restaurant, owner = approved_open_restaurant(api, market, f"Pizza {uuid.uuid4().hex[:6]}", a_point())
    pizza = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=dine, request_id=request_id(), menu_item=pizza_input(restaurant.id, "Margherita")),
        metadata=owner.md(), timeout=TIMEOUT)
    customer = sign_up(api, dine, given_name="Rami", family_name="Khoury")
    api.carts.AddCartLine(pb.AddCartLineRequest(
        marketplace_id=dine, request_id=request_id(), item_id=pizza.id, quantity=1,
        options=[pb.CartLineOption(group_id="size", choice_id="small")]), metadata=customer.md(), timeout=TIMEOUT)
    home = pb.Address(recipient_name="Rami", phone="+9613555123", line1="Rue Maarad 4", city="Jounieh", country_code="LB",
                      location=a_point())
    order = api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=dine, request_id=request_id(), address=pb.AddressChoice(address=home), address_confirmed=True,
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=customer.md(), timeout=TIMEOUT)
    subject = pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_ORDER, id=order.id)
    asked = open_conversation(api, customer, owner, subject, first_message_text="No onions, please")
    assert asked.title == f"Order {order.order_number}"
    assert {p.account_id: p.display_name for p in asked.participants}[customer.account_id] == "Rami K."
    assert unread(api, owner, asked.id)[0] == 1
    # The restaurant answers in the same conversation, whoever opens it.
    again = open_conversation(api, owner, customer, subject)
    assert again.id == asked.id and again.unread_count == 1
    stranger = sign_up(api, dine, given_name="Nadim")
    refused(lambda: open_conversation(api, stranger, owner, subject), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_NOT_A_PARTY)
    refused(lambda: open_conversation(api, customer, owner, pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_ORDER,
                                                                       id=str(uuid.uuid4()))), Code.NOT_FOUND)
    refused(lambda: open_conversation(api, customer, owner, pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_PRODUCT,
                                                                       id=str(uuid.uuid4()))),
            Code.INVALID_ARGUMENT, field="subject.type")


# ---- Who may read and write ----

def test_strangers_and_other_marketplaces_can_neither_read_nor_write(api, identity_server, lease, lease_chat, job_chat):
    mara_stranger = sign_up(api, lease["lessor"].marketplace_id, email=unique_email("stranger"), given_name="Lạ")
    drip_customer = login_party(api, identity_server.demo_login(DRIP, "customer"))
    for conversation, stranger, outsider in [(lease_chat, mara_stranger, drip_customer),
                                             (job_chat["conversation"], drip_customer, mara_stranger)]:
        calls = {
            "GetConversation": dict(conversation_id=conversation.id),
            "ListMessages": dict(conversation_id=conversation.id),
            "SendMessage": dict(conversation_id=conversation.id, request_id=request_id(), text="hello"),
            "MarkConversationRead": dict(conversation_id=conversation.id, through_sequence=1),
        }
        for method, fields in calls.items():
            refused(lambda: chat(api, method, stranger, **fields), Code.PERMISSION_DENIED)
            # Another marketplace's token, naming the conversation's marketplace or its own.
            refused(lambda: chat(api, method, outsider, marketplace_id=stranger.marketplace_id, **fields),
                    Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
            refused(lambda: chat(api, method, outsider, **fields), Code.NOT_FOUND)
        watch = Watch(api, stranger, conversation.id)
        try:
            with pytest.raises(grpc.RpcError) as raised:
                watch.next()
            assert raised.value.code() == Code.PERMISSION_DENIED
        finally:
            watch.close()
        assert conversation.id not in [c.id for c in chat(api, "ListConversations", stranger).conversations]
    # Nor can a stranger open a conversation about the booking or the job.
    refused(lambda: open_conversation(api, mara_stranger, lease["lessor"], lease["subject"]), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_NOT_A_PARTY)
    refused(lambda: open_conversation(api, job_chat["customer"], drip_customer, job_chat["subject"]),
            Code.INVALID_ARGUMENT, field="participant_account_ids", reason=Reason.ERROR_REASON_NOT_A_PARTY)


def test_a_prospective_lessee_asks_a_lessor_about_a_listing(api, lease, mara):
    prospect = sign_up(api, mara, email=unique_email("prospect"), given_name="Lan", family_name="Võ")
    subject = pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_LISTING, id=lease["listing"].id)
    asked = open_conversation(api, prospect, lease["lessor"], subject, first_message_text="Còn phòng không ạ?")
    assert asked.title == lease["listing"].title
    other = sign_up(api, mara, email=unique_email("other"), given_name="Khoa")
    # Two prospects do not talk to each other about someone's listing.
    refused(lambda: open_conversation(api, prospect, other, subject), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_NOT_A_PARTY)


def test_a_customer_talks_with_support(api, mara, mara_admin):
    customer = sign_up(api, mara, email=unique_email("help"), given_name="Huy", family_name="Đỗ")
    other = sign_up(api, mara, email=unique_email("peer"), given_name="Nam")
    refused(lambda: open_conversation(api, customer, other), Code.INVALID_ARGUMENT, field="participant_account_ids",
            reason=Reason.ERROR_REASON_SUPPORT_NEEDS_ADMIN)
    opened = open_conversation(api, mara_admin, customer, first_message_text="Chào anh, bộ phận hỗ trợ MARA đây")
    assert opened.title == "Support" and not opened.HasField("subject")
    # The customer asking support again finds the same conversation.
    again = open_conversation(api, customer, mara_admin, first_message_text="Em cần hỏi về hợp đồng")
    assert again.id == opened.id and again.last_message.text == "Em cần hỏi về hợp đồng"
    assert unread(api, mara_admin, opened.id)[0] == 1
    answer = send(api, mara_admin, opened, "Anh cứ hỏi")
    assert chat(api, "ListMessages", customer, conversation_id=opened.id).messages[0].id == answer.id


# ---- Races and retries ----

def test_racing_creates_give_one_conversation_per_subject_and_pair(api, lease):
    lessee, lessor = lease["lessee"], lease["lessor"]
    # A subject of its own, so no earlier test opened it: the listing, between these two.
    subject = pb.ResourceRef(type=ResourceType.RESOURCE_TYPE_LISTING, id=lease["listing"].id)
    barrier = threading.Barrier(16)
    found, errors = [], []

    def racer(index):
        caller, other = (lessee, lessor) if index % 2 else (lessor, lessee)
        barrier.wait()
        try:
            found.append(open_conversation(api, caller, other, subject).id)
        except grpc.RpcError as error:
            errors.append(error)

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, [e.details() for e in errors]
    assert len(found) == 16 and len(set(found)) == 1
    listed = [c for c in chat(api, "ListConversations", lessee, page_size=100).conversations
              if c.subject.id == lease["listing"].id]
    assert len(listed) == 1


def test_a_retried_send_gives_one_message(api, lease, lease_chat):
    lessee = lease["lessee"]
    before = chat(api, "GetConversation", lessee, conversation_id=lease_chat.id).last_sequence
    key = request_id()
    barrier = threading.Barrier(8)
    sent = []

    def retry():
        barrier.wait()
        sent.append(send(api, lessee, lease_chat, "Em chuyển tiền cọc rồi ạ", request_id=key))

    threads = [threading.Thread(target=retry) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({m.id for m in sent}) == 1 and len(sent) == 8
    history = chat(api, "ListMessages", lessee, conversation_id=lease_chat.id, page_size=100).messages
    assert [m.id for m in history if m.sequence > before] == [sent[0].id]
    refused(lambda: send(api, lessee, lease_chat, "another text", request_id=key), Code.INVALID_ARGUMENT,
            reason=Reason.ERROR_REASON_REQUEST_ID_REUSED)


def test_the_conversation_reaches_the_other_participants_account_stream(api, lease, lease_chat):
    lessee, lessor = lease["lessee"], lease["lessor"]
    stream = AccountStream(api, lessor)
    try:
        start = unread(api, lessor, lease_chat.id)[0]
        message = send(api, lessee, lease_chat, "Khi nào em dọn vào được ạ?")
        notified = stream.next_of("notification")
        assert notified.notification.kind == Kind.NOTIFICATION_KIND_MESSAGE and notified.notification.title == "Minh P."
        changed = stream.next_of("conversation")
        assert changed.conversation.id == lease_chat.id and changed.conversation.last_message.id == message.id
        assert changed.conversation.unread_count == start + 1
        chat(api, "MarkConversationRead", lessor, conversation_id=lease_chat.id, through_sequence=message.sequence)
        read = stream.next_of("conversation")
        assert read.conversation.id == lease_chat.id and read.conversation.unread_count == 0
    finally:
        stream.close()


def test_a_watch_ends_when_its_session_ends(api, lease, lease_chat):
    lessor = lease["lessor"]
    phone = Party.login(api, lessor.marketplace_id, lessor.email, lessor.password)
    seen = chat(api, "GetConversation", phone, conversation_id=lease_chat.id)
    watch = Watch(api, phone, lease_chat.id, resume_after=seen.last_sequence)
    try:
        # The stream is live (a message reaches it) before the session ends.
        message = send(api, lease["lessee"], lease_chat, "Chị ơi?")
        assert watch.next_of("message").message.id == message.id
        api.accounts.Logout(pb.LogoutRequest(marketplace_id=phone.marketplace_id), metadata=phone.md(), timeout=TIMEOUT)
        with pytest.raises(grpc.RpcError) as ended:
            while True:
                watch.next()
        assert ended.value.code() == Code.UNAUTHENTICATED
    finally:
        watch.close()


def test_sends_from_both_sides_at_once_keep_the_unread_counters_exact(api, lease, lease_chat):
    lessee, lessor = lease["lessee"], lease["lessor"]
    # Both read to the newest message first, so the counters start from zero in this conversation.
    newest = chat(api, "GetConversation", lessee, conversation_id=lease_chat.id).last_message.sequence
    for party in (lessee, lessor):
        chat(api, "MarkConversationRead", party, conversation_id=lease_chat.id, through_sequence=newest)
    totals_before = {p.account_id: unread(api, p, lease_chat.id)[1] for p in (lessee, lessor)}
    barrier = threading.Barrier(24)
    errors = []

    def sender(party, index):
        barrier.wait()
        try:
            send(api, party, lease_chat, f"{index}")
        except grpc.RpcError as error:
            errors.append(error)

    threads = [threading.Thread(target=sender, args=(lessee if i % 2 else lessor, i)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, [e.details() for e in errors]
    history = [m for m in chat(api, "ListMessages", lessee, conversation_id=lease_chat.id, page_size=100).messages
               if m.sequence > newest]
    assert len(history) == 24 and len({m.sequence for m in history}) == 24
    for party in (lessee, lessor):
        # A sender has read up to their own last message: what the other sent after it is unread.
        own = max(m.sequence for m in history if m.sender_account_id == party.account_id)
        expected = sum(1 for m in history if m.sender_account_id != party.account_id and m.sequence > own)
        count, total = unread(api, party, lease_chat.id)
        assert count == expected, f"{party.account_id}: {count} unread, a recount gives {expected}"
        assert total == totals_before[party.account_id] + expected
