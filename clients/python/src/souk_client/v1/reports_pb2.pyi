import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from souk_client.v1 import orders_pb2 as _orders_pb2
from souk_client.v1 import payments_pb2 as _payments_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ReportPeriod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REPORT_PERIOD_UNSPECIFIED: _ClassVar[ReportPeriod]
    REPORT_PERIOD_WEEK: _ClassVar[ReportPeriod]
    REPORT_PERIOD_MONTH: _ClassVar[ReportPeriod]
    REPORT_PERIOD_THREE_MONTHS: _ClassVar[ReportPeriod]
    REPORT_PERIOD_SIX_MONTHS: _ClassVar[ReportPeriod]
    REPORT_PERIOD_YEAR: _ClassVar[ReportPeriod]
REPORT_PERIOD_UNSPECIFIED: ReportPeriod
REPORT_PERIOD_WEEK: ReportPeriod
REPORT_PERIOD_MONTH: ReportPeriod
REPORT_PERIOD_THREE_MONTHS: ReportPeriod
REPORT_PERIOD_SIX_MONTHS: ReportPeriod
REPORT_PERIOD_YEAR: ReportPeriod

class OrderStatusCount(_message.Message):
    __slots__ = ("status", "count")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    status: _orders_pb2.OrderStatus
    count: int
    def __init__(self, status: _Optional[_Union[_orders_pb2.OrderStatus, str]] = ..., count: _Optional[int] = ...) -> None: ...

class DateRange(_message.Message):
    __slots__ = ("start_date", "end_date")
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    END_DATE_FIELD_NUMBER: _ClassVar[int]
    start_date: _common_pb2.Date
    end_date: _common_pb2.Date
    def __init__(self, start_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., end_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ...) -> None: ...

class OrdersOverview(_message.Message):
    __slots__ = ("window", "orders_by_status", "orders_placed", "revenue", "tax", "fees", "commission", "active_customers", "active_couriers", "deliveries_completed", "orders_completed", "orders_cancelled", "new_accounts", "active_accounts", "days")
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    ORDERS_BY_STATUS_FIELD_NUMBER: _ClassVar[int]
    ORDERS_PLACED_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    TAX_FIELD_NUMBER: _ClassVar[int]
    FEES_FIELD_NUMBER: _ClassVar[int]
    COMMISSION_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_CUSTOMERS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_COURIERS_FIELD_NUMBER: _ClassVar[int]
    DELIVERIES_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    NEW_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    window: _common_pb2.TimeWindow
    orders_by_status: _containers.RepeatedCompositeFieldContainer[OrderStatusCount]
    orders_placed: int
    revenue: _common_pb2.Money
    tax: _common_pb2.Money
    fees: _common_pb2.Money
    commission: _common_pb2.Money
    active_customers: int
    active_couriers: int
    deliveries_completed: int
    orders_completed: int
    orders_cancelled: int
    new_accounts: int
    active_accounts: int
    days: _containers.RepeatedCompositeFieldContainer[OrdersDay]
    def __init__(self, window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., orders_by_status: _Optional[_Iterable[_Union[OrderStatusCount, _Mapping]]] = ..., orders_placed: _Optional[int] = ..., revenue: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., tax: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., fees: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., commission: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., active_customers: _Optional[int] = ..., active_couriers: _Optional[int] = ..., deliveries_completed: _Optional[int] = ..., orders_completed: _Optional[int] = ..., orders_cancelled: _Optional[int] = ..., new_accounts: _Optional[int] = ..., active_accounts: _Optional[int] = ..., days: _Optional[_Iterable[_Union[OrdersDay, _Mapping]]] = ...) -> None: ...

class OrdersDay(_message.Message):
    __slots__ = ("date", "orders_placed", "orders_completed", "orders_cancelled", "revenue", "new_accounts", "active_accounts")
    DATE_FIELD_NUMBER: _ClassVar[int]
    ORDERS_PLACED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    NEW_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    date: _common_pb2.Date
    orders_placed: int
    orders_completed: int
    orders_cancelled: int
    revenue: _common_pb2.Money
    new_accounts: int
    active_accounts: int
    def __init__(self, date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., orders_placed: _Optional[int] = ..., orders_completed: _Optional[int] = ..., orders_cancelled: _Optional[int] = ..., revenue: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., new_accounts: _Optional[int] = ..., active_accounts: _Optional[int] = ...) -> None: ...

class RestaurantReport(_message.Message):
    __slots__ = ("restaurant_id", "restaurant_name", "orders_placed", "orders_completed", "orders_cancelled", "revenue", "commission")
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_NAME_FIELD_NUMBER: _ClassVar[int]
    ORDERS_PLACED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    COMMISSION_FIELD_NUMBER: _ClassVar[int]
    restaurant_id: str
    restaurant_name: str
    orders_placed: int
    orders_completed: int
    orders_cancelled: int
    revenue: _common_pb2.Money
    commission: _common_pb2.Money
    def __init__(self, restaurant_id: _Optional[str] = ..., restaurant_name: _Optional[str] = ..., orders_placed: _Optional[int] = ..., orders_completed: _Optional[int] = ..., orders_cancelled: _Optional[int] = ..., revenue: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., commission: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class CourierEarnings(_message.Message):
    __slots__ = ("courier", "deliveries_completed", "earnings", "cash_collected", "cash_unconfirmed")
    COURIER_FIELD_NUMBER: _ClassVar[int]
    DELIVERIES_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    EARNINGS_FIELD_NUMBER: _ClassVar[int]
    CASH_COLLECTED_FIELD_NUMBER: _ClassVar[int]
    CASH_UNCONFIRMED_FIELD_NUMBER: _ClassVar[int]
    courier: _common_pb2.PersonSummary
    deliveries_completed: int
    earnings: _common_pb2.Money
    cash_collected: _common_pb2.Money
    cash_unconfirmed: _common_pb2.Money
    def __init__(self, courier: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., deliveries_completed: _Optional[int] = ..., earnings: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., cash_collected: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., cash_unconfirmed: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class TransactionBucket(_message.Message):
    __slots__ = ("method", "status", "count", "amount")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    method: _payments_pb2.PaymentMethod
    status: _payments_pb2.PaymentStatus
    count: int
    amount: _common_pb2.Money
    def __init__(self, method: _Optional[_Union[_payments_pb2.PaymentMethod, str]] = ..., status: _Optional[_Union[_payments_pb2.PaymentStatus, str]] = ..., count: _Optional[int] = ..., amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class MethodTotals(_message.Message):
    __slots__ = ("method", "received_count", "received", "refund_count", "refunded", "collected_count", "collected")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_COUNT_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    REFUND_COUNT_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_COUNT_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_FIELD_NUMBER: _ClassVar[int]
    method: _payments_pb2.PaymentMethod
    received_count: int
    received: _common_pb2.Money
    refund_count: int
    refunded: _common_pb2.Money
    collected_count: int
    collected: _common_pb2.Money
    def __init__(self, method: _Optional[_Union[_payments_pb2.PaymentMethod, str]] = ..., received_count: _Optional[int] = ..., received: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refund_count: _Optional[int] = ..., refunded: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., collected_count: _Optional[int] = ..., collected: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class TransactionDay(_message.Message):
    __slots__ = ("date", "received", "refunded", "cash_collected")
    DATE_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_FIELD_NUMBER: _ClassVar[int]
    CASH_COLLECTED_FIELD_NUMBER: _ClassVar[int]
    date: _common_pb2.Date
    received: _common_pb2.Money
    refunded: _common_pb2.Money
    cash_collected: _common_pb2.Money
    def __init__(self, date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., received: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refunded: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., cash_collected: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class TransactionReport(_message.Message):
    __slots__ = ("window", "buckets", "received", "refunded", "refund_count", "methods", "cash_collected", "days")
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    BUCKETS_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_FIELD_NUMBER: _ClassVar[int]
    REFUND_COUNT_FIELD_NUMBER: _ClassVar[int]
    METHODS_FIELD_NUMBER: _ClassVar[int]
    CASH_COLLECTED_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    window: _common_pb2.TimeWindow
    buckets: _containers.RepeatedCompositeFieldContainer[TransactionBucket]
    received: _common_pb2.Money
    refunded: _common_pb2.Money
    refund_count: int
    methods: _containers.RepeatedCompositeFieldContainer[MethodTotals]
    cash_collected: _common_pb2.Money
    days: _containers.RepeatedCompositeFieldContainer[TransactionDay]
    def __init__(self, window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., buckets: _Optional[_Iterable[_Union[TransactionBucket, _Mapping]]] = ..., received: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refunded: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refund_count: _Optional[int] = ..., methods: _Optional[_Iterable[_Union[MethodTotals, _Mapping]]] = ..., cash_collected: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., days: _Optional[_Iterable[_Union[TransactionDay, _Mapping]]] = ...) -> None: ...

class RentalRevenueReport(_message.Message):
    __slots__ = ("window", "gross", "deposits_paid", "monthly_bills_paid", "provider_fees", "platform_fees", "lessor_shares", "deposits_returned", "bills_due", "amount_due", "active_leases", "days")
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    GROSS_FIELD_NUMBER: _ClassVar[int]
    DEPOSITS_PAID_FIELD_NUMBER: _ClassVar[int]
    MONTHLY_BILLS_PAID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FEES_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEES_FIELD_NUMBER: _ClassVar[int]
    LESSOR_SHARES_FIELD_NUMBER: _ClassVar[int]
    DEPOSITS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    BILLS_DUE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_DUE_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_LEASES_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    window: _common_pb2.TimeWindow
    gross: _common_pb2.Money
    deposits_paid: _common_pb2.Money
    monthly_bills_paid: _common_pb2.Money
    provider_fees: _common_pb2.Money
    platform_fees: _common_pb2.Money
    lessor_shares: _common_pb2.Money
    deposits_returned: _common_pb2.Money
    bills_due: int
    amount_due: _common_pb2.Money
    active_leases: int
    days: _containers.RepeatedCompositeFieldContainer[RentalDay]
    def __init__(self, window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., gross: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., deposits_paid: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., monthly_bills_paid: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., provider_fees: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., platform_fees: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., lessor_shares: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., deposits_returned: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., bills_due: _Optional[int] = ..., amount_due: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., active_leases: _Optional[int] = ..., days: _Optional[_Iterable[_Union[RentalDay, _Mapping]]] = ...) -> None: ...

class RentalDay(_message.Message):
    __slots__ = ("date", "gross", "lessor_shares", "deposits_returned", "leases_started", "leases_ended")
    DATE_FIELD_NUMBER: _ClassVar[int]
    GROSS_FIELD_NUMBER: _ClassVar[int]
    LESSOR_SHARES_FIELD_NUMBER: _ClassVar[int]
    DEPOSITS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    LEASES_STARTED_FIELD_NUMBER: _ClassVar[int]
    LEASES_ENDED_FIELD_NUMBER: _ClassVar[int]
    date: _common_pb2.Date
    gross: _common_pb2.Money
    lessor_shares: _common_pb2.Money
    deposits_returned: _common_pb2.Money
    leases_started: int
    leases_ended: int
    def __init__(self, date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., gross: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., lessor_shares: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., deposits_returned: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., leases_started: _Optional[int] = ..., leases_ended: _Optional[int] = ...) -> None: ...

class GetOrdersOverviewRequest(_message.Message):
    __slots__ = ("marketplace_id", "period", "dates", "end_time")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    DATES_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    period: ReportPeriod
    dates: DateRange
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, marketplace_id: _Optional[str] = ..., period: _Optional[_Union[ReportPeriod, str]] = ..., dates: _Optional[_Union[DateRange, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListRestaurantReportsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "period", "end_time", "restaurant_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    period: ReportPeriod
    end_time: _timestamp_pb2.Timestamp
    restaurant_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., period: _Optional[_Union[ReportPeriod, str]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., restaurant_id: _Optional[str] = ...) -> None: ...

class ListRestaurantReportsResponse(_message.Message):
    __slots__ = ("restaurants", "next_page_token", "window")
    RESTAURANTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    restaurants: _containers.RepeatedCompositeFieldContainer[RestaurantReport]
    next_page_token: str
    window: _common_pb2.TimeWindow
    def __init__(self, restaurants: _Optional[_Iterable[_Union[RestaurantReport, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ...) -> None: ...

class ListCourierEarningsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "period", "end_time", "courier_account_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    period: ReportPeriod
    end_time: _timestamp_pb2.Timestamp
    courier_account_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., period: _Optional[_Union[ReportPeriod, str]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., courier_account_id: _Optional[str] = ...) -> None: ...

class ListCourierEarningsResponse(_message.Message):
    __slots__ = ("couriers", "next_page_token", "window")
    COURIERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    couriers: _containers.RepeatedCompositeFieldContainer[CourierEarnings]
    next_page_token: str
    window: _common_pb2.TimeWindow
    def __init__(self, couriers: _Optional[_Iterable[_Union[CourierEarnings, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ...) -> None: ...

class GetTransactionReportRequest(_message.Message):
    __slots__ = ("marketplace_id", "period", "dates", "end_time")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    DATES_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    period: ReportPeriod
    dates: DateRange
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, marketplace_id: _Optional[str] = ..., period: _Optional[_Union[ReportPeriod, str]] = ..., dates: _Optional[_Union[DateRange, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetRentalRevenueReportRequest(_message.Message):
    __slots__ = ("marketplace_id", "period", "dates", "end_time")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    DATES_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    period: ReportPeriod
    dates: DateRange
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, marketplace_id: _Optional[str] = ..., period: _Optional[_Union[ReportPeriod, str]] = ..., dates: _Optional[_Union[DateRange, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
