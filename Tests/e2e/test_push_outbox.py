"""The push outbox (notifications.proto, PUSH OUTBOX): every notification the recipient's settings
allow is written, with the change it tells about, to one platform-wide outbox, once per device of
the recipient, in the recipient's language, within APNs' and FCM's payload limits and with one
collapse id per subject. Only the push adapter (a platform service account the operator creates)
reads and completes it: a marketplace admin gets PERMISSION_DENIED and never sees a device token;
a token the push service refuses unregisters its device.

Notifications come from Aqua Hub water orders (its accounts speak Arabic unless they choose another
language) and from a MARA booking request (its lessor speaks Vietnamese)."""
import datetime
import itertools
import json
import threading
import unicodedata
import uuid

import grpc
import pytest

from souk_identity import TIMEOUT, Api, FieldMask, Reason, login_party, operator_party, pb, push_adapter_party, refused, \
    request_id, sign_up, Role
from souk_protos import Stub, enum, field_violations
from test_dispatch_rules import food_market, offer, preparing_order
from test_food_journey import approved_driver, point
from test_laundry_jobs import Dorm, submit, work
from souk_identity import create_marketplace

Code = grpc.StatusCode
PushStatus = enum("souk.v1.PushStatus")
Kind = enum("souk.v1.NotificationKind")
Category = enum("souk.v1.NotificationCategory")
APNS, FCM = 1, 2
PENDING, SENT, FAILED = PushStatus.PUSH_STATUS_PENDING, PushStatus.PUSH_STATUS_SENT, PushStatus.PUSH_STATUS_FAILED
APNS_LIMIT, FCM_LIMIT = 4096, 4000
RIYADH = datetime.timezone(datetime.timedelta(hours=3))
AQUA = "Aqua Hub"
MARA = "MARA"
MARA_DEMO_LISTING = "01900000-0000-7000-8000-00000000a001"


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.orders = Stub(identity_channel, "souk.v1.Orders")
    api.notifications = Stub(identity_channel, "souk.v1.Notifications")
    api.rentals = Stub(identity_channel, "souk.v1.Rentals")
    return api


@pytest.fixture(scope="module")
def aqua(identity_server):
    return identity_server.marketplace_id(AQUA)


@pytest.fixture(scope="module")
def adapter(api, identity_server):
    return push_adapter_party(api, operator_party(api, identity_server))


@pytest.fixture(scope="module")
def water(api, aqua):
    services = api.catalog.ListServices(pb.ListServicesRequest(marketplace_id=aqua), metadata=(("accept-language", "en"),),
                                        timeout=TIMEOUT).services
    return next(s for s in services if s.name == "Safi Water")


# Each order takes a window of its own, on days no other test of the shared demo marketplace books.
_SLOTS = itertools.product(range(60, 400), range(5))
_SLOTS_LOCK = threading.Lock()


def free_window(api, party):
    with _SLOTS_LOCK:
        days, index = next(_SLOTS)
    day = datetime.datetime.now(RIYADH).date() + datetime.timedelta(days=days)
    windows = api.orders.ListServiceWindows(pb.ListServiceWindowsRequest(
        marketplace_id=party.marketplace_id, date=pb.Date(year=day.year, month=day.month, day=day.day)),
        metadata=party.md(), timeout=TIMEOUT).windows
    return windows[index].window


def place_order(api, party, water):
    """A bottled-water delivery, approved at once: the customer is told "Order <n> confirmed"."""
    return api.orders.PlaceServiceOrder(pb.PlaceServiceOrderRequest(
        marketplace_id=party.marketplace_id, request_id=request_id(), service_id=water.id, option_id=water.options[0].id,
        quantity=1, scheduled_window=free_window(api, party),
        address=pb.AddressChoice(address=pb.Address(line1="King Abdulaziz Road 7", city="Arar", country_code="SA",
                                                    phone="+966512345699")),
        payment=pb.PaymentMethodInput(cash=pb.CashOnDelivery())), metadata=party.md(), timeout=TIMEOUT)


def reschedule(api, party, order, reason=""):
    return api.orders.RescheduleOrder(pb.RescheduleOrderRequest(
        marketplace_id=party.marketplace_id, order_id=order.id, scheduled_window=free_window(api, party), reason=reason,
        expected_version=order.version), metadata=party.md(), timeout=TIMEOUT)


def register(api, party, platform=APNS, app_id="com.aquahub.app"):
    token = f"{'apns' if platform == APNS else 'fcm'}-{uuid.uuid4().hex}{uuid.uuid4().hex}"
    return api.notifications.RegisterDevice(pb.RegisterDeviceRequest(
        marketplace_id=party.marketplace_id, platform=platform, token=token, app_id=app_id, device_name="phone"),
        metadata=party.md(), timeout=TIMEOUT)


def settings(api, party, paths, **values):
    return api.notifications.UpdateNotificationSettings(pb.UpdateNotificationSettingsRequest(
        marketplace_id=party.marketplace_id, settings=pb.NotificationSettings(**values), update_mask=FieldMask(paths=paths)),
        metadata=party.md(), timeout=TIMEOUT)


def set_locale(api, party, locale):
    api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=party.marketplace_id, account=pb.Account(id=party.account_id, locale=locale),
        update_mask=FieldMask(paths=["locale"])), metadata=party.md(), timeout=TIMEOUT)


def notifications_of(api, party):
    return list(api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=party.marketplace_id, page_size=100),
                                                    metadata=party.md(), timeout=TIMEOUT).notifications)


def outbox(api, adapter, statuses=(), page_size=100):
    """The whole outbox as the adapter pages through it, in its order."""
    items, token = [], ""
    while True:
        page = api.notifications.ListPushOutbox(pb.ListPushOutboxRequest(page_size=page_size, page_token=token,
                                                                         statuses=list(statuses)),
                                                metadata=adapter.md(), timeout=TIMEOUT)
        items += page.messages
        token = page.next_page_token
        if not token:
            return items


def pushes_to(api, adapter, party, statuses=()):
    return [m for m in outbox(api, adapter, statuses) if m.account_id == party.account_id]


def complete(api, adapter, push, status, error="", token_invalid=False):
    return api.notifications.CompletePush(pb.CompletePushRequest(push_id=push.id, status=status, error=error,
                                                                 token_invalid=token_invalid),
                                          metadata=adapter.md(), timeout=TIMEOUT)


def test_the_outbox_holds_exactly_what_settings_allow(api, aqua, water, adapter):
    # Two devices: two pushes of one notification, each with its device's token and app.
    two = sign_up(api, aqua)
    phone, tablet = register(api, two, APNS), register(api, two, FCM, app_id="com.aquahub.android")
    order = place_order(api, two, water)
    [note] = [n for n in notifications_of(api, two) if n.subject.id == order.id]
    pushes = pushes_to(api, adapter, two)
    assert sorted((p.device_id, p.platform, p.token, p.app_id) for p in pushes) == sorted([
        (phone.id, APNS, phone.token, "com.aquahub.app"), (tablet.id, FCM, tablet.token, "com.aquahub.android")])
    for push in pushes:
        assert (push.notification_id, push.title, push.body, push.kind) == (note.id, note.title, note.body, Kind.NOTIFICATION_KIND_ORDER)
        assert (push.status, push.attempts, push.marketplace_id) == (PENDING, 0, aqua)
        assert push.subject.id == order.id and push.HasField("create_time") and not push.HasField("send_time")

    # No device: the notification is stored and streamed, nothing is pushed.
    alone = sign_up(api, aqua)
    order = place_order(api, alone, water)
    assert [n.subject.id for n in notifications_of(api, alone)] == [order.id]
    assert pushes_to(api, adapter, alone) == []

    # Each switch stops the pushes it names, and only those; the notification stays.
    cases = [
        (["push_disabled"], dict(push_disabled=True), False),
        (["muted_kinds"], dict(muted_kinds=[Kind.NOTIFICATION_KIND_ORDER]), False),
        (["muted_categories"], dict(muted_categories=[Category.NOTIFICATION_CATEGORY_ACTIVITY]), False),
        (["muted_kinds", "muted_categories"], dict(muted_kinds=[Kind.NOTIFICATION_KIND_BILL, Kind.NOTIFICATION_KIND_MESSAGE],
                                                   muted_categories=[Category.NOTIFICATION_CATEGORY_MESSAGES]), True),
    ]
    for paths, values, pushed in cases:
        party = sign_up(api, aqua)
        device = register(api, party)
        settings(api, party, paths, **values)
        order = place_order(api, party, water)
        assert [n.subject.id for n in notifications_of(api, party)] == [order.id], f"{values}: the notification is stored anyway"
        got = pushes_to(api, adapter, party)
        assert [p.device_id for p in got] == ([device.id] if pushed else []), f"{values}: pushed={pushed}"

    # Switched back on, the next notification pushes again.
    settings(api, party, ["push_disabled"], push_disabled=True)
    settings(api, party, ["push_disabled"], push_disabled=False)
    reschedule(api, party, order)
    assert len(pushes_to(api, adapter, party)) == 2


def test_pushes_are_in_the_recipients_language(api, aqua, water, adapter, identity_server):
    arabic = sign_up(api, aqua)  # Aqua Hub's default locale is ar-SA
    vietnamese = sign_up(api, aqua)
    set_locale(api, vietnamese, "vi-VN")
    english = sign_up(api, aqua)
    set_locale(api, english, "en-US")
    expected = {
        arabic.account_id: lambda n: ("تم تأكيد الطلب %s" % n, "× 1، مجدول يوم"),
        vietnamese.account_id: lambda n: (f"Đơn hàng {n} đã được xác nhận", "× 1, hẹn lúc"),
        english.account_id: lambda n: (f"Order {n} confirmed", "× 1, scheduled on"),
    }
    for party in (arabic, vietnamese, english):
        register(api, party)
        order = place_order(api, party, water)
        title, body_part = expected[party.account_id](order.order_number)
        [note] = notifications_of(api, party)
        assert note.title == title and body_part in note.body, (note.title, note.body)
        [push] = pushes_to(api, adapter, party)
        assert (push.title, push.body) == (note.title, note.body)
        assert json.loads(push.payload)["aps"]["alert"] == {"title": note.title, "body": note.body}

    # MARA's lessor speaks Vietnamese: a booking request reaches their phone in Vietnamese, and the
    # adapter reads it in the same outbox as Aqua Hub's.
    mara = identity_server.marketplace_id(MARA)
    lessor = login_party(api, identity_server.demo_login(MARA, "provider"))
    register(api, lessor, FCM, app_id="vn.mara.app")
    lessee = sign_up(api, mara)
    today = datetime.date.today()
    month = today.month + 2
    start = datetime.date(today.year + (month - 1) // 12, (month - 1) % 12 + 1, 1)
    booking = api.rentals.RequestBooking(pb.RequestBookingRequest(
        marketplace_id=mara, request_id=request_id(), listing_id=MARA_DEMO_LISTING, months=6,
        start_date=pb.Date(year=start.year, month=start.month, day=start.day)), metadata=lessee.md(), timeout=TIMEOUT)
    [push] = [p for p in pushes_to(api, adapter, lessor) if p.subject.id == booking.id]
    assert push.marketplace_id == mara and push.title == "Yêu cầu thuê mới" and "6 tháng" in push.body
    assert json.loads(push.payload)["title"] == "Yêu cầu thuê mới"
    assert {aqua, mara} <= {p.marketplace_id for p in outbox(api, adapter)}


def test_no_marketplace_admin_reads_the_outbox_or_sees_a_token(api, aqua, water, adapter, identity_server):
    customer = sign_up(api, aqua)
    device = register(api, customer)
    order = place_order(api, customer, water)
    admin = login_party(api, identity_server.demo_login(AQUA, "admin"))
    operator = operator_party(api, identity_server)
    [push] = pushes_to(api, adapter, customer)
    for party in (admin, customer, operator):
        refused(lambda: api.notifications.ListPushOutbox(pb.ListPushOutboxRequest(statuses=[PENDING]), metadata=party.md(),
                                                         timeout=TIMEOUT), Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)
        refused(lambda: api.notifications.CompletePush(pb.CompletePushRequest(push_id=push.id, status=SENT), metadata=party.md(),
                                                       timeout=TIMEOUT), Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_NOT_ALLOWED)
    assert outbox(api, adapter, [PENDING]) and push.status == PENDING, "the refusals changed nothing"

    # Whatever the admin reads about the customer, the token is not in it.
    token = device.token.encode()
    answers = [
        api.notifications.ListDevices(pb.ListDevicesRequest(marketplace_id=aqua, page_size=100), metadata=admin.md(), timeout=TIMEOUT),
        api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=aqua, account_id=customer.account_id), metadata=admin.md(),
                                timeout=TIMEOUT),
        api.accounts.ListAccounts(pb.ListAccountsRequest(marketplace_id=aqua, page_size=100), metadata=admin.md(), timeout=TIMEOUT),
        api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=aqua, order_id=order.id), metadata=admin.md(), timeout=TIMEOUT),
        api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=aqua), metadata=admin.md(), timeout=TIMEOUT),
    ]
    for answer in answers:
        assert token not in answer.SerializeToString(), type(answer).__name__
    assert device.id not in {d.id for d in answers[0].devices}, "an admin lists only their own devices"

    # Nor may an admin make a push adapter: that takes the operator, and the role nothing else.
    refused(lambda: api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id="", request_id=request_id(), email=f"pa.{uuid.uuid4().hex[:8]}@example.com", initial_password="Str0ng!Passw0rd",
        given_name="Sneaky", roles=[Role.ROLE_PUSH_ADAPTER]), metadata=admin.md(), timeout=TIMEOUT),
        Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
    refused(lambda: api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=aqua, request_id=request_id(), email=f"pa.{uuid.uuid4().hex[:8]}@example.com", initial_password="Str0ng!Passw0rd",
        given_name="Sneaky", roles=[Role.ROLE_PUSH_ADAPTER]), metadata=admin.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="roles[0]")
    refused(lambda: api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id="", request_id=request_id(), email=f"op.{uuid.uuid4().hex[:8]}@example.com", initial_password="Str0ng!Passw0rd",
        given_name="Second operator", roles=[Role.ROLE_OPERATOR]), metadata=operator.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="roles")
    assert adapter.me().roles[0].role == Role.ROLE_PUSH_ADAPTER and not adapter.me().marketplace_id


def test_the_adapter_drains_and_completes_retry_safely(api, aqua, water, adapter):
    customer = sign_up(api, aqua)
    register(api, customer)
    order = place_order(api, customer, water)
    reschedule(api, customer, order, reason="بعد الظهر")
    first, second = pushes_to(api, adapter, customer, [PENDING])
    assert first.create_time.ToDatetime() <= second.create_time.ToDatetime(), "oldest first"

    sent = complete(api, adapter, first, SENT)
    assert (sent.status, sent.attempts, sent.last_error) == (SENT, 1, "") and sent.HasField("send_time")
    assert complete(api, adapter, first, SENT) == sent, "a retry answers the push as it is"
    refused(lambda: complete(api, adapter, first, FAILED, error="late"), Code.FAILED_PRECONDITION,
            reason=Reason.ERROR_REASON_PUSH_ALREADY_COMPLETED)
    failed = complete(api, adapter, second, FAILED, error="apns 500 InternalServerError")
    assert (failed.status, failed.attempts, failed.last_error) == (FAILED, 1, "apns 500 InternalServerError")
    assert complete(api, adapter, second, FAILED, error="apns 500 InternalServerError") == failed

    assert [p.id for p in pushes_to(api, adapter, customer, [PENDING])] == []
    assert [p.id for p in pushes_to(api, adapter, customer, [SENT])] == [first.id]
    assert [p.id for p in pushes_to(api, adapter, customer, [PENDING, FAILED])] == [second.id]
    # Pending first, then sent, then failed; each oldest first, across pages.
    everything = outbox(api, adapter, page_size=7)
    keys = [(p.status, p.create_time.ToDatetime()) for p in everything]
    assert keys == sorted(keys, key=lambda k: k[0]) and len({p.id for p in everything}) == len(everything)

    # Every wrong field at once; unknown pushes are NOT_FOUND; stale versions ABORTED.
    error = refused(lambda: api.notifications.CompletePush(pb.CompletePushRequest(
        push_id="nope", status=PENDING, error="x" * 1001, token_invalid=True), metadata=adapter.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT)
    assert {"push_id", "status", "error", "token_invalid"} <= {v.field for v in field_violations(error)}
    refused(lambda: api.notifications.ListPushOutbox(pb.ListPushOutboxRequest(statuses=[0]), metadata=adapter.md(), timeout=TIMEOUT),
            Code.INVALID_ARGUMENT, field="statuses[0]")
    refused(lambda: api.notifications.CompletePush(pb.CompletePushRequest(push_id=str(uuid.uuid4()), status=SENT),
                                                   metadata=adapter.md(), timeout=TIMEOUT), Code.NOT_FOUND)
    reschedule(api, customer, api.orders.GetOrder(pb.GetOrderRequest(marketplace_id=aqua, order_id=order.id),
                                                  metadata=customer.md(), timeout=TIMEOUT))
    [third] = pushes_to(api, adapter, customer, [PENDING])
    refused(lambda: api.notifications.CompletePush(pb.CompletePushRequest(push_id=third.id, status=SENT, expected_version=third.version + 1),
                                                   metadata=adapter.md(), timeout=TIMEOUT), Code.ABORTED)


def test_concurrent_completions_of_one_push_record_one_outcome(api, aqua, water, adapter):
    customer = sign_up(api, aqua)
    register(api, customer)
    place_order(api, customer, water)
    [push] = pushes_to(api, adapter, customer)
    outcomes = [SENT, FAILED] * 4
    barrier = threading.Barrier(len(outcomes))

    def report(status):
        barrier.wait()
        try:
            return complete(api, adapter, push, status, error="" if status == SENT else "timeout").status
        except grpc.RpcError as error:
            assert error.code() == Code.FAILED_PRECONDITION, error
            return None

    threads_out = []
    threads = [threading.Thread(target=lambda s=s: threads_out.append(report(s))) for s in outcomes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    [final] = pushes_to(api, adapter, customer)
    assert final.attempts == 1 and final.status in (SENT, FAILED)
    assert sorted(s for s in threads_out if s is not None) == [final.status] * 4, "every report of the winning outcome gets it"


def test_an_invalid_token_unregisters_its_device(api, aqua, water, adapter):
    customer = sign_up(api, aqua)
    stale, fresh = register(api, customer, APNS), register(api, customer, FCM)
    order = place_order(api, customer, water)
    order = reschedule(api, customer, order)
    pending = pushes_to(api, adapter, customer, [PENDING])
    assert len(pending) == 4
    rejected = next(p for p in pending if p.device_id == stale.id)
    done = complete(api, adapter, rejected, FAILED, error="410 Unregistered", token_invalid=True)
    assert (done.status, done.last_error) == (FAILED, "410 Unregistered")
    devices = api.notifications.ListDevices(pb.ListDevicesRequest(marketplace_id=aqua), metadata=customer.md(), timeout=TIMEOUT).devices
    assert [d.id for d in devices] == [fresh.id]
    # The device's other push waiting is withdrawn; the other device's stay.
    by_device = {}
    for push in pushes_to(api, adapter, customer):
        by_device.setdefault(push.device_id, []).append((push.status, push.last_error))
    assert sorted(by_device[stale.id]) == sorted([(FAILED, "410 Unregistered"), (FAILED, "device unregistered")])
    assert by_device[fresh.id] == [(PENDING, ""), (PENDING, "")]
    # A retry of the report is answered as it was; the next notification goes to the fresh device only.
    assert complete(api, adapter, rejected, FAILED, error="410 Unregistered", token_invalid=True).version == done.version
    reschedule(api, customer, order)
    assert sorted(p.device_id for p in pushes_to(api, adapter, customer, [PENDING])) == [fresh.id] * 3


def graphemes(text):
    """Characters as a reader counts them: combining marks belong to the letter before them."""
    return sum(1 for ch in text if unicodedata.category(ch) != "Mn")


def long_text(unit, limit=1000):
    text = ""
    while graphemes(text + unit) <= limit:
        text += unit
    return text


# A reason may hold 1000 characters. Fully vowelled Arabic (letters with shadda and a vowel), and
# Vietnamese written in decomposed form (its letters with their tone and vowel marks as combining
# marks), take several UTF-8 bytes per character, so 1000 of them overflow a push.
ARABIC = long_text("سَّيَّصِّلُّ الْفَنِّيُّ غَدًّا ")
VIETNAMESE = unicodedata.normalize("NFD", "Hệ thống ghi nhận: ") + long_text(unicodedata.normalize("NFD", "ệộặữựỡậẫ "), 980)


@pytest.mark.parametrize("locale,reason", [("ar-SA", ARABIC), ("vi-VN", VIETNAMESE)], ids=["arabic", "vietnamese"])
def test_a_long_body_is_cut_to_fit_the_push(api, aqua, water, adapter, locale, reason):
    customer = sign_up(api, aqua)
    set_locale(api, customer, locale)
    register(api, customer, APNS)
    register(api, customer, FCM)
    order = place_order(api, customer, water)
    reschedule(api, customer, order, reason=reason)
    [note] = [n for n in notifications_of(api, customer) if reason in n.body]
    assert len(note.body.encode()) > FCM_LIMIT - 100, "the stored notification keeps the whole text"
    pushes = [p for p in pushes_to(api, adapter, customer) if p.notification_id == note.id]
    assert sorted(p.platform for p in pushes) == [APNS, FCM]
    for push in pushes:
        payload = push.payload.encode()
        assert len(payload) <= (APNS_LIMIT if push.platform == APNS else FCM_LIMIT)
        parsed = json.loads(payload)
        body = parsed["aps"]["alert"]["body"] if push.platform == APNS else parsed["body"]
        assert body == push.body and body.endswith("…")
        kept = body[:-1]
        assert note.body.startswith(kept) and len(kept) > len(note.body) // 2
        # Cut between characters: never inside a UTF-8 sequence, never before a combining mark.
        assert unicodedata.category(note.body[len(kept)]) != "Mn"


def test_updates_of_one_order_share_a_collapse_id(api, aqua, water, adapter):
    customer = sign_up(api, aqua)
    register(api, customer)
    order = place_order(api, customer, water)
    order = reschedule(api, customer, order)
    reschedule(api, customer, order)
    other = place_order(api, customer, water)
    by_order = {}
    for push in pushes_to(api, adapter, customer):
        by_order.setdefault(push.subject.id, set()).add(push.collapse_id)
        assert json.loads(push.payload)["aps"]["thread-id"] == push.collapse_id
        assert len(push.collapse_id.encode()) <= 64
    assert by_order[order.id] == {f"order-{order.id}"} and by_order[other.id] == {f"order-{other.id}"}


def test_a_drivers_offer_tells_how_long_it_has(identity_channel, identity_server, adapter):
    """The offer of a delivery to a driver lapses: its notification, and its push, carry when."""
    api = Api(identity_channel)
    for service in ("Carts", "Orders", "Notifications", "Payments"):
        setattr(api, service.lower(), Stub(identity_channel, f"souk.v1.{service}"))
    market = food_market(api, identity_server)
    order, kitchen, _, customer = preparing_order(api, market)
    driver = approved_driver(api, market, "Karim", point(north_meters=-500))
    register(api, driver, FCM, app_id="com.dineswift.driver")
    offered = offer(api, market, order, kitchen, driver)
    assert offered.HasField("offer_expire_time")
    [note] = [n for n in notifications_of(api, driver) if n.subject.id == offered.id]
    assert note.expire_time == offered.offer_expire_time and note.title == "New delivery offer"
    [push] = [p for p in pushes_to(api, adapter, driver) if p.subject.id == offered.id]
    assert push.expire_time == offered.offer_expire_time
    assert json.loads(push.payload)["expire_unix"] == str(offered.offer_expire_time.seconds)
    # What does not lapse carries no expire_time.
    assert all(not n.HasField("expire_time") for n in notifications_of(api, customer) + notifications_of(api, kitchen))


def test_the_operator_blocks_and_unblocks_a_push_adapter(api, identity_server):
    """A leaked adapter credential is stopped at once: the operator blocks the platform account."""
    operator = operator_party(api, identity_server)
    spare = push_adapter_party(api, operator)
    api.notifications.ListPushOutbox(pb.ListPushOutboxRequest(page_size=1), metadata=spare.md(), timeout=TIMEOUT)
    metadata = spare.md()
    blocked = api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id="", account_id=spare.account_id, reason="Key leaked"),
                                        metadata=operator.md(), timeout=TIMEOUT)
    assert blocked.state == enum("souk.v1.AccountState").ACCOUNT_STATE_BLOCKED
    refused(lambda: api.notifications.ListPushOutbox(pb.ListPushOutboxRequest(page_size=1), metadata=metadata, timeout=TIMEOUT),
            Code.UNAUTHENTICATED)
    api.accounts.UnblockAccount(pb.UnblockAccountRequest(marketplace_id="", account_id=spare.account_id), metadata=operator.md(),
                                timeout=TIMEOUT)
    again = type(spare).login(api, "", spare.email, spare.password)
    api.notifications.ListPushOutbox(pb.ListPushOutboxRequest(page_size=1), metadata=again.md(), timeout=TIMEOUT)
    # A marketplace admin cannot reach a platform account.
    admin = login_party(api, identity_server.demo_login(AQUA, "admin"))
    refused(lambda: api.accounts.BlockAccount(pb.BlockAccountRequest(marketplace_id=admin.marketplace_id, account_id=spare.account_id,
                                                                     reason="x"), metadata=admin.md(), timeout=TIMEOUT), Code.NOT_FOUND)


def test_a_dashers_offer_tells_how_long_it_has(identity_channel, identity_server, adapter):
    """A laundry job offered to the Dasher who asked for work lapses too: the offer reaches the
    Dasher's stream and phone with its expire_time."""
    api = Api(identity_channel)
    api.laundry = Stub(identity_channel, "souk.v1.Laundry")
    api.notifications = Stub(identity_channel, "souk.v1.Notifications")
    operator = operator_party(api, identity_server)
    fresh = create_marketplace(api, operator, identity_server.marketplace_id("Drip 'n Dash"))
    dorm = Dorm(api, {"id": fresh.id, "operator": operator})
    customer, dasher = dorm.student("ana"), dorm.student("ben", dasher=True)
    register(api, dasher, APNS, app_id="edu.rutgers.dripndash")
    job = submit(api, customer)
    offered = work(api, dasher)
    assert offered.id == job.id and offered.HasField("offer_expire_time")
    [note] = [n for n in notifications_of(api, dasher) if n.subject.id == job.id]
    assert (note.title, note.kind, note.expire_time) == ("Laundry job offered", Kind.NOTIFICATION_KIND_JOB, offered.offer_expire_time)
    [push] = [p for p in pushes_to(api, adapter, dasher) if p.subject.id == job.id]
    assert push.expire_time == offered.offer_expire_time
    assert json.loads(push.payload)["expire_unix"] == offered.offer_expire_time.seconds
    # Asking again while the offer is live answers the same offer, and tells nothing new.
    assert work(api, dasher).id == job.id
    assert len([n for n in notifications_of(api, dasher) if n.subject.id == job.id]) == 1
