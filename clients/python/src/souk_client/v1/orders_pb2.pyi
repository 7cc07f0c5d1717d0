import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from souk_client.v1 import payments_pb2 as _payments_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OrderStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ORDER_STATUS_UNSPECIFIED: _ClassVar[OrderStatus]
    ORDER_STATUS_PENDING: _ClassVar[OrderStatus]
    ORDER_STATUS_APPROVED: _ClassVar[OrderStatus]
    ORDER_STATUS_PLACED: _ClassVar[OrderStatus]
    ORDER_STATUS_PREPARING: _ClassVar[OrderStatus]
    ORDER_STATUS_OUT_FOR_DELIVERY: _ClassVar[OrderStatus]
    ORDER_STATUS_SHIPPED: _ClassVar[OrderStatus]
    ORDER_STATUS_DELIVERED: _ClassVar[OrderStatus]
    ORDER_STATUS_RECEIVED: _ClassVar[OrderStatus]
    ORDER_STATUS_COMPLETED: _ClassVar[OrderStatus]
    ORDER_STATUS_CANCELLED: _ClassVar[OrderStatus]
ORDER_STATUS_UNSPECIFIED: OrderStatus
ORDER_STATUS_PENDING: OrderStatus
ORDER_STATUS_APPROVED: OrderStatus
ORDER_STATUS_PLACED: OrderStatus
ORDER_STATUS_PREPARING: OrderStatus
ORDER_STATUS_OUT_FOR_DELIVERY: OrderStatus
ORDER_STATUS_SHIPPED: OrderStatus
ORDER_STATUS_DELIVERED: OrderStatus
ORDER_STATUS_RECEIVED: OrderStatus
ORDER_STATUS_COMPLETED: OrderStatus
ORDER_STATUS_CANCELLED: OrderStatus

class OrderLine(_message.Message):
    __slots__ = ("item_id", "item_type", "name", "option_id", "option_name", "list_unit_price", "discount_bps", "unit_price", "quantity", "line_total", "options", "note", "option_code")
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_TYPE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTION_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_NAME_FIELD_NUMBER: _ClassVar[int]
    LIST_UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    DISCOUNT_BPS_FIELD_NUMBER: _ClassVar[int]
    UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    QUANTITY_FIELD_NUMBER: _ClassVar[int]
    LINE_TOTAL_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    OPTION_CODE_FIELD_NUMBER: _ClassVar[int]
    item_id: str
    item_type: _common_pb2.ResourceType
    name: str
    option_id: str
    option_name: str
    list_unit_price: _common_pb2.Money
    discount_bps: int
    unit_price: _common_pb2.Money
    quantity: int
    line_total: _common_pb2.Money
    options: _containers.RepeatedCompositeFieldContainer[OrderLineOption]
    note: str
    option_code: str
    def __init__(self, item_id: _Optional[str] = ..., item_type: _Optional[_Union[_common_pb2.ResourceType, str]] = ..., name: _Optional[str] = ..., option_id: _Optional[str] = ..., option_name: _Optional[str] = ..., list_unit_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., discount_bps: _Optional[int] = ..., unit_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., quantity: _Optional[int] = ..., line_total: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., options: _Optional[_Iterable[_Union[OrderLineOption, _Mapping]]] = ..., note: _Optional[str] = ..., option_code: _Optional[str] = ...) -> None: ...

class OrderLineOption(_message.Message):
    __slots__ = ("group_id", "group_name", "choice_id", "choice_name", "price")
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_NAME_FIELD_NUMBER: _ClassVar[int]
    CHOICE_ID_FIELD_NUMBER: _ClassVar[int]
    CHOICE_NAME_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    group_id: str
    group_name: str
    choice_id: str
    choice_name: str
    price: _common_pb2.Money
    def __init__(self, group_id: _Optional[str] = ..., group_name: _Optional[str] = ..., choice_id: _Optional[str] = ..., choice_name: _Optional[str] = ..., price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class OrderCancellation(_message.Message):
    __slots__ = ("rejected", "reason", "cancelled_by_account_id", "cancelled_by_role")
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_BY_ROLE_FIELD_NUMBER: _ClassVar[int]
    rejected: bool
    reason: str
    cancelled_by_account_id: str
    cancelled_by_role: _common_pb2.Role
    def __init__(self, rejected: bool = ..., reason: _Optional[str] = ..., cancelled_by_account_id: _Optional[str] = ..., cancelled_by_role: _Optional[_Union[_common_pb2.Role, str]] = ...) -> None: ...

class Order(_message.Message):
    __slots__ = ("id", "order_number", "customer_account_id", "status", "lines", "price", "address", "restaurant_id", "restaurant_name", "commission_bps", "commission", "scheduled_window", "note", "payment_id", "payment_method", "payment_status", "delivery_id", "courier_account_id", "shipping_carrier", "tracking_number", "cancellation", "approve_time", "accept_time", "out_for_delivery_time", "ship_time", "deliver_time", "receive_time", "complete_time", "cancel_time", "version", "create_time", "update_time", "customer", "provider", "courier", "pickup_address", "seller_account_id", "available_transitions")
    ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_NAME_FIELD_NUMBER: _ClassVar[int]
    COMMISSION_BPS_FIELD_NUMBER: _ClassVar[int]
    COMMISSION_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_WINDOW_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_METHOD_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_STATUS_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SHIPPING_CARRIER_FIELD_NUMBER: _ClassVar[int]
    TRACKING_NUMBER_FIELD_NUMBER: _ClassVar[int]
    CANCELLATION_FIELD_NUMBER: _ClassVar[int]
    APPROVE_TIME_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_TIME_FIELD_NUMBER: _ClassVar[int]
    OUT_FOR_DELIVERY_TIME_FIELD_NUMBER: _ClassVar[int]
    SHIP_TIME_FIELD_NUMBER: _ClassVar[int]
    DELIVER_TIME_FIELD_NUMBER: _ClassVar[int]
    RECEIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_TIME_FIELD_NUMBER: _ClassVar[int]
    CANCEL_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    COURIER_FIELD_NUMBER: _ClassVar[int]
    PICKUP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    SELLER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    order_number: str
    customer_account_id: str
    status: OrderStatus
    lines: _containers.RepeatedCompositeFieldContainer[OrderLine]
    price: _common_pb2.PriceBreakdown
    address: _common_pb2.Address
    restaurant_id: str
    restaurant_name: str
    commission_bps: int
    commission: _common_pb2.Money
    scheduled_window: _common_pb2.TimeWindow
    note: str
    payment_id: str
    payment_method: _payments_pb2.PaymentMethod
    payment_status: _payments_pb2.PaymentStatus
    delivery_id: str
    courier_account_id: str
    shipping_carrier: str
    tracking_number: str
    cancellation: OrderCancellation
    approve_time: _timestamp_pb2.Timestamp
    accept_time: _timestamp_pb2.Timestamp
    out_for_delivery_time: _timestamp_pb2.Timestamp
    ship_time: _timestamp_pb2.Timestamp
    deliver_time: _timestamp_pb2.Timestamp
    receive_time: _timestamp_pb2.Timestamp
    complete_time: _timestamp_pb2.Timestamp
    cancel_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    customer: _common_pb2.PersonSummary
    provider: _common_pb2.PersonSummary
    courier: _common_pb2.PersonSummary
    pickup_address: _common_pb2.Address
    seller_account_id: str
    available_transitions: _containers.RepeatedCompositeFieldContainer[_common_pb2.AvailableTransition]
    def __init__(self, id: _Optional[str] = ..., order_number: _Optional[str] = ..., customer_account_id: _Optional[str] = ..., status: _Optional[_Union[OrderStatus, str]] = ..., lines: _Optional[_Iterable[_Union[OrderLine, _Mapping]]] = ..., price: _Optional[_Union[_common_pb2.PriceBreakdown, _Mapping]] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., restaurant_id: _Optional[str] = ..., restaurant_name: _Optional[str] = ..., commission_bps: _Optional[int] = ..., commission: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., scheduled_window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., note: _Optional[str] = ..., payment_id: _Optional[str] = ..., payment_method: _Optional[_Union[_payments_pb2.PaymentMethod, str]] = ..., payment_status: _Optional[_Union[_payments_pb2.PaymentStatus, str]] = ..., delivery_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ..., shipping_carrier: _Optional[str] = ..., tracking_number: _Optional[str] = ..., cancellation: _Optional[_Union[OrderCancellation, _Mapping]] = ..., approve_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., accept_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., out_for_delivery_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., ship_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., deliver_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., receive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., complete_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., cancel_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., customer: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., provider: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., courier: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., pickup_address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., seller_account_id: _Optional[str] = ..., available_transitions: _Optional[_Iterable[_Union[_common_pb2.AvailableTransition, _Mapping]]] = ...) -> None: ...

class OrderEvent(_message.Message):
    __slots__ = ("sequence", "event_time", "order", "previous_status", "actor_account_id")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_STATUS_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    event_time: _timestamp_pb2.Timestamp
    order: Order
    previous_status: OrderStatus
    actor_account_id: str
    def __init__(self, sequence: _Optional[int] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., order: _Optional[_Union[Order, _Mapping]] = ..., previous_status: _Optional[_Union[OrderStatus, str]] = ..., actor_account_id: _Optional[str] = ...) -> None: ...

class AddressChoice(_message.Message):
    __slots__ = ("saved_address_id", "address")
    SAVED_ADDRESS_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    saved_address_id: str
    address: _common_pb2.Address
    def __init__(self, saved_address_id: _Optional[str] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ...) -> None: ...

class CheckoutRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "expected_cart_version", "address", "address_confirmed", "payment", "note")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_CART_VERSION_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    expected_cart_version: int
    address: AddressChoice
    address_confirmed: bool
    payment: _payments_pb2.PaymentMethodInput
    note: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., expected_cart_version: _Optional[int] = ..., address: _Optional[_Union[AddressChoice, _Mapping]] = ..., address_confirmed: bool = ..., payment: _Optional[_Union[_payments_pb2.PaymentMethodInput, _Mapping]] = ..., note: _Optional[str] = ...) -> None: ...

class PlaceServiceOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "service_id", "option_id", "option_code", "quantity", "scheduled_window", "address", "payment", "note")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_CODE_FIELD_NUMBER: _ClassVar[int]
    QUANTITY_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_WINDOW_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    service_id: str
    option_id: str
    option_code: str
    quantity: int
    scheduled_window: _common_pb2.TimeWindow
    address: AddressChoice
    payment: _payments_pb2.PaymentMethodInput
    note: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., service_id: _Optional[str] = ..., option_id: _Optional[str] = ..., option_code: _Optional[str] = ..., quantity: _Optional[int] = ..., scheduled_window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., address: _Optional[_Union[AddressChoice, _Mapping]] = ..., payment: _Optional[_Union[_payments_pb2.PaymentMethodInput, _Mapping]] = ..., note: _Optional[str] = ...) -> None: ...

class GetOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ...) -> None: ...

class ListOrdersRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "customer_account_id", "restaurant_id", "courier_account_id", "service_id", "statuses", "delivered_after", "delivered_before", "as_seller")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_AFTER_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    AS_SELLER_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    customer_account_id: str
    restaurant_id: str
    courier_account_id: str
    service_id: str
    statuses: _containers.RepeatedScalarFieldContainer[OrderStatus]
    delivered_after: _timestamp_pb2.Timestamp
    delivered_before: _timestamp_pb2.Timestamp
    as_seller: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., customer_account_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ..., service_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[OrderStatus, str]]] = ..., delivered_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., delivered_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., as_seller: bool = ...) -> None: ...

class ListServiceWindowsRequest(_message.Message):
    __slots__ = ("marketplace_id", "date")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    date: _common_pb2.Date
    def __init__(self, marketplace_id: _Optional[str] = ..., date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ...) -> None: ...

class ServiceWindow(_message.Message):
    __slots__ = ("window", "capacity", "booked", "available")
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    BOOKED_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    window: _common_pb2.TimeWindow
    capacity: int
    booked: int
    available: bool
    def __init__(self, window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., capacity: _Optional[int] = ..., booked: _Optional[int] = ..., available: bool = ...) -> None: ...

class ListServiceWindowsResponse(_message.Message):
    __slots__ = ("windows",)
    WINDOWS_FIELD_NUMBER: _ClassVar[int]
    windows: _containers.RepeatedCompositeFieldContainer[ServiceWindow]
    def __init__(self, windows: _Optional[_Iterable[_Union[ServiceWindow, _Mapping]]] = ...) -> None: ...

class ListOrdersResponse(_message.Message):
    __slots__ = ("orders", "next_page_token")
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    orders: _containers.RepeatedCompositeFieldContainer[Order]
    next_page_token: str
    def __init__(self, orders: _Optional[_Iterable[_Union[Order, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RescheduleOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "scheduled_window", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEDULED_WINDOW_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    scheduled_window: _common_pb2.TimeWindow
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., scheduled_window: _Optional[_Union[_common_pb2.TimeWindow, _Mapping]] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ApproveOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RejectOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class AcceptOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CancelOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ShipOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "shipping_carrier", "tracking_number", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    SHIPPING_CARRIER_FIELD_NUMBER: _ClassVar[int]
    TRACKING_NUMBER_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    shipping_carrier: str
    tracking_number: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., shipping_carrier: _Optional[str] = ..., tracking_number: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DeliverOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "deliver_time", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVER_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    deliver_time: _timestamp_pb2.Timestamp
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., deliver_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ConfirmOrderReceivedRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CompleteOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class WatchOrderRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "resume_after_sequence")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    resume_after_sequence: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., resume_after_sequence: _Optional[int] = ...) -> None: ...
