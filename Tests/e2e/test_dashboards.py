"""The dashboards (Reports.GetOrdersOverview, GetTransactionReport, GetRentalRevenueReport) equal a
brute-force recount after a few hundred random water orders, placed from many threads at once and
approved, delivered, cancelled or left open, paid with Apple Pay or in cash (collected, confirmed,
voided), partly refunded; and after rental leases whose deposits and monthly bills are paid.

The server's clock is the machine's, so the test spreads the activity over several days of the
marketplace by moving its time zone forward between rounds (Pacific/Pago_Pago, UTC−11, then UTC,
then Pacific/Kiritimati, UTC+14): each round's local day is the same or a later one, and the
first and last are different days. The recount lists every
order, payment and account through the API and puts each on the day its own timestamps fall on in
the zone in force then; an order placed in one round and finished in a later one moves its
placement day's counters. Access: the marketplace's admin and the operator read them, another
marketplace's admin and a customer get PERMISSION_DENIED; bad ranges name every wrong field."""
import collections
import concurrent.futures
import datetime
import random
import uuid
import zoneinfo

import grpc
import pytest

from conftest import IdentityServer, stop_cleanly
from souk_identity import (TIMEOUT, Api, FieldMask, Party, Role, login_party, operator_party, pb, refused, request_id,
                           sign_up, unique_email)
from souk_protos import Stub, enum, field_violations, message

Code = grpc.StatusCode
OrderStatus = enum("souk.v1.OrderStatus")
PaymentStatus = enum("souk.v1.PaymentStatus")
PaymentMethod = enum("souk.v1.PaymentMethod")
ServiceType = enum("souk.v1.ServiceType")
Period = enum("souk.v1.ReportPeriod")
BillStatus = enum("souk.v1.BillStatus")
BillKind = enum("souk.v1.BillKind")
ListingType = enum("souk.v1.ListingType")
Utility = enum("souk.v1.UtilityKind")
Timestamp = message("google.protobuf.Timestamp")

# Local dates only move forward from one zone to the next.
ZONES = ["Pacific/Pago_Pago", "UTC", "Pacific/Kiritimati"]
TOKEN_TTL = 3600
SEED = 2027
ROUND_ORDERS = 90


@pytest.fixture(scope="module")
def server():
    s = IdentityServer(TOKEN_TTL)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(server):
    with server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        api = Api(channel)
        for service in ("Orders", "Payments", "Catalog", "Deliveries", "Reports", "Rentals"):
            setattr(api, service.lower(), Stub(channel, f"souk.v1.{service}"))
        yield api


def seconds(ts) -> float:
    return ts.seconds + ts.nanos / 1e9


class Zones:
    """The marketplace's time zone over time: switches as the server stamped them."""

    def __init__(self):
        self.switches = []

    def add(self, marketplace):
        self.switches.append((seconds(marketplace.update_time), marketplace.time_zone))

    def day(self, ts) -> datetime.date:
        at = seconds(ts)
        zone = [z for t, z in self.switches if t <= at][-1]
        return datetime.datetime.fromtimestamp(at, zoneinfo.ZoneInfo(zone)).date()


class Sessions:
    """Every session the test opens, so sign-ins count as activity on their day: a session's
    access token expires TOKEN_TTL after it opened."""

    def __init__(self):
        self.opened = []  # (account id, open time as a Timestamp)

    def record(self, party):
        expiry = party.session.access_token_expire_time
        self.opened.append((party.account_id, Timestamp(seconds=expiry.seconds - TOKEN_TTL, nanos=expiry.nanos)))
        return party


def fresh_marketplace(api, operator, template_id, zone, change=lambda m: None):
    template = api.marketplaces.GetMarketplace(pb.GetMarketplaceRequest(marketplace_id=template_id), timeout=TIMEOUT)
    fresh = pb.Marketplace()
    fresh.CopyFrom(template)
    for output_only in ("id", "version", "create_time", "update_time", "archived", "archive_time"):
        fresh.ClearField(output_only)
    fresh.slug = f"e2e-dash-{uuid.uuid4().hex[:10]}"
    fresh.display_name = f"E2E {fresh.slug}"
    fresh.time_zone = zone
    del fresh.settings.accounts.allowed_email_domains[:]
    change(fresh)
    return api.marketplaces.CreateMarketplace(pb.CreateMarketplaceRequest(request_id=request_id(), marketplace=fresh),
                                              metadata=operator.md(), timeout=TIMEOUT)


def move_zone(api, operator, market_id, zone):
    mask = FieldMask(paths=["time_zone"])
    return api.marketplaces.UpdateMarketplace(pb.UpdateMarketplaceRequest(
        marketplace_id=market_id, marketplace=pb.Marketplace(time_zone=zone), update_mask=mask), metadata=operator.md(), timeout=TIMEOUT)


def approved(api, sessions, market_id, operator, role, name):
    pending = sign_up(api, market_id, email=unique_email(name.lower()), given_name=name, requested_roles=[role])
    sessions.record(pending)
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=market_id, account_id=pending.account_id, role=role),
                             metadata=operator.md(), timeout=TIMEOUT)
    return sessions.record(Party.login(api, market_id, pending.email, pending.password))


def every(list_call, request, field, md):
    found = []
    while True:
        response = list_call(request, metadata=md, timeout=TIMEOUT)
        found += list(getattr(response, field))
        if not response.next_page_token:
            return found
        request.page_token = response.next_page_token


def date_range(first: datetime.date, last: datetime.date):
    return pb.DateRange(start_date=pb.Date(year=first.year, month=first.month, day=first.day),
                        end_date=pb.Date(year=last.year, month=last.month, day=last.day))


def as_date(d) -> datetime.date:
    return datetime.date(d.year, d.month, d.day)


def test_bad_ranges_name_every_wrong_field(api, server):
    operator = operator_party(api, server)
    market_id = server.marketplace_id("Aqua Hub")
    ask = lambda **fields: api.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, **fields),
                                                         metadata=operator.md(), timeout=TIMEOUT)
    today = datetime.datetime.now(zoneinfo.ZoneInfo("Asia/Riyadh")).date()

    def fields(error):
        return [v.field for v in field_violations(error)]

    assert fields(refused(lambda: ask(), Code.INVALID_ARGUMENT)) == ["period"]
    assert fields(refused(lambda: ask(period=Period.REPORT_PERIOD_UNSPECIFIED), Code.INVALID_ARGUMENT)) == ["period"]
    backwards = date_range(today, today - datetime.timedelta(days=1))
    assert fields(refused(lambda: ask(dates=backwards), Code.INVALID_ARGUMENT, field="dates")) == ["dates"]
    too_long = date_range(today - datetime.timedelta(days=366), today)
    assert "366 days" in refused(lambda: ask(dates=too_long), Code.INVALID_ARGUMENT, field="dates").details()
    ask(dates=date_range(today - datetime.timedelta(days=365), today))
    both_bad = pb.DateRange(start_date=pb.Date(year=2026, month=2, day=30), end_date=pb.Date(year=2026, month=13, day=1))
    assert fields(refused(lambda: ask(dates=both_bad, end_time=Timestamp(seconds=1)), Code.INVALID_ARGUMENT)) == [
        "end_time", "dates.start_date", "dates.end_date"]
    future = date_range(today, today + datetime.timedelta(days=2))
    refused(lambda: ask(dates=future), Code.INVALID_ARGUMENT, field="dates.end_date")
    refused(lambda: ask(period=Period.REPORT_PERIOD_WEEK, end_time=Timestamp(seconds=4_000_000_000)), Code.INVALID_ARGUMENT,
            field="end_time")


def test_dashboards_equal_a_recount_of_random_orders_payments_and_refunds(api, server):
    rng = random.Random(SEED)
    operator = operator_party(api, server)
    zones, sessions = Zones(), Sessions()

    def no_windows(market):
        del market.settings.commerce.service_windows[:]
        market.settings.commerce.window_capacity = 0

    market = fresh_marketplace(api, operator, server.marketplace_id("Aqua Hub"), ZONES[0], no_windows)
    market_id = market.id
    zones.add(market)
    admin = approved(api, sessions, market_id, operator, Role.ROLE_ADMIN, "Amal")
    courier = approved(api, sessions, market_id, operator, Role.ROLE_COURIER, "Badr")
    customers = [sessions.record(sign_up(api, market_id, email=unique_email("huda"), given_name=f"Huda{i}")) for i in range(8)]
    water = api.catalog.CreateService(pb.CreateServiceRequest(marketplace_id=market_id, request_id=request_id(), service=pb.Service(
        name="Safi Water", description="Bottled water", type=ServiceType.SERVICE_TYPE_DELIVERY,
        base_price=pb.Money(amount_minor=1500, currency_code=market.currency_code), available=True)),
        metadata=admin.md(), timeout=TIMEOUT)

    def place(customer, cash, quantity, hours):
        start = Timestamp(seconds=int(datetime.datetime.now().timestamp()) + 86_400 * 3 + hours * 3600)
        window = pb.TimeWindow(start_time=start, end_time=Timestamp(seconds=start.seconds + 7200))
        payment = pb.PaymentMethodInput(cash=pb.CashOnDelivery()) if cash else pb.PaymentMethodInput(apple_pay_token="applepay_e2e_0123456789")
        return api.orders.PlaceServiceOrder(pb.PlaceServiceOrderRequest(
            marketplace_id=market_id, request_id=request_id(), service_id=water.id, quantity=quantity, scheduled_window=window,
            address=pb.AddressChoice(address=pb.Address(line1="King Abdulaziz Road 7", city="Arar", country_code="SA")),
            payment=payment), metadata=customer.md(), timeout=TIMEOUT)

    def deliver(order):
        delivery = api.deliveries.AssignDelivery(pb.AssignDeliveryRequest(
            marketplace_id=market_id, request_id=request_id(), order_id=order.id, courier_account_id=courier.account_id),
            metadata=admin.md(), timeout=TIMEOUT)
        for rpc in ("StartDelivery", "CompleteDelivery"):
            getattr(api.deliveries, rpc)(getattr(pb, f"{rpc}Request")(marketplace_id=market_id, delivery_id=delivery.id),
                                         metadata=courier.md(), timeout=TIMEOUT)

    def finish(order):
        """Delivers (and for some cash, confirms; for some Apple Pay, refunds part), cancels, or leaves it open."""
        roll = rng.random()
        if roll < 0.45:
            deliver(order)
            if order.payment_method == PaymentMethod.PAYMENT_METHOD_CASH and rng.random() < 0.6:
                api.payments.ConfirmCashPayment(pb.ConfirmCashPaymentRequest(marketplace_id=market_id, payment_id=order.payment_id),
                                                metadata=admin.md(), timeout=TIMEOUT)
            elif order.payment_method != PaymentMethod.PAYMENT_METHOD_CASH and rng.random() < 0.4:
                for _ in range(rng.choice([1, 2])):
                    api.payments.RefundPayment(pb.RefundPaymentRequest(
                        marketplace_id=market_id, request_id=request_id(), payment_id=order.payment_id,
                        amount=pb.Money(amount_minor=rng.randint(1, 400), currency_code=market.currency_code), reason="a late delivery"),
                        metadata=admin.md(), timeout=TIMEOUT)
            return None
        if roll < 0.75:
            api.orders.CancelOrder(pb.CancelOrderRequest(marketplace_id=market_id, order_id=order.id, reason="no one at home"),
                                   metadata=admin.md(), timeout=TIMEOUT)
            return None
        return order  # still open: a later round may finish it

    open_orders = []
    for round_, zone in enumerate(ZONES):
        if round_:
            zones.add(move_zone(api, operator, market_id, zone))
        # Orders placed from many threads at once.
        plans = [(rng.choice(customers), rng.random() < 0.5, rng.randint(1, 4), rng.randint(0, 200)) for _ in range(ROUND_ORDERS)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
            placed = list(pool.map(lambda plan: place(*plan), plans))
        assert all(o.status == OrderStatus.ORDER_STATUS_APPROVED for o in placed)
        # Some of the earlier rounds' open orders finish now, on a later day than they were placed.
        carried = [o for o in open_orders if rng.random() < 0.6]
        open_orders = [o for o in open_orders if o not in carried]
        for order in carried + placed:
            left = finish(order)
            if left is not None:
                open_orders.append(left)

    # The brute-force recount, from everything listed through the API.
    orders = every(api.orders.ListOrders, pb.ListOrdersRequest(marketplace_id=market_id, page_size=100), "orders", admin.md())
    payments = every(api.payments.ListPayments, pb.ListPaymentsRequest(marketplace_id=market_id, page_size=100), "payments", admin.md())
    accounts = every(api.accounts.ListAccounts, pb.ListAccountsRequest(marketplace_id=market_id, page_size=100), "accounts", operator.md())
    assert len(orders) == ROUND_ORDERS * len(ZONES) and len(payments) == len(orders)

    def recount(day_of, kept_day_of):
        """The totals the dashboards must show, putting what the server keeps the day of (an
        order's placement, a payment's bucket) on `kept_day_of` and everything else on `day_of`."""
        days = collections.defaultdict(collections.Counter)
        by_status, active = collections.Counter(), collections.defaultdict(set)
        customers_on, couriers_on = collections.defaultdict(set), collections.defaultdict(set)
        for o in orders:
            placed_on = kept_day_of(o.create_time)
            days[placed_on]["placed"] += 1
            by_status[o.status] += 1
            customers_on[placed_on].add(o.customer_account_id)
            active[placed_on].add(o.customer_account_id)
            if o.status == OrderStatus.ORDER_STATUS_COMPLETED:
                done = day_of(o.complete_time)
                days[done]["completed"] += 1
                days[done]["revenue"] += o.price.subtotal.amount_minor
                days[done]["tax"] += o.price.tax.amount_minor
                days[done]["fees"] += o.price.fees_total.amount_minor
                days[done]["deliveries"] += 1
                couriers_on[done].add(o.courier_account_id)
                active[done].add(o.courier_account_id)
            if o.status == OrderStatus.ORDER_STATUS_CANCELLED:
                days[day_of(o.cancel_time)]["cancelled"] += 1
        for a in accounts:
            days[day_of(a.create_time)]["new"] += 1
        for account_id, opened in sessions.opened:
            active[day_of(opened)].add(account_id)
        buckets, methods = collections.Counter(), collections.defaultdict(collections.Counter)
        money_days = collections.defaultdict(collections.Counter)
        for p in payments:
            active[kept_day_of(p.create_time)].add(p.payer_account_id)
            buckets[(p.method, p.status, "count")] += 1
            buckets[(p.method, p.status, "amount")] += p.amount.amount_minor
            if p.status in (PaymentStatus.PAYMENT_STATUS_SUCCESSFUL, PaymentStatus.PAYMENT_STATUS_PARTIALLY_REFUNDED,
                            PaymentStatus.PAYMENT_STATUS_REFUNDED):
                methods[p.method]["received_count"] += 1
                methods[p.method]["received"] += p.amount.amount_minor
                money_days[day_of(p.succeed_time)]["received"] += p.amount.amount_minor
            if p.HasField("collect_time"):
                methods[p.method]["collected_count"] += 1
                methods[p.method]["collected"] += p.amount.amount_minor
                money_days[day_of(p.collect_time)]["collected"] += p.amount.amount_minor
            for refund in p.refunds:
                methods[p.method]["refund_count"] += 1
                methods[p.method]["refunded"] += refund.amount.amount_minor
                money_days[day_of(refund.create_time)]["refunded"] += refund.amount.amount_minor
        return days, by_status, active, customers_on, couriers_on, buckets, methods, money_days

    def check(overview, report, counted, window_days, with_active=True):
        days, by_status, active, customers_on, couriers_on, buckets, methods, money_days = counted
        assert {c.status: c.count for c in overview.orders_by_status} == dict(by_status)
        total = lambda key: sum(d[key] for d in days.values())
        assert overview.orders_placed == len(orders) == total("placed")
        assert overview.orders_completed == total("completed") and overview.orders_cancelled == total("cancelled")
        assert overview.revenue.amount_minor == total("revenue") and overview.revenue.currency_code == market.currency_code
        assert overview.tax.amount_minor == total("tax") and overview.fees.amount_minor == total("fees")
        assert overview.deliveries_completed == total("deliveries")
        assert overview.new_accounts == len(accounts) == total("new")
        if with_active:
            assert overview.active_accounts == sum(len(s) for s in active.values())
        assert overview.active_customers == sum(len(s) for s in customers_on.values())
        assert overview.active_couriers == sum(len(s) for s in couriers_on.values())
        series = [(as_date(d.date), d.orders_placed, d.orders_completed, d.orders_cancelled, d.revenue.amount_minor, d.new_accounts,
                   d.active_accounts if with_active else 0) for d in overview.days]
        expected = [(day, days[day]["placed"], days[day]["completed"], days[day]["cancelled"], days[day]["revenue"], days[day]["new"],
                     len(active.get(day, ())) if with_active else 0) for day in window_days]
        assert series == expected
        assert {(b.method, b.status, "count"): b.count for b in report.buckets} | {
            (b.method, b.status, "amount"): b.amount.amount_minor for b in report.buckets} == dict(buckets)
        shown = {m.method: collections.Counter({
            "received_count": m.received_count, "received": m.received.amount_minor, "refund_count": m.refund_count,
            "refunded": m.refunded.amount_minor, "collected_count": m.collected_count, "collected": m.collected.amount_minor})
            for m in report.methods}
        assert {k: +v for k, v in shown.items()} == {k: +v for k, v in methods.items()}
        assert report.received.amount_minor == sum(m["received"] for m in methods.values())
        assert report.refunded.amount_minor == sum(m["refunded"] for m in methods.values()) > 0
        assert report.refund_count == sum(m["refund_count"] for m in methods.values())
        assert report.cash_collected.amount_minor == methods[PaymentMethod.PAYMENT_METHOD_CASH]["collected"] > 0
        assert [(as_date(d.date), d.received.amount_minor, d.refunded.amount_minor, d.cash_collected.amount_minor)
                for d in report.days] == [
            (day, money_days[day]["received"], money_days[day]["refunded"], money_days[day]["collected"]) for day in window_days]

    counted = recount(zones.day, zones.day)
    days, by_status = counted[0], counted[1]
    first, last = min(days), max(days)
    # UTC−11 and UTC+14 are 25 hours apart: the first and last rounds fall on two local days (three
    # when the test runs between 10:00 and 11:00 UTC).
    assert (last - first).days >= 1, "the rounds fell on several days"
    assert sum(by_status.values()) == len(orders) and by_status[OrderStatus.ORDER_STATUS_COMPLETED] > 0
    assert by_status[OrderStatus.ORDER_STATUS_CANCELLED] > 0 and by_status[OrderStatus.ORDER_STATUS_APPROVED] > 0

    # The overview and the transactions, over the days of the rounds and one quiet day before them.
    window = date_range(first - datetime.timedelta(days=1), last)
    window_days = [first - datetime.timedelta(days=1) + datetime.timedelta(days=n) for n in range((last - first).days + 2)]
    overview = api.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, dates=window),
                                             metadata=admin.md(), timeout=TIMEOUT)
    report = api.reports.GetTransactionReport(pb.GetTransactionReportRequest(marketplace_id=market_id, dates=window),
                                              metadata=operator.md(), timeout=TIMEOUT)
    check(overview, report, counted, window_days)
    assert overview.days[0].orders_placed == overview.days[0].active_accounts == 0, "a quiet day is a point of zeros"

    # A period ending today: the last day's totals are in the week, the same as by dates.
    week = api.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, period=Period.REPORT_PERIOD_WEEK),
                                         metadata=admin.md(), timeout=TIMEOUT)
    assert len(week.days) == 7 and as_date(week.days[-1].date) == last
    assert week.days[-1] == overview.days[-1]

    # Another marketplace's admin and a customer get nothing; rentals' report is not the water shop's.
    other = login_party(api, server.demo_login("Aqua Hub", "admin"))
    for party in (other, customers[0]):
        refused(lambda: api.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, dates=window),
                                                      metadata=party.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)
        refused(lambda: api.reports.GetTransactionReport(pb.GetTransactionReportRequest(marketplace_id=market_id, dates=window),
                                                         metadata=party.md(), timeout=TIMEOUT), Code.PERMISSION_DENIED)
    refused(lambda: api.reports.GetRentalRevenueReport(pb.GetRentalRevenueReportRequest(marketplace_id=market_id, dates=window),
                                                       metadata=admin.md(), timeout=TIMEOUT), Code.FAILED_PRECONDITION)

    # Restarted with --rebuild-report-totals, the server recounts every total from the stored orders,
    # payments and accounts. It knows the day an order was placed and a payment made, but not the
    # time zones of the past: everything else falls on the days of the zone in force now. Sign-ins
    # are no records: active accounts aside.
    stop_cleanly(server)
    rebuilt = IdentityServer(TOKEN_TTL, "--rebuild-report-totals", data_dir=server.data_dir)
    now_zone = zoneinfo.ZoneInfo(ZONES[-1])
    today = lambda ts: datetime.datetime.fromtimestamp(seconds(ts), now_zone).date()
    try:
        with rebuilt.channel() as channel:
            again = Api(channel)
            again.reports = Stub(channel, "souk.v1.Reports")
            reader = Party.login(again, market_id, admin.email, admin.password)
            check(again.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, dates=window),
                                                  metadata=reader.md(), timeout=TIMEOUT),
                  again.reports.GetTransactionReport(pb.GetTransactionReportRequest(marketplace_id=market_id, dates=window),
                                                     metadata=reader.md(), timeout=TIMEOUT),
                  recount(today, zones.day), window_days, with_active=False)
    finally:
        stop_cleanly(rebuilt)


def test_the_rental_revenue_report_equals_a_recount_of_bills_and_leases(api):
    """In a server of its own (the test above restarts its server): leases over two local days,
    deposits and monthly bills paid, a bill left due, a lease ended and its deposit returned in part."""
    server = IdentityServer(TOKEN_TTL)
    try:
        with server.channel() as channel:
            rental_leases(channel, server)
    finally:
        stop_cleanly(server)


def rental_leases(channel, server):
    api = Api(channel)
    for service in ("Payments", "Reports", "Rentals"):
        setattr(api, service.lower(), Stub(channel, f"souk.v1.{service}"))
    rng = random.Random(SEED + 1)
    operator = operator_party(api, server)
    zones, sessions = Zones(), Sessions()
    market = fresh_marketplace(api, operator, server.marketplace_id("MARA"), ZONES[0])
    market_id, currency = market.id, market.currency_code
    zones.add(market)
    region = api.rentals.CreateRegion(pb.CreateRegionRequest(marketplace_id=market_id, request_id=request_id(), region=pb.Region(
        name="Thành phố Hồ Chí Minh", districts=["Quận 1"])), metadata=operator.md(), timeout=TIMEOUT)
    lessor = approved(api, sessions, market_id, operator, Role.ROLE_PROVIDER, "Hoa")
    call = lambda method, party, **fields: getattr(api.rentals, method)(
        getattr(pb, f"{method}Request")(marketplace_id=market_id, **fields), metadata=party.md(), timeout=TIMEOUT)
    pay = lambda party, bill_id: api.payments.CreatePayment(pb.CreatePaymentRequest(
        marketplace_id=market_id, request_id=request_id(), bill_id=bill_id, method=pb.PaymentMethodInput(card_token="tok_visa")),
        metadata=party.md(), timeout=TIMEOUT)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    start = datetime.date(today.year + today.month // 12, today.month % 12 + 1, 1)

    paid, leases, returned, due = [], [], [], []
    for round_, zone in enumerate([ZONES[0], ZONES[-1]]):
        if round_:
            zones.add(move_zone(api, operator, market_id, zone))
        for n in range(3):
            listing = call("CreateListing", lessor, request_id=request_id(), listing=pb.Listing(
                title=f"Căn hộ {round_}-{n}", description="Căn hộ đầy đủ nội thất", type=ListingType.LISTING_TYPE_APARTMENT,
                address=pb.Address(line1="19 Đường Lê Thánh Tôn", city="Thành phố Hồ Chí Minh", country_code="VN",
                                   location=pb.GeoPoint(latitude=10.776, longitude=106.70)),
                region_id=region.id, district="Quận 1", monthly_rent=pb.Money(amount_minor=rng.randint(50, 200) * 100_000, currency_code=currency),
                deposit_months=rng.choice([1, 2])))
            call("PublishListing", lessor, listing_id=listing.id)
            lessee = sessions.record(sign_up(api, market_id, email=unique_email("lessee"), given_name=f"Minh{round_}{n}"))
            booking = call("RequestBooking", lessee, request_id=request_id(), listing_id=listing.id, months=12,
                           start_date=pb.Date(year=start.year, month=start.month, day=1))
            booking = call("ConfirmBooking", lessor, booking_id=booking.id)
            pay(lessee, booking.deposit_bill_id)
            paid.append(call("GetBill", lessee, bill_id=booking.deposit_bill_id))
            bill = call("CreateMonthlyBill", lessor, request_id=request_id(), booking_id=booking.id,
                        period=pb.BillingPeriod(year=start.year, month=start.month), utilities=[pb.UtilityCharge(
                            kind=Utility.UTILITY_KIND_ELECTRICITY, description="kWh",
                            amount=pb.Money(amount_minor=rng.randint(100_000, 900_000), currency_code=currency))])
            if n == 2:
                due.append(bill)  # left due
                leases.append(call("GetBooking", lessee, booking_id=booking.id))
                continue
            pay(lessee, bill.id)
            paid.append(call("GetBill", lessee, bill_id=bill.id))
            if n == 1:
                call("EndLease", lessor, booking_id=booking.id, reason="moving out")
                deposit = paid[-2].total.amount_minor
                call("ReturnDeposit", lessor, booking_id=booking.id, reason="a broken chair",
                     amount=pb.Money(amount_minor=deposit - 100_000, currency_code=currency))
            leases.append(call("GetBooking", lessee, booking_id=booking.id))

    days = collections.defaultdict(collections.Counter)
    for bill in paid:
        day = days[zones.day(bill.paid_time)]
        day["gross"] += bill.total.amount_minor
        day["deposits" if bill.kind == BillKind.BILL_KIND_DEPOSIT else "monthly"] += bill.total.amount_minor
        day["provider"] += bill.split.provider_fee.amount_minor
        day["platform"] += bill.split.platform_fee.amount_minor
        day["lessor"] += bill.split.lessor_share.amount_minor
    for lease in leases:
        days[zones.day(lease.activate_time)]["started"] += 1
        if lease.HasField("end_time"):
            days[zones.day(lease.end_time)]["ended"] += 1
        if lease.HasField("deposit_return"):
            days[zones.day(lease.deposit_return.return_time)]["returned"] += lease.deposit_return.amount.amount_minor
    first, last = min(days), max(days)
    assert last > first
    report = api.reports.GetRentalRevenueReport(pb.GetRentalRevenueReportRequest(marketplace_id=market_id, dates=date_range(first, last)),
                                                metadata=operator.md(), timeout=TIMEOUT)
    total = lambda key: sum(d[key] for d in days.values())
    assert report.gross.amount_minor == total("gross") > 0 and report.gross.currency_code == currency
    assert report.deposits_paid.amount_minor == total("deposits") and report.monthly_bills_paid.amount_minor == total("monthly")
    assert report.provider_fees.amount_minor == total("provider") and report.platform_fees.amount_minor == total("platform")
    assert report.lessor_shares.amount_minor == total("lessor")
    assert report.provider_fees.amount_minor + report.platform_fees.amount_minor + report.lessor_shares.amount_minor == total("gross")
    assert report.deposits_returned.amount_minor == total("returned") > 0
    assert report.bills_due == len(due) and report.amount_due.amount_minor == sum(b.total.amount_minor for b in due)
    assert report.active_leases == total("started") - total("ended") == 4
    expected, day = [], first
    while day <= last:
        c = days.get(day, collections.Counter())
        expected.append((day, c["gross"], c["lessor"], c["returned"], c["started"], c["ended"]))
        day += datetime.timedelta(days=1)
    assert [(as_date(d.date), d.gross.amount_minor, d.lessor_shares.amount_minor, d.deposits_returned.amount_minor, d.leases_started,
             d.leases_ended) for d in report.days] == expected
    # The leases active at the end of the first day: those started by then, less those ended.
    earlier = api.reports.GetRentalRevenueReport(pb.GetRentalRevenueReportRequest(marketplace_id=market_id, dates=date_range(first, first)),
                                                 metadata=operator.md(), timeout=TIMEOUT)
    assert earlier.active_leases == days[first]["started"] - days[first]["ended"]
    refused(lambda: api.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(marketplace_id=market_id, dates=date_range(first, last)),
                                                  metadata=operator.md(), timeout=TIMEOUT), Code.FAILED_PRECONDITION)
