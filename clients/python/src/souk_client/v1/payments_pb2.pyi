import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PaymentMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PAYMENT_METHOD_UNSPECIFIED: _ClassVar[PaymentMethod]
    PAYMENT_METHOD_CARD: _ClassVar[PaymentMethod]
    PAYMENT_METHOD_APPLE_PAY: _ClassVar[PaymentMethod]
    PAYMENT_METHOD_GOOGLE_PAY: _ClassVar[PaymentMethod]
    PAYMENT_METHOD_CASH: _ClassVar[PaymentMethod]
    PAYMENT_METHOD_PAYOUT: _ClassVar[PaymentMethod]

class PaymentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PAYMENT_STATUS_UNSPECIFIED: _ClassVar[PaymentStatus]
    PAYMENT_STATUS_PENDING: _ClassVar[PaymentStatus]
    PAYMENT_STATUS_COLLECTED: _ClassVar[PaymentStatus]
    PAYMENT_STATUS_SUCCESSFUL: _ClassVar[PaymentStatus]
    PAYMENT_STATUS_FAILED: _ClassVar[PaymentStatus]
    PAYMENT_STATUS_PARTIALLY_REFUNDED: _ClassVar[PaymentStatus]
    PAYMENT_STATUS_REFUNDED: _ClassVar[PaymentStatus]
PAYMENT_METHOD_UNSPECIFIED: PaymentMethod
PAYMENT_METHOD_CARD: PaymentMethod
PAYMENT_METHOD_APPLE_PAY: PaymentMethod
PAYMENT_METHOD_GOOGLE_PAY: PaymentMethod
PAYMENT_METHOD_CASH: PaymentMethod
PAYMENT_METHOD_PAYOUT: PaymentMethod
PAYMENT_STATUS_UNSPECIFIED: PaymentStatus
PAYMENT_STATUS_PENDING: PaymentStatus
PAYMENT_STATUS_COLLECTED: PaymentStatus
PAYMENT_STATUS_SUCCESSFUL: PaymentStatus
PAYMENT_STATUS_FAILED: PaymentStatus
PAYMENT_STATUS_PARTIALLY_REFUNDED: PaymentStatus
PAYMENT_STATUS_REFUNDED: PaymentStatus

class CardInput(_message.Message):
    __slots__ = ("number", "cvv", "expiry_month", "expiry_year", "holder_name")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    CVV_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_MONTH_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_YEAR_FIELD_NUMBER: _ClassVar[int]
    HOLDER_NAME_FIELD_NUMBER: _ClassVar[int]
    number: str
    cvv: str
    expiry_month: int
    expiry_year: int
    holder_name: str
    def __init__(self, number: _Optional[str] = ..., cvv: _Optional[str] = ..., expiry_month: _Optional[int] = ..., expiry_year: _Optional[int] = ..., holder_name: _Optional[str] = ...) -> None: ...

class CreateCardTokenRequest(_message.Message):
    __slots__ = ("marketplace_id", "card")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    card: CardInput
    def __init__(self, marketplace_id: _Optional[str] = ..., card: _Optional[_Union[CardInput, _Mapping]] = ...) -> None: ...

class CardToken(_message.Message):
    __slots__ = ("token", "card_brand", "card_last4", "expiry_month", "expiry_year", "expire_time")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CARD_BRAND_FIELD_NUMBER: _ClassVar[int]
    CARD_LAST4_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_MONTH_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_YEAR_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    token: str
    card_brand: str
    card_last4: str
    expiry_month: int
    expiry_year: int
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, token: _Optional[str] = ..., card_brand: _Optional[str] = ..., card_last4: _Optional[str] = ..., expiry_month: _Optional[int] = ..., expiry_year: _Optional[int] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class PaymentMethodInput(_message.Message):
    __slots__ = ("card_token", "apple_pay_token", "google_pay_token", "cash")
    CARD_TOKEN_FIELD_NUMBER: _ClassVar[int]
    APPLE_PAY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GOOGLE_PAY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CASH_FIELD_NUMBER: _ClassVar[int]
    card_token: str
    apple_pay_token: str
    google_pay_token: str
    cash: CashOnDelivery
    def __init__(self, card_token: _Optional[str] = ..., apple_pay_token: _Optional[str] = ..., google_pay_token: _Optional[str] = ..., cash: _Optional[_Union[CashOnDelivery, _Mapping]] = ...) -> None: ...

class CashOnDelivery(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PaymentSplit(_message.Message):
    __slots__ = ("provider_fee", "platform_fee", "payee_share")
    PROVIDER_FEE_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_FIELD_NUMBER: _ClassVar[int]
    PAYEE_SHARE_FIELD_NUMBER: _ClassVar[int]
    provider_fee: _common_pb2.Money
    platform_fee: _common_pb2.Money
    payee_share: _common_pb2.Money
    def __init__(self, provider_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., platform_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., payee_share: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class Refund(_message.Message):
    __slots__ = ("id", "amount", "reason", "refunded_by_account_id", "create_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    amount: _common_pb2.Money
    reason: str
    refunded_by_account_id: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., reason: _Optional[str] = ..., refunded_by_account_id: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Payment(_message.Message):
    __slots__ = ("id", "target", "payer_account_id", "payee_account_id", "method", "status", "amount", "refunded_amount", "refunds", "card_brand", "card_last4", "gateway_reference", "failure_reason", "split", "collected_by_account_id", "collect_time", "confirmed_by_account_id", "confirm_time", "succeed_time", "version", "create_time", "update_time", "payout_reason", "available_transitions")
    ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    PAYER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYEE_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REFUNDS_FIELD_NUMBER: _ClassVar[int]
    CARD_BRAND_FIELD_NUMBER: _ClassVar[int]
    CARD_LAST4_FIELD_NUMBER: _ClassVar[int]
    GATEWAY_REFERENCE_FIELD_NUMBER: _ClassVar[int]
    FAILURE_REASON_FIELD_NUMBER: _ClassVar[int]
    SPLIT_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    COLLECT_TIME_FIELD_NUMBER: _ClassVar[int]
    CONFIRMED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_TIME_FIELD_NUMBER: _ClassVar[int]
    SUCCEED_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    PAYOUT_REASON_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    target: _common_pb2.ResourceRef
    payer_account_id: str
    payee_account_id: str
    method: PaymentMethod
    status: PaymentStatus
    amount: _common_pb2.Money
    refunded_amount: _common_pb2.Money
    refunds: _containers.RepeatedCompositeFieldContainer[Refund]
    card_brand: str
    card_last4: str
    gateway_reference: str
    failure_reason: str
    split: PaymentSplit
    collected_by_account_id: str
    collect_time: _timestamp_pb2.Timestamp
    confirmed_by_account_id: str
    confirm_time: _timestamp_pb2.Timestamp
    succeed_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    payout_reason: str
    available_transitions: _containers.RepeatedCompositeFieldContainer[_common_pb2.AvailableTransition]
    def __init__(self, id: _Optional[str] = ..., target: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., payer_account_id: _Optional[str] = ..., payee_account_id: _Optional[str] = ..., method: _Optional[_Union[PaymentMethod, str]] = ..., status: _Optional[_Union[PaymentStatus, str]] = ..., amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refunded_amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refunds: _Optional[_Iterable[_Union[Refund, _Mapping]]] = ..., card_brand: _Optional[str] = ..., card_last4: _Optional[str] = ..., gateway_reference: _Optional[str] = ..., failure_reason: _Optional[str] = ..., split: _Optional[_Union[PaymentSplit, _Mapping]] = ..., collected_by_account_id: _Optional[str] = ..., collect_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., confirmed_by_account_id: _Optional[str] = ..., confirm_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., succeed_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., payout_reason: _Optional[str] = ..., available_transitions: _Optional[_Iterable[_Union[_common_pb2.AvailableTransition, _Mapping]]] = ...) -> None: ...

class CreatePaymentRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "job_id", "bill_id", "method")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    BILL_ID_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    job_id: str
    bill_id: str
    method: PaymentMethodInput
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., job_id: _Optional[str] = ..., bill_id: _Optional[str] = ..., method: _Optional[_Union[PaymentMethodInput, _Mapping]] = ...) -> None: ...

class GetPaymentRequest(_message.Message):
    __slots__ = ("marketplace_id", "payment_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    payment_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., payment_id: _Optional[str] = ...) -> None: ...

class ListPaymentsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "payer_account_id", "payee_account_id", "collected_by_account_id", "target_id", "statuses", "method", "as_seller")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PAYER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYEE_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    AS_SELLER_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    payer_account_id: str
    payee_account_id: str
    collected_by_account_id: str
    target_id: str
    statuses: _containers.RepeatedScalarFieldContainer[PaymentStatus]
    method: PaymentMethod
    as_seller: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., payer_account_id: _Optional[str] = ..., payee_account_id: _Optional[str] = ..., collected_by_account_id: _Optional[str] = ..., target_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[PaymentStatus, str]]] = ..., method: _Optional[_Union[PaymentMethod, str]] = ..., as_seller: bool = ...) -> None: ...

class ListPaymentsResponse(_message.Message):
    __slots__ = ("payments", "next_page_token")
    PAYMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    payments: _containers.RepeatedCompositeFieldContainer[Payment]
    next_page_token: str
    def __init__(self, payments: _Optional[_Iterable[_Union[Payment, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RefundPaymentRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "payment_id", "amount", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    payment_id: str
    amount: _common_pb2.Money
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., payment_id: _Optional[str] = ..., amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class MarkCashCollectedRequest(_message.Message):
    __slots__ = ("marketplace_id", "payment_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    payment_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., payment_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ConfirmCashPaymentRequest(_message.Message):
    __slots__ = ("marketplace_id", "payment_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    payment_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., payment_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...
