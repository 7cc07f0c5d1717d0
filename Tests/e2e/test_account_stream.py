"""One live stream per account (Notifications.WatchAccount) through grpcio, and slow readers
through a raw HTTP/2 client (rawh2) that never opens its flow-control window.

- Everything addressed to the account comes in order, each event once; a watch resumed after a
  sequence gets exactly the later events, the same ones.
- A resume older than what the server keeps answers OUT_OF_RANGE (EVENTS_EXPIRED) with a message
  telling the client to reload.
- A reader that does not read is ended with RESOURCE_EXHAUSTED (READER_TOO_SLOW) and the last
  sequence it was delivered (for WatchAccount and a lifecycle Watch RPC, WatchJob), while the
  other watchers of the same streams get every event; resuming after that sequence loses nothing.
- 2,000 concurrent watchers of one order each receive its change exactly once.
- A DineSwift driver receives a delivery offer on WatchAccount and accepts it before it lapses.

Streams are Drip 'n Dash students' (a job's stages notify its customer), so each test makes its
own events; tokens live 10 minutes, so no stream ends for an expired token meanwhile."""
import base64
import queue
import tempfile
import threading
import time

import grpc
import h2.settings
import pytest
from google.rpc import error_details_pb2, status_pb2

from conftest import IdentityServer, stop_cleanly
from rawh2 import Connection, grpc_frame, grpc_headers, grpc_messages
from souk_identity import TIMEOUT, Api, Party, Reason, create_marketplace, operator_party, pb, refused
from souk_protos import Stub, enum, message, status_detail
from test_laundry_design import poll
from test_laundry_jobs import STAGES, Dorm, advance, call, submit, work

Code = grpc.StatusCode
Stage = enum("souk.v1.JobStage")
DRIP = "Drip 'n Dash"
# The slow-reader server's bound on what a Watch stream queues for a client that does not read,
# and the raw client's stream window (small, so a few events fill it).
QUEUE_BYTES, RAW_WINDOW = 768, 1024


def laundry_api(channel):
    api = Api(channel)
    api.laundry = Stub(channel, "souk.v1.Laundry")
    api.notifications = Stub(channel, "souk.v1.Notifications")
    return api


@pytest.fixture(scope="module")
def server():
    """Tokens live 10 minutes; Watch streams queue at most QUEUE_BYTES for a reader that does not read."""
    s = IdentityServer(600, "--max-stream-queue-bytes", str(QUEUE_BYTES))
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(server):
    with server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        yield laundry_api(channel)


def drip(api, server):
    operator = operator_party(api, server)
    marketplace = create_marketplace(api, operator, server.marketplace_id(DRIP))
    return {"id": marketplace.id, "operator": operator, "settings": marketplace.settings.laundry}


@pytest.fixture(scope="module")
def market(api, server):
    return drip(api, server)


def accepted_job(api, dorm):
    """A customer, a Dasher, and the customer's job the Dasher accepted (which told the customer)."""
    casey, dana = dorm.student("casey"), dorm.student("dana", dasher=True)
    job = submit(api, casey)
    assert work(api, dana).id == job.id
    return casey, dana, call(api, "AcceptJob", dana, job_id=job.id)


def to_the_end(api, job, dana):
    """Takes an accepted job through every later stage (each tells its customer)."""
    for stage in STAGES:
        job = advance(api, job, dana, stage)
    job = advance(api, job, dana, Stage.JOB_STAGE_FINISHED_DRYING, actual_loads=2,
                  machine_cost_total=pb.Money(amount_minor=700, currency_code="USD"))
    job = advance(api, job, dana, Stage.JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF)
    return advance(api, job, dana, Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY)


def inbox(api, party):
    return api.notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=party.marketplace_id, page_size=100),
                                               metadata=party.md(), timeout=TIMEOUT)


class Watcher:
    """A grpcio stream read on a thread of its own into a queue (None once it ends)."""

    def __init__(self, stream):
        self.stream = stream
        self.events: queue.Queue = queue.Queue()
        self.error = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for event in self.stream:
                self.events.put(event)
        except grpc.RpcError as error:
            self.error = error
        self.events.put(None)

    def take(self, count):
        got = []
        for _ in range(count):
            event = self.events.get(timeout=TIMEOUT * 3)
            assert event is not None, f"the stream ended after {got}: {self.error}"
            got.append(event)
        return got

    def end(self):
        """Waits for the stream's end; returns its error."""
        while self.events.get(timeout=TIMEOUT * 3) is not None:
            pass
        return self.error


def watch_account(api, party, after):
    return Watcher(api.notifications.WatchAccount(
        pb.WatchAccountRequest(marketplace_id=party.marketplace_id, resume_after_sequence=after), metadata=party.md(), timeout=600))


def test_the_account_stream_comes_in_order_and_resumes_after_the_last_sequence_seen(api, market):
    casey, dana, job = accepted_job(api, Dorm(api, market))
    told = inbox(api, casey)
    start = told.last_sequence
    assert start >= 1 and told.notifications[0].subject.id == job.id
    live = watch_account(api, casey, start)
    job = to_the_end(api, job, dana)
    events = live.take(8)
    assert [e.sequence for e in events] == list(range(start + 1, start + 9))
    assert [e.notification.title.split(":")[0] for e in events] == [f"Stage {n}" for n in range(2, 10)]
    assert all(e.notification.sequence == e.sequence and e.notification.subject.id == job.id for e in events)
    # A read mark is on the stream too, after them.
    api.notifications.MarkNotificationsRead(pb.MarkNotificationsReadRequest(
        marketplace_id=casey.marketplace_id, notification_ids=[events[0].notification.id]), metadata=casey.md(), timeout=TIMEOUT)
    (read,) = live.take(1)
    assert read.sequence == start + 9 and list(read.read.notification_ids) == [events[0].notification.id]
    # Resumed after any sequence: exactly the later events, the same ones.
    for after in (start, start + 4, start + 8):
        resumed = watch_account(api, casey, after)
        later = resumed.take(start + 9 - after)
        assert later == (events + [read])[after - start:]
        resumed.stream.cancel()
    # Nothing of it reaches the Dasher's stream: the Dasher's own stream holds only the Dasher's.
    dasher_told = inbox(api, dana)
    assert all(n.account_id == dana.account_id for n in dasher_told.notifications)
    live.stream.cancel()


def test_a_resume_older_than_what_is_kept_answers_events_expired_telling_the_client_to_reload():
    data_dir = tempfile.mkdtemp(prefix="souk-e2e-expired-")
    first = IdentityServer(600, "--event-retention-seconds", "1", data_dir=data_dir)
    try:
        with first.channel() as channel:
            api = laundry_api(channel)
            market = drip(api, first)
            casey, dana, job = accepted_job(api, Dorm(api, market))
            to_the_end(api, job, dana)
            last = inbox(api, casey).last_sequence
            assert last >= 9
    finally:
        stop_cleanly(first)
    time.sleep(1.5)  # the events are now older than the retention of 1 s
    # The store's housekeeping runs at start and removes them.
    second = IdentityServer(600, "--event-retention-seconds", "1", data_dir=data_dir)
    try:
        with second.channel() as channel:
            api = laundry_api(channel)
            casey = Party.login(api, casey.marketplace_id, casey.email, casey.password)

            def resume():
                return list(api.notifications.WatchAccount(pb.WatchAccountRequest(
                    marketplace_id=casey.marketplace_id, resume_after_sequence=1), metadata=casey.md(), timeout=TIMEOUT))

            def expired():
                try:
                    resume()
                except grpc.RpcError as error:
                    return error.code() == Code.OUT_OF_RANGE
                return False

            poll("the events past retention removed", expired)
            error = refused(resume, Code.OUT_OF_RANGE, reason=Reason.ERROR_REASON_EVENTS_EXPIRED)
            assert "no longer kept" in error.details() and "reload" in error.details()
            info = status_detail(error, error_details_pb2.ErrorInfo)
            assert int(info.metadata["oldest_sequence"]) == last + 1
            localized = status_detail(error, error_details_pb2.LocalizedMessage)
            assert localized.locale == "en" and "Refresh" in localized.message
            # Watching from the list's last_sequence works: the stream goes on from there.
            assert inbox(api, casey).last_sequence == last
            live = watch_account(api, casey, last)
            api.notifications.MarkNotificationsRead(pb.MarkNotificationsReadRequest(marketplace_id=casey.marketplace_id, all=True),
                                                    metadata=casey.md(), timeout=TIMEOUT)
            (read,) = live.take(1)
            assert read.sequence == last + 1 and len(read.read.notification_ids) >= 9
            live.stream.cancel()
    finally:
        stop_cleanly(second)


# ======== Slow readers ========

class RawWatch:
    """Watch streams on one raw HTTP/2 connection whose client never opens a stream's window
    again (it reads frames, and never acknowledges their data)."""

    def __init__(self, server, window):
        self.connection = Connection(server.port)
        self.connection.h2.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: window})
        self.connection.sock.sendall(self.connection.h2.data_to_send())
        # Frames are read, their data never acknowledged: the windows stay shut.
        self.connection.h2.acknowledge_received_data = lambda *args, **kwargs: None

    def open(self, method, request, party):
        headers = grpc_headers(method, [("authorization", f"Bearer {party.session.access_token}")])
        return self.connection.send_request(headers, grpc_frame(request.SerializeToString()))

    def ended(self, stream_id, event_type):
        """The events the stream delivered, and its trailers' status (waits for its end)."""
        response = self.connection.wait(stream_id, timeout=TIMEOUT * 6)
        assert response.ended, "the slow stream did not end"
        events = [message(event_type).FromString(payload) for _, payload in grpc_messages(response.data)]
        status = status_pb2.Status.FromString(base64.b64decode(response.trailers["grpc-status-details-bin"] + "=="))
        return events, response, status


def error_info(status):
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    return None


def test_a_reader_that_does_not_read_is_ended_resumably_while_the_others_go_on(api, server, market):
    casey, dana, job = accepted_job(api, Dorm(api, market))
    start = inbox(api, casey).last_sequence
    # Two grpcio watchers that read, and the same two streams on a client that never reads.
    account = watch_account(api, casey, start)
    job_watch = Watcher(api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=casey.marketplace_id, job_id=job.id),
                                             metadata=casey.md(), timeout=600))
    (current,) = job_watch.take(1)
    raw = RawWatch(server, RAW_WINDOW)
    slow_account = raw.open("/souk.v1.Notifications/WatchAccount",
                            pb.WatchAccountRequest(marketplace_id=casey.marketplace_id, resume_after_sequence=start), casey)
    slow_job = raw.open("/souk.v1.Laundry/WatchJob",
                        pb.WatchJobRequest(marketplace_id=casey.marketplace_id, job_id=job.id, resume_after_sequence=current.sequence), casey)
    # The job's stages and a read mark for each notification: more than a window and a queue.
    to_the_end(api, job, dana)
    notes = [n.id for n in inbox(api, casey).notifications]
    for note in notes:
        api.notifications.MarkNotificationsRead(pb.MarkNotificationsReadRequest(marketplace_id=casey.marketplace_id,
                                                                                notification_ids=[note]),
                                                metadata=casey.md(), timeout=TIMEOUT)
    # The readers get every event, in order, whatever the slow client does.
    everything = account.take(8 + len(notes))
    assert [e.sequence for e in everything] == list(range(start + 1, start + 9 + len(notes)))
    changes = job_watch.take(8)
    assert changes[-1].job.stage == Stage.JOB_STAGE_DROPPED_OFF_LAUNDRY
    assert sum(len(e.SerializeToString()) + 5 for e in everything) > RAW_WINDOW + QUEUE_BYTES
    assert sum(len(e.SerializeToString()) + 5 for e in changes) > RAW_WINDOW + QUEUE_BYTES

    def job_key(e):
        # What a replayed job event shares with the live one (transitions available are computed as it is sent).
        return e.sequence, e.job.stage, e.job.version, e.previous_stage

    for stream_id, event_type, full, key, resume in (
            (slow_account, "souk.v1.AccountEvent", everything, lambda e: e,
             lambda after: watch_account(api, casey, after)),
            (slow_job, "souk.v1.JobEvent", changes, job_key,
             lambda after: Watcher(api.laundry.WatchJob(pb.WatchJobRequest(marketplace_id=casey.marketplace_id, job_id=job.id,
                                                                           resume_after_sequence=after),
                                                        metadata=casey.md(), timeout=600)))):
        delivered, response, status = raw.ended(stream_id, event_type)
        # Ended with a resumable status, after whole events only: a prefix of what the readers got.
        assert response.grpc_status == Code.RESOURCE_EXHAUSTED.value[0], response.trailers
        info = error_info(status)
        assert info.reason == "READER_TOO_SLOW" and info.domain == "souk.v1"
        assert 0 < len(delivered) < len(full) and [key(e) for e in delivered] == [key(e) for e in full[:len(delivered)]]
        last = int(info.metadata["last_sequence"])
        assert last == delivered[-1].sequence
        assert str(last) in response.grpc_message
        # Resumed after it: the rest, nothing lost or repeated.
        rest = [e for e in full if e.sequence > last]
        again = resume(last)
        assert [key(e) for e in again.take(len(rest))] == [key(e) for e in rest]
        again.stream.cancel()
    account.stream.cancel()
    job_watch.stream.cancel()
    raw.connection.close()


# ======== Fan-out: 2,000 watchers of one order ========

WATCHERS, CONNECTIONS = 2000, 20


@pytest.fixture(scope="module")
def crowd_server():
    """One account may hold the 2,000 streams, 100 per connection. The 2,000 starts arrive at once
    and this test counts deliveries, not refusals: no admission bound (test_overload covers it)."""
    s = IdentityServer(600, "--max-streams-per-account", str(WATCHERS + 10), "--max-streams-per-connection", "100",
                       "--max-concurrent-streams", "100", "--max-calls-in-progress", "0")
    yield s
    stop_cleanly(s)


def test_two_thousand_watchers_of_one_order_each_receive_each_change_exactly_once(crowd_server):
    import asyncio

    from souk_identity import login_party, sign_up
    from test_retail import SHOP, Shop, add, checkout_request, new_wine

    OrderStatus = enum("souk.v1.OrderStatus")
    with crowd_server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        api, shop = Api(channel), Shop(channel)
        mp = crowd_server.marketplace_id(SHOP)
        staff = login_party(api, crowd_server.demo_login(SHOP, "provider"))
        customer = sign_up(api, mp)
        wine = new_wine(shop, mp, staff, "Crowded Nebbiolo", 12990, 10)
        add(shop, mp, customer, wine.id, 1)
        order = shop.orders.Checkout(checkout_request(mp), metadata=customer.md(), timeout=TIMEOUT)
        request = pb.WatchOrderRequest(marketplace_id=mp, order_id=order.id)
        metadata = customer.md()

        async def crowd():
            channels = [grpc.aio.insecure_channel(crowd_server.address, options=[("grpc.use_local_subchannel_pool", 1)])
                        for _ in range(CONNECTIONS)]
            try:
                calls = [channels[i % CONNECTIONS].unary_stream(
                    "/souk.v1.Orders/WatchOrder", request_serializer=type(request).SerializeToString,
                    response_deserializer=message("souk.v1.OrderEvent").FromString)(request, metadata=metadata, timeout=600)
                    for i in range(WATCHERS)]
                # Every watcher is open: it got the order as it is.
                firsts = await asyncio.gather(*(call.read() for call in calls))
                assert {(e.sequence, e.order.status) for e in firsts} == {(firsts[0].sequence, OrderStatus.ORDER_STATUS_PENDING)}
                rest = [asyncio.ensure_future(read_all(call)) for call in calls]
                loop = asyncio.get_running_loop()
                # Three changes, one at a time, while all of them watch; the last is final and ends every watch.
                await loop.run_in_executor(None, lambda: changes(shop, mp, staff, customer, order))
                return firsts[0].sequence, await asyncio.gather(*rest)
            finally:
                for ch in channels:
                    await ch.close()

        async def read_all(call):
            events = []
            while (event := await call.read()) is not grpc.aio.EOF:
                events.append((event.sequence, event.previous_status, event.order.status))
            return events

        first, received = asyncio.run(crowd())
        expected = [(first + 1, OrderStatus.ORDER_STATUS_PENDING, OrderStatus.ORDER_STATUS_SHIPPED),
                    (first + 2, OrderStatus.ORDER_STATUS_SHIPPED, OrderStatus.ORDER_STATUS_DELIVERED),
                    (first + 3, OrderStatus.ORDER_STATUS_DELIVERED, OrderStatus.ORDER_STATUS_RECEIVED)]
        assert len(received) == WATCHERS
        wrong = [events for events in received if events != expected]
        assert not wrong, f"{len(wrong)} watchers got something else than each change once, e.g. {wrong[0]}"


def changes(shop, mp, staff, customer, order):
    shipped = shop.orders.ShipOrder(pb.ShipOrderRequest(marketplace_id=mp, order_id=order.id, shipping_carrier="Pos Laju",
                                                        tracking_number="EP777", expected_version=order.version),
                                    metadata=staff.md(), timeout=TIMEOUT)
    delivered = shop.orders.DeliverOrder(pb.DeliverOrderRequest(marketplace_id=mp, order_id=order.id, expected_version=shipped.version),
                                         metadata=staff.md(), timeout=TIMEOUT)
    shop.orders.ConfirmOrderReceived(pb.ConfirmOrderReceivedRequest(marketplace_id=mp, order_id=order.id,
                                                                    expected_version=delivered.version),
                                     metadata=customer.md(), timeout=TIMEOUT)


# ======== A driver hears of an offer live ========

def test_a_driver_receives_a_delivery_offer_on_the_account_stream_and_accepts_it_before_it_lapses(server):
    from test_dispatch_rules import food_market, preparing_order, offer
    from test_food_journey import approved_driver, point
    from souk_identity import seconds

    DeliveryStatus = enum("souk.v1.DeliveryStatus")
    with server.channel() as channel:
        api = Api(channel)
        for service in ("Carts", "Orders", "Notifications", "Payments", "Catalog", "Deliveries"):
            setattr(api, service.lower(), Stub(channel, f"souk.v1.{service}"))
        market = food_market(api, server)
        order, kitchen, _, _ = preparing_order(api, market)
        driver = approved_driver(api, market, "Karim", point(north_meters=-500))
        # The driver's app watches its account from now on; the headers say the stream is following.
        live = watch_account(api, driver, 0)
        live.stream.initial_metadata()
        offered = offer(api, market, order, kitchen)
        assert offered.courier_account_id == driver.account_id and offered.status == DeliveryStatus.DELIVERY_STATUS_OFFERED
        (event,) = live.take(1)
        note = event.notification
        assert note.title == "New delivery offer" and note.subject.id == offered.id and note.account_id == driver.account_id
        assert order.order_number in note.body
        # What the stream told is enough to answer: the offer is still open, until its expiry.
        shown = api.deliveries.GetDelivery(pb.GetDeliveryRequest(marketplace_id=market["id"], delivery_id=note.subject.id),
                                           metadata=driver.md(), timeout=TIMEOUT)
        assert shown.status == DeliveryStatus.DELIVERY_STATUS_OFFERED
        assert seconds(shown.offer_expire_time) > seconds(event.event_time)
        accepted = api.deliveries.AcceptDelivery(pb.AcceptDeliveryRequest(marketplace_id=market["id"], delivery_id=note.subject.id),
                                                 metadata=driver.md(), timeout=TIMEOUT)
        assert accepted.status == DeliveryStatus.DELIVERY_STATUS_IN_PROGRESS and accepted.courier_account_id == driver.account_id
        live.stream.cancel()
