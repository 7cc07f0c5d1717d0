"""Aqua Hub end to end through grpcio: browsing water services in Arabic and English, free windows,
orders paid in cash or with Apple Pay, approval, rescheduling, a staff delivery that completes
the order and collects the cash, feedback and its answer, a rejection with its refund, and a full
window refused."""
import datetime

import grpc
import pytest

from souk_identity import TIMEOUT, Api, Reason, login_party, pb, refused, request_id, sign_up
from souk_protos import Stub, enum

Code = grpc.StatusCode
OrderStatus = enum("souk.v1.OrderStatus")
PaymentStatus = enum("souk.v1.PaymentStatus")
DeliveryStatus = enum("souk.v1.DeliveryStatus")
ServiceType = enum("souk.v1.ServiceType")
RIYADH = datetime.timezone(datetime.timedelta(hours=3))
MARKETPLACE = "Aqua Hub"


@pytest.fixture(scope="module")
def api(identity_channel):
    api = Api(identity_channel)
    api.orders = Stub(identity_channel, "souk.v1.Orders")
    api.feedback = Stub(identity_channel, "souk.v1.Feedback")
    api.payments = Stub(identity_channel, "souk.v1.Payments")
    return api


@pytest.fixture(scope="module")
def aqua(api, identity_server):
    marketplace_id = identity_server.marketplace_id(MARKETPLACE)
    return {
        "id": marketplace_id,
        "admin": login_party(api, identity_server.demo_login(MARKETPLACE, "admin")),
        "courier": login_party(api, identity_server.demo_login(MARKETPLACE, "courier")),
        "customer": sign_up(api, marketplace_id, given_name="Huda"),
    }


def services(api, marketplace_id, language):
    response = api.catalog.ListServices(pb.ListServicesRequest(marketplace_id=marketplace_id),
                                        metadata=(("accept-language", language),), timeout=TIMEOUT)
    return {s.id: s for s in response.services}


def tomorrow(days=1):
    day = datetime.datetime.now(RIYADH).date() + datetime.timedelta(days=days)
    return pb.Date(year=day.year, month=day.month, day=day.day)


def free_windows(api, party, days=1):
    """The service windows `days` ahead. Tomorrow's belong to the Aqua Hub journey below, which
    counts their bookings; other tests of the shared demo marketplace book later days."""
    return api.orders.ListServiceWindows(pb.ListServiceWindowsRequest(marketplace_id=party.marketplace_id, date=tomorrow(days)),
                                         metadata=party.md(), timeout=TIMEOUT).windows


def order_request(marketplace_id, service, window, *, option=None, quantity=1, payment=None):
    return pb.PlaceServiceOrderRequest(
        marketplace_id=marketplace_id, request_id=request_id(), service_id=service.id, option_id=option.id if option else "",
        quantity=quantity, scheduled_window=window,
        address=pb.AddressChoice(address=pb.Address(line1="King Abdulaziz Road 7", city="Arar", country_code="SA", phone="+966512345699")),
        payment=payment or pb.PaymentMethodInput(cash=pb.CashOnDelivery()))


def test_the_aqua_hub_journey(api, aqua):
    marketplace_id, admin, courier, customer = aqua["id"], aqua["admin"], aqua["courier"], aqua["customer"]

    arabic = services(api, marketplace_id, "ar")
    english = services(api, marketplace_id, "en")
    assert {s.name for s in english.values()} >= {"Safi Water", "Tank Cleaning", "HydroFix"}
    assert {s.localized.name for s in arabic.values()} >= {"مياه صافي", "تنظيف الخزانات", "خدمات السباكة"}
    assert all(s.localized.language_code == "ar" and s.name == english[s.id].name for s in arabic.values())
    water = next(s for s in english.values() if s.name == "Safi Water")
    assert [o.localized.name for o in arabic[water.id].options] == ["١ عبوة", "٦ عبوات", "كرتون (١٢ عبوة)"]
    assert [o.price.amount_minor for o in water.options] == [300, 1500, 2500]
    cleaning = next(s for s in english.values() if s.name == "Tank Cleaning")
    assert cleaning.requires_approval and cleaning.base_price.amount_minor == 5000

    windows = free_windows(api, customer)
    # 08:00 in Arar (Asia/Riyadh, UTC+3) is 05:00 UTC.
    assert windows[0].window.start_time.seconds % 86400 == 5 * 3600
    assert len(windows) == 5 and all(w.available and w.capacity == 3 for w in windows)

    # A 12-pack for tomorrow, cash on delivery: approved at once.
    twelve = water.options[2]
    bottles = api.orders.PlaceServiceOrder(order_request(marketplace_id, water, windows[0].window, option=twelve, quantity=2),
                                           metadata=customer.md(), timeout=TIMEOUT)
    assert bottles.status == OrderStatus.ORDER_STATUS_APPROVED
    assert bottles.price.total.amount_minor == 5000 and bottles.payment_status == PaymentStatus.PAYMENT_STATUS_PENDING
    assert free_windows(api, customer)[0].booked == 1

    # Tank cleaning waits for the admin, who approves it; the customer moves it.
    job = api.orders.PlaceServiceOrder(order_request(marketplace_id, cleaning, windows[1].window),
                                       metadata=customer.md(), timeout=TIMEOUT)
    assert job.status == OrderStatus.ORDER_STATUS_PENDING
    job = api.orders.ApproveOrder(pb.ApproveOrderRequest(marketplace_id=marketplace_id, order_id=job.id),
                                  metadata=admin.md(), timeout=TIMEOUT)
    assert job.status == OrderStatus.ORDER_STATUS_APPROVED
    job = api.orders.RescheduleOrder(pb.RescheduleOrderRequest(marketplace_id=marketplace_id, order_id=job.id,
                                                               scheduled_window=windows[2].window, reason="At work until noon",
                                                               expected_version=job.version),
                                     metadata=customer.md(), timeout=TIMEOUT)
    assert job.scheduled_window == windows[2].window
    booked = [w.booked for w in free_windows(api, customer)]
    assert booked[1] == 0 and booked[2] == 1

    # The admin assigns the demo courier, who starts, is delayed, resumes and completes.
    delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(marketplace_id=marketplace_id, request_id=request_id(),
                                                                      order_id=job.id, courier_account_id=courier.account_id),
                                             metadata=admin.md(), timeout=TIMEOUT)
    assert delivery.status == DeliveryStatus.DELIVERY_STATUS_ASSIGNED
    error = refused(lambda: api.deliveries.AssignDelivery(
        pb.AssignDeliveryRequest(marketplace_id=marketplace_id, request_id=request_id(), order_id=job.id,
                                 courier_account_id=courier.account_id), metadata=admin.md(), timeout=TIMEOUT),
        Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_DELIVERY_OPEN)
    assert "already has an open delivery" in error.details()
    error = refused(lambda: api.orders.RescheduleOrder(
        pb.RescheduleOrderRequest(marketplace_id=marketplace_id, order_id=job.id, scheduled_window=pb.TimeWindow(
            start_time=windows[2].window.start_time, end_time=windows[3].window.end_time)),
        metadata=customer.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="scheduled_window")
    assert "not one of the marketplace's time windows" in error.details()
    move = lambda rpc, request_type, **fields: getattr(api.deliveries, rpc)(
        getattr(pb, request_type)(marketplace_id=marketplace_id, delivery_id=delivery.id, **fields), metadata=courier.md(), timeout=TIMEOUT)
    started = move("StartDelivery", "StartDeliveryRequest")
    assert started.status == DeliveryStatus.DELIVERY_STATUS_IN_PROGRESS and started.HasField("dispatch_time")
    delayed = move("DelayDelivery", "DelayDeliveryRequest", note="Traffic on the ring road")
    assert delayed.status == DeliveryStatus.DELIVERY_STATUS_DELAYED and delayed.note == "Traffic on the ring road"
    resumed = move("StartDelivery", "StartDeliveryRequest")
    assert resumed.dispatch_time == started.dispatch_time
    done = move("CompleteDelivery", "CompleteDeliveryRequest")
    assert done.status == DeliveryStatus.DELIVERY_STATUS_COMPLETED and done.HasField("completion_time")
    payment = api.payments.ConfirmCashPayment(pb.ConfirmCashPaymentRequest(marketplace_id=marketplace_id, payment_id=job.payment_id),
                                              metadata=admin.md(), timeout=TIMEOUT)
    assert payment.status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL and payment.collected_by_account_id == courier.account_id

    # Five stars, answered by the admin.
    error = refused(lambda: api.feedback.CreateFeedback(
        pb.CreateFeedbackRequest(marketplace_id=marketplace_id, request_id=request_id(), order_id=bottles.id, stars=5),
        metadata=customer.md(), timeout=TIMEOUT), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_NOT_RATABLE)
    assert "only completed orders are rated" in error.details()
    entry = api.feedback.CreateFeedback(pb.CreateFeedbackRequest(marketplace_id=marketplace_id, request_id=request_id(),
                                                                 order_id=job.id, stars=5, comment="Spotless tank"),
                                        metadata=customer.md(), timeout=TIMEOUT)
    assert entry.rated_account_id == courier.account_id
    error = refused(lambda: api.feedback.CreateFeedback(
        pb.CreateFeedbackRequest(marketplace_id=marketplace_id, request_id=request_id(), order_id=job.id, stars=4),
        metadata=customer.md(), timeout=TIMEOUT), Code.ALREADY_EXISTS, reason=Reason.ERROR_REASON_ALREADY_RATED)
    assert "already rated" in error.details()
    answered = api.feedback.AnswerFeedback(pb.AnswerFeedbackRequest(marketplace_id=marketplace_id, feedback_id=entry.id,
                                                                    text="شكراً لك! Thank you!"),
                                           metadata=admin.md(), timeout=TIMEOUT)
    assert answered.answer.text.startswith("شكراً")
    summary = api.feedback.GetRatingSummary(pb.GetRatingSummaryRequest(marketplace_id=marketplace_id, account_id=courier.account_id),
                                            timeout=TIMEOUT)
    assert summary.count >= 1

    # A cleaning request paid with Apple Pay, rejected: cancelled with its reason and refunded.
    rejected = api.orders.PlaceServiceOrder(
        order_request(marketplace_id, cleaning, windows[3].window,
                      payment=pb.PaymentMethodInput(apple_pay_token="applepay_e2e_0123456789")),
        metadata=customer.md(), timeout=TIMEOUT)
    assert rejected.payment_status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL
    refused(lambda: api.orders.RejectOrder(pb.RejectOrderRequest(marketplace_id=marketplace_id, order_id=rejected.id),
                                           metadata=admin.md(), timeout=TIMEOUT), Code.INVALID_ARGUMENT, field="reason")
    rejected = api.orders.RejectOrder(pb.RejectOrderRequest(marketplace_id=marketplace_id, order_id=rejected.id,
                                                            reason="The tank is not reachable by our truck"),
                                      metadata=admin.md(), timeout=TIMEOUT)
    assert rejected.status == OrderStatus.ORDER_STATUS_CANCELLED and rejected.cancellation.rejected
    assert rejected.cancellation.reason == "The tank is not reachable by our truck"
    assert rejected.payment_status == PaymentStatus.PAYMENT_STATUS_REFUNDED
    assert free_windows(api, customer)[3].booked == 0

    # The last window fills up; the fourth order is refused.
    for _ in range(3):
        api.orders.PlaceServiceOrder(order_request(marketplace_id, water, windows[4].window, option=water.options[0]),
                                     metadata=customer.md(), timeout=TIMEOUT)
    error = refused(lambda: api.orders.PlaceServiceOrder(
        order_request(marketplace_id, water, windows[4].window, option=water.options[0]), metadata=customer.md(), timeout=TIMEOUT),
        Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_WINDOW_FULL)
    assert "fully booked" in error.details()
    assert not free_windows(api, customer)[4].available
