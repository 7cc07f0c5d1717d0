"""Live updates of an order through grpcio: WatchOrder sends the current order, then each change
as it commits (shipping, delivery, receipt) and ends after the final status; a watch resumed
after a sequence gets only what came later; WatchAccount streams the same changes as
notifications, and the read marks."""
import queue
import threading

import grpc

from souk_identity import TIMEOUT, Api, login_party, pb, refused, sign_up
from souk_protos import Stub, enum
from test_retail import SHOP, Shop, add, checkout_request, new_wine

Code = grpc.StatusCode
OrderStatus = enum("souk.v1.OrderStatus")


def collect(stream, into: queue.Queue):
    """Puts each message of a server stream on `into`, then None when it ends."""
    try:
        for message in stream:
            into.put(message)
    except grpc.RpcError as error:
        into.put(error)
    into.put(None)


def next_of(q: queue.Queue):
    item = q.get(timeout=TIMEOUT)
    assert not isinstance(item, grpc.RpcError), item
    return item


def test_watching_an_order_from_checkout_to_receipt(identity_channel, identity_server):
    api = Api(identity_channel)
    shop = Shop(identity_channel)
    orders, notifications = shop.orders, Stub(identity_channel, "souk.v1.Notifications")
    mp = identity_server.marketplace_id(SHOP)
    staff = login_party(api, identity_server.demo_login(SHOP, "provider"))
    customer = sign_up(api, mp)
    stranger = sign_up(api, mp)
    wine = new_wine(shop, mp, staff, "Watched Nebbiolo", 12990, 10)
    add(shop, mp, customer, wine.id, 2)
    order = orders.Checkout(checkout_request(mp), metadata=customer.md(), timeout=TIMEOUT)

    refused(lambda: list(orders.WatchOrder(pb.WatchOrderRequest(marketplace_id=mp, order_id=order.id),
                                           metadata=stranger.md(), timeout=TIMEOUT)), Code.PERMISSION_DENIED)

    inbox = notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=mp), metadata=customer.md(), timeout=TIMEOUT)
    assert inbox.unread_count == 1 and inbox.notifications[0].subject.id == order.id
    note_events: queue.Queue = queue.Queue()
    note_stream = notifications.WatchAccount(pb.WatchAccountRequest(
        marketplace_id=mp, resume_after_sequence=inbox.last_sequence), metadata=customer.md(), timeout=60)
    threading.Thread(target=collect, args=(note_stream, note_events), daemon=True).start()

    events: queue.Queue = queue.Queue()
    stream = orders.WatchOrder(pb.WatchOrderRequest(marketplace_id=mp, order_id=order.id), metadata=customer.md(), timeout=60)
    threading.Thread(target=collect, args=(stream, events), daemon=True).start()
    first = next_of(events)
    assert first.order.id == order.id and first.order.status == OrderStatus.ORDER_STATUS_PENDING and first.sequence >= 1

    shipped = orders.ShipOrder(pb.ShipOrderRequest(marketplace_id=mp, order_id=order.id, shipping_carrier="Pos Laju",
                                                   tracking_number="EP123", expected_version=order.version),
                               metadata=staff.md(), timeout=TIMEOUT)
    event = next_of(events)
    assert event.sequence == first.sequence + 1 and event.previous_status == OrderStatus.ORDER_STATUS_PENDING
    assert event.order.status == OrderStatus.ORDER_STATUS_SHIPPED and event.actor_account_id == staff.account_id

    delivered = orders.DeliverOrder(pb.DeliverOrderRequest(marketplace_id=mp, order_id=order.id, expected_version=shipped.version),
                                    metadata=staff.md(), timeout=TIMEOUT)
    assert next_of(events).previous_status == OrderStatus.ORDER_STATUS_SHIPPED
    orders.ConfirmOrderReceived(pb.ConfirmOrderReceivedRequest(marketplace_id=mp, order_id=order.id, expected_version=delivered.version),
                                metadata=customer.md(), timeout=TIMEOUT)
    last = next_of(events)
    assert last.previous_status == OrderStatus.ORDER_STATUS_DELIVERED and last.order.status == OrderStatus.ORDER_STATUS_RECEIVED
    assert events.get(timeout=TIMEOUT) is None, "the watch ends after the final status"

    # Resuming after the shipping event replays only what came after it, then ends.
    resumed = list(orders.WatchOrder(pb.WatchOrderRequest(marketplace_id=mp, order_id=order.id, resume_after_sequence=event.sequence),
                                     metadata=customer.md(), timeout=TIMEOUT))
    assert [e.previous_status for e in resumed] == [OrderStatus.ORDER_STATUS_SHIPPED, OrderStatus.ORDER_STATUS_DELIVERED]
    # Resuming a final order after its last event has nothing to send: it ends at once.
    assert list(orders.WatchOrder(pb.WatchOrderRequest(marketplace_id=mp, order_id=order.id, resume_after_sequence=last.sequence),
                                  metadata=customer.md(), timeout=TIMEOUT)) == []

    # The customer was told of shipping, delivery and receipt as they happened.
    told = [next_of(note_events) for _ in range(3)]
    assert all(e.notification.subject.id == order.id for e in told)
    assert [e.sequence for e in told] == [inbox.last_sequence + 1, inbox.last_sequence + 2, inbox.last_sequence + 3]
    marked = notifications.MarkNotificationsRead(pb.MarkNotificationsReadRequest(marketplace_id=mp, all=True),
                                                 metadata=customer.md(), timeout=TIMEOUT)
    assert marked.unread_count == 0 and marked.marked_count == 4
    read = next_of(note_events)
    assert read.WhichOneof("event") == "read" and len(read.read.notification_ids) == marked.marked_count
    note_stream.cancel()
