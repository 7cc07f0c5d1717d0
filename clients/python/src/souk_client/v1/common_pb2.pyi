import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class FeeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FEE_KIND_UNSPECIFIED: _ClassVar[FeeKind]
    FEE_KIND_SHIPPING: _ClassVar[FeeKind]
    FEE_KIND_DELIVERY: _ClassVar[FeeKind]
    FEE_KIND_SERVICE: _ClassVar[FeeKind]
    FEE_KIND_ADD_ON: _ClassVar[FeeKind]

class Role(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_UNSPECIFIED: _ClassVar[Role]
    ROLE_CUSTOMER: _ClassVar[Role]
    ROLE_PROVIDER: _ClassVar[Role]
    ROLE_COURIER: _ClassVar[Role]
    ROLE_ADMIN: _ClassVar[Role]
    ROLE_OPERATOR: _ClassVar[Role]
    ROLE_PUSH_ADAPTER: _ClassVar[Role]

class ResourceType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESOURCE_TYPE_UNSPECIFIED: _ClassVar[ResourceType]
    RESOURCE_TYPE_MARKETPLACE: _ClassVar[ResourceType]
    RESOURCE_TYPE_ACCOUNT: _ClassVar[ResourceType]
    RESOURCE_TYPE_ADDRESS: _ClassVar[ResourceType]
    RESOURCE_TYPE_SERVICE: _ClassVar[ResourceType]
    RESOURCE_TYPE_PRODUCT: _ClassVar[ResourceType]
    RESOURCE_TYPE_RESTAURANT: _ClassVar[ResourceType]
    RESOURCE_TYPE_MENU_ITEM: _ClassVar[ResourceType]
    RESOURCE_TYPE_CART: _ClassVar[ResourceType]
    RESOURCE_TYPE_ORDER: _ClassVar[ResourceType]
    RESOURCE_TYPE_PAYMENT: _ClassVar[ResourceType]
    RESOURCE_TYPE_DELIVERY: _ClassVar[ResourceType]
    RESOURCE_TYPE_FEEDBACK: _ClassVar[ResourceType]
    RESOURCE_TYPE_DORM: _ClassVar[ResourceType]
    RESOURCE_TYPE_JOB: _ClassVar[ResourceType]
    RESOURCE_TYPE_LISTING: _ClassVar[ResourceType]
    RESOURCE_TYPE_PLACE: _ClassVar[ResourceType]
    RESOURCE_TYPE_BOOKING: _ClassVar[ResourceType]
    RESOURCE_TYPE_BILL: _ClassVar[ResourceType]
    RESOURCE_TYPE_CONVERSATION: _ClassVar[ResourceType]
    RESOURCE_TYPE_MESSAGE: _ClassVar[ResourceType]
    RESOURCE_TYPE_NOTIFICATION: _ClassVar[ResourceType]
    RESOURCE_TYPE_TICKET: _ClassVar[ResourceType]
    RESOURCE_TYPE_ANNOUNCEMENT: _ClassVar[ResourceType]
    RESOURCE_TYPE_POLICY: _ClassVar[ResourceType]
    RESOURCE_TYPE_ADVERTISEMENT: _ClassVar[ResourceType]
    RESOURCE_TYPE_DEVICE: _ClassVar[ResourceType]
    RESOURCE_TYPE_QUIZ_QUESTION: _ClassVar[ResourceType]
    RESOURCE_TYPE_REGION: _ClassVar[ResourceType]

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_FIELD_INVALID: _ClassVar[ErrorReason]
    ERROR_REASON_STALE_VERSION: _ClassVar[ErrorReason]
    ERROR_REASON_REQUEST_ID_REUSED: _ClassVar[ErrorReason]
    ERROR_REASON_WRONG_VERTICAL: _ClassVar[ErrorReason]
    ERROR_REASON_MARKETPLACE_MISMATCH: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_ALLOWED: _ClassVar[ErrorReason]
    ERROR_REASON_ROLE_PENDING: _ClassVar[ErrorReason]
    ERROR_REASON_ACCOUNT_BLOCKED: _ClassVar[ErrorReason]
    ERROR_REASON_ACCOUNT_LOCKED: _ClassVar[ErrorReason]
    ERROR_REASON_BAD_CREDENTIALS: _ClassVar[ErrorReason]
    ERROR_REASON_EMAIL_TAKEN: _ClassVar[ErrorReason]
    ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED: _ClassVar[ErrorReason]
    ERROR_REASON_WEAK_PASSWORD: _ClassVar[ErrorReason]
    ERROR_REASON_TOKEN_INVALID: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_TRANSITION: _ClassVar[ErrorReason]
    ERROR_REASON_CART_LINE_EXISTS: _ClassVar[ErrorReason]
    ERROR_REASON_QUANTITY_LIMIT: _ClassVar[ErrorReason]
    ERROR_REASON_CART_OTHER_RESTAURANT: _ClassVar[ErrorReason]
    ERROR_REASON_CART_EMPTY: _ClassVar[ErrorReason]
    ERROR_REASON_OUT_OF_STOCK: _ClassVar[ErrorReason]
    ERROR_REASON_ITEM_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_RESTAURANT_CLOSED: _ClassVar[ErrorReason]
    ERROR_REASON_ADDRESS_NOT_CONFIRMED: _ClassVar[ErrorReason]
    ERROR_REASON_CARD_INVALID: _ClassVar[ErrorReason]
    ERROR_REASON_PAYMENT_DECLINED: _ClassVar[ErrorReason]
    ERROR_REASON_PAYMENT_METHOD_NOT_ACCEPTED: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_PAID: _ClassVar[ErrorReason]
    ERROR_REASON_CANCEL_NOT_ALLOWED: _ClassVar[ErrorReason]
    ERROR_REASON_STAGE_NOT_NEXT: _ClassVar[ErrorReason]
    ERROR_REASON_FINAL_COST_REQUIRED: _ClassVar[ErrorReason]
    ERROR_REASON_DASHER_NOT_ACCEPTING: _ClassVar[ErrorReason]
    ERROR_REASON_LEASE_TOO_SHORT: _ClassVar[ErrorReason]
    ERROR_REASON_LISTING_LEASED: _ClassVar[ErrorReason]
    ERROR_REASON_COURIER_OFFLINE: _ClassVar[ErrorReason]
    ERROR_REASON_NO_COURIER_AVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_RATED: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_RATABLE: _ClassVar[ErrorReason]
    ERROR_REASON_EVENTS_EXPIRED: _ClassVar[ErrorReason]
    ERROR_REASON_DUPLICATE: _ClassVar[ErrorReason]
    ERROR_REASON_OPEN_OBLIGATIONS: _ClassVar[ErrorReason]
    ERROR_REASON_RESOURCE_NOT_FOUND: _ClassVar[ErrorReason]
    ERROR_REASON_CONCURRENT_CHANGE: _ClassVar[ErrorReason]
    ERROR_REASON_MARKETPLACE_ARCHIVED: _ClassVar[ErrorReason]
    ERROR_REASON_SELF_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_IMPLEMENTED: _ClassVar[ErrorReason]
    ERROR_REASON_MESSAGE_TOO_LARGE: _ClassVar[ErrorReason]
    ERROR_REASON_DEADLINE_EXCEEDED: _ClassVar[ErrorReason]
    ERROR_REASON_CANCELLED: _ClassVar[ErrorReason]
    ERROR_REASON_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_INTERNAL_ERROR: _ClassVar[ErrorReason]
    ERROR_REASON_TOO_LARGE: _ClassVar[ErrorReason]
    ERROR_REASON_WINDOW_FULL: _ClassVar[ErrorReason]
    ERROR_REASON_PAYMENT_TOKEN_INVALID: _ClassVar[ErrorReason]
    ERROR_REASON_FINAL_PRICE_UNCONFIRMED: _ClassVar[ErrorReason]
    ERROR_REASON_EMAIL_NOT_VERIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_QUIZ_RETRY_TOO_SOON: _ClassVar[ErrorReason]
    ERROR_REASON_VERIFICATION_CODE_LIMIT: _ClassVar[ErrorReason]
    ERROR_REASON_TOO_MANY_STREAMS: _ClassVar[ErrorReason]
    ERROR_REASON_SIGN_IN_REQUIRED: _ClassVar[ErrorReason]
    ERROR_REASON_TOKEN_EXPIRED: _ClassVar[ErrorReason]
    ERROR_REASON_SESSION_REVOKED: _ClassVar[ErrorReason]
    ERROR_REASON_RATE_LIMITED: _ClassVar[ErrorReason]
    ERROR_REASON_JOB_NOT_OFFERED: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_PAID: _ClassVar[ErrorReason]
    ERROR_REASON_DISPUTE_WINDOW_CLOSED: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_DISPUTED: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_DASHER: _ClassVar[ErrorReason]
    ERROR_REASON_QUIZ_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_LAUNDRY_PROFILE_REQUIRED: _ClassVar[ErrorReason]
    ERROR_REASON_DASHER_PROFILE_REQUIRED: _ClassVar[ErrorReason]
    ERROR_REASON_IN_USE: _ClassVar[ErrorReason]
    ERROR_REASON_COURIER_BLOCKED: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_A_COURIER: _ClassVar[ErrorReason]
    ERROR_REASON_COURIER_ROLE_PENDING: _ClassVar[ErrorReason]
    ERROR_REASON_DELIVERY_OPEN: _ClassVar[ErrorReason]
    ERROR_REASON_COURIER_BUSY: _ClassVar[ErrorReason]
    ERROR_REASON_COURIER_DECLINED_ORDER: _ClassVar[ErrorReason]
    ERROR_REASON_OFFER_EXPIRED: _ClassVar[ErrorReason]
    ERROR_REASON_NO_DELIVERY_IN_PROGRESS: _ClassVar[ErrorReason]
    ERROR_REASON_ARCHIVED: _ClassVar[ErrorReason]
    ERROR_REASON_RESTAURANT_NOT_APPROVED: _ClassVar[ErrorReason]
    ERROR_REASON_OWNER_NOT_ELIGIBLE: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_CASH_PAYMENT: _ClassVar[ErrorReason]
    ERROR_REASON_CASH_NOT_COLLECTED: _ClassVar[ErrorReason]
    ERROR_REASON_ORDER_NOT_DELIVERED: _ClassVar[ErrorReason]
    ERROR_REASON_ORDERS_IN_PROGRESS: _ClassVar[ErrorReason]
    ERROR_REASON_PUSH_ALREADY_COMPLETED: _ClassVar[ErrorReason]
    ERROR_REASON_OVERLOADED: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_A_PARTY: _ClassVar[ErrorReason]
    ERROR_REASON_SUPPORT_NEEDS_ADMIN: _ClassVar[ErrorReason]
    ERROR_REASON_TICKET_CLOSED: _ClassVar[ErrorReason]
    ERROR_REASON_READER_TOO_SLOW: _ClassVar[ErrorReason]
FEE_KIND_UNSPECIFIED: FeeKind
FEE_KIND_SHIPPING: FeeKind
FEE_KIND_DELIVERY: FeeKind
FEE_KIND_SERVICE: FeeKind
FEE_KIND_ADD_ON: FeeKind
ROLE_UNSPECIFIED: Role
ROLE_CUSTOMER: Role
ROLE_PROVIDER: Role
ROLE_COURIER: Role
ROLE_ADMIN: Role
ROLE_OPERATOR: Role
ROLE_PUSH_ADAPTER: Role
RESOURCE_TYPE_UNSPECIFIED: ResourceType
RESOURCE_TYPE_MARKETPLACE: ResourceType
RESOURCE_TYPE_ACCOUNT: ResourceType
RESOURCE_TYPE_ADDRESS: ResourceType
RESOURCE_TYPE_SERVICE: ResourceType
RESOURCE_TYPE_PRODUCT: ResourceType
RESOURCE_TYPE_RESTAURANT: ResourceType
RESOURCE_TYPE_MENU_ITEM: ResourceType
RESOURCE_TYPE_CART: ResourceType
RESOURCE_TYPE_ORDER: ResourceType
RESOURCE_TYPE_PAYMENT: ResourceType
RESOURCE_TYPE_DELIVERY: ResourceType
RESOURCE_TYPE_FEEDBACK: ResourceType
RESOURCE_TYPE_DORM: ResourceType
RESOURCE_TYPE_JOB: ResourceType
RESOURCE_TYPE_LISTING: ResourceType
RESOURCE_TYPE_PLACE: ResourceType
RESOURCE_TYPE_BOOKING: ResourceType
RESOURCE_TYPE_BILL: ResourceType
RESOURCE_TYPE_CONVERSATION: ResourceType
RESOURCE_TYPE_MESSAGE: ResourceType
RESOURCE_TYPE_NOTIFICATION: ResourceType
RESOURCE_TYPE_TICKET: ResourceType
RESOURCE_TYPE_ANNOUNCEMENT: ResourceType
RESOURCE_TYPE_POLICY: ResourceType
RESOURCE_TYPE_ADVERTISEMENT: ResourceType
RESOURCE_TYPE_DEVICE: ResourceType
RESOURCE_TYPE_QUIZ_QUESTION: ResourceType
RESOURCE_TYPE_REGION: ResourceType
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_FIELD_INVALID: ErrorReason
ERROR_REASON_STALE_VERSION: ErrorReason
ERROR_REASON_REQUEST_ID_REUSED: ErrorReason
ERROR_REASON_WRONG_VERTICAL: ErrorReason
ERROR_REASON_MARKETPLACE_MISMATCH: ErrorReason
ERROR_REASON_NOT_ALLOWED: ErrorReason
ERROR_REASON_ROLE_PENDING: ErrorReason
ERROR_REASON_ACCOUNT_BLOCKED: ErrorReason
ERROR_REASON_ACCOUNT_LOCKED: ErrorReason
ERROR_REASON_BAD_CREDENTIALS: ErrorReason
ERROR_REASON_EMAIL_TAKEN: ErrorReason
ERROR_REASON_EMAIL_DOMAIN_NOT_ALLOWED: ErrorReason
ERROR_REASON_WEAK_PASSWORD: ErrorReason
ERROR_REASON_TOKEN_INVALID: ErrorReason
ERROR_REASON_INVALID_TRANSITION: ErrorReason
ERROR_REASON_CART_LINE_EXISTS: ErrorReason
ERROR_REASON_QUANTITY_LIMIT: ErrorReason
ERROR_REASON_CART_OTHER_RESTAURANT: ErrorReason
ERROR_REASON_CART_EMPTY: ErrorReason
ERROR_REASON_OUT_OF_STOCK: ErrorReason
ERROR_REASON_ITEM_UNAVAILABLE: ErrorReason
ERROR_REASON_RESTAURANT_CLOSED: ErrorReason
ERROR_REASON_ADDRESS_NOT_CONFIRMED: ErrorReason
ERROR_REASON_CARD_INVALID: ErrorReason
ERROR_REASON_PAYMENT_DECLINED: ErrorReason
ERROR_REASON_PAYMENT_METHOD_NOT_ACCEPTED: ErrorReason
ERROR_REASON_ALREADY_PAID: ErrorReason
ERROR_REASON_CANCEL_NOT_ALLOWED: ErrorReason
ERROR_REASON_STAGE_NOT_NEXT: ErrorReason
ERROR_REASON_FINAL_COST_REQUIRED: ErrorReason
ERROR_REASON_DASHER_NOT_ACCEPTING: ErrorReason
ERROR_REASON_LEASE_TOO_SHORT: ErrorReason
ERROR_REASON_LISTING_LEASED: ErrorReason
ERROR_REASON_COURIER_OFFLINE: ErrorReason
ERROR_REASON_NO_COURIER_AVAILABLE: ErrorReason
ERROR_REASON_ALREADY_RATED: ErrorReason
ERROR_REASON_NOT_RATABLE: ErrorReason
ERROR_REASON_EVENTS_EXPIRED: ErrorReason
ERROR_REASON_DUPLICATE: ErrorReason
ERROR_REASON_OPEN_OBLIGATIONS: ErrorReason
ERROR_REASON_RESOURCE_NOT_FOUND: ErrorReason
ERROR_REASON_CONCURRENT_CHANGE: ErrorReason
ERROR_REASON_MARKETPLACE_ARCHIVED: ErrorReason
ERROR_REASON_SELF_ACTION: ErrorReason
ERROR_REASON_NOT_IMPLEMENTED: ErrorReason
ERROR_REASON_MESSAGE_TOO_LARGE: ErrorReason
ERROR_REASON_DEADLINE_EXCEEDED: ErrorReason
ERROR_REASON_CANCELLED: ErrorReason
ERROR_REASON_UNAVAILABLE: ErrorReason
ERROR_REASON_INTERNAL_ERROR: ErrorReason
ERROR_REASON_TOO_LARGE: ErrorReason
ERROR_REASON_WINDOW_FULL: ErrorReason
ERROR_REASON_PAYMENT_TOKEN_INVALID: ErrorReason
ERROR_REASON_FINAL_PRICE_UNCONFIRMED: ErrorReason
ERROR_REASON_EMAIL_NOT_VERIFIED: ErrorReason
ERROR_REASON_QUIZ_RETRY_TOO_SOON: ErrorReason
ERROR_REASON_VERIFICATION_CODE_LIMIT: ErrorReason
ERROR_REASON_TOO_MANY_STREAMS: ErrorReason
ERROR_REASON_SIGN_IN_REQUIRED: ErrorReason
ERROR_REASON_TOKEN_EXPIRED: ErrorReason
ERROR_REASON_SESSION_REVOKED: ErrorReason
ERROR_REASON_RATE_LIMITED: ErrorReason
ERROR_REASON_JOB_NOT_OFFERED: ErrorReason
ERROR_REASON_NOT_PAID: ErrorReason
ERROR_REASON_DISPUTE_WINDOW_CLOSED: ErrorReason
ERROR_REASON_ALREADY_DISPUTED: ErrorReason
ERROR_REASON_ALREADY_DASHER: ErrorReason
ERROR_REASON_QUIZ_UNAVAILABLE: ErrorReason
ERROR_REASON_LAUNDRY_PROFILE_REQUIRED: ErrorReason
ERROR_REASON_DASHER_PROFILE_REQUIRED: ErrorReason
ERROR_REASON_IN_USE: ErrorReason
ERROR_REASON_COURIER_BLOCKED: ErrorReason
ERROR_REASON_NOT_A_COURIER: ErrorReason
ERROR_REASON_COURIER_ROLE_PENDING: ErrorReason
ERROR_REASON_DELIVERY_OPEN: ErrorReason
ERROR_REASON_COURIER_BUSY: ErrorReason
ERROR_REASON_COURIER_DECLINED_ORDER: ErrorReason
ERROR_REASON_OFFER_EXPIRED: ErrorReason
ERROR_REASON_NO_DELIVERY_IN_PROGRESS: ErrorReason
ERROR_REASON_ARCHIVED: ErrorReason
ERROR_REASON_RESTAURANT_NOT_APPROVED: ErrorReason
ERROR_REASON_OWNER_NOT_ELIGIBLE: ErrorReason
ERROR_REASON_NOT_CASH_PAYMENT: ErrorReason
ERROR_REASON_CASH_NOT_COLLECTED: ErrorReason
ERROR_REASON_ORDER_NOT_DELIVERED: ErrorReason
ERROR_REASON_ORDERS_IN_PROGRESS: ErrorReason
ERROR_REASON_PUSH_ALREADY_COMPLETED: ErrorReason
ERROR_REASON_OVERLOADED: ErrorReason
ERROR_REASON_NOT_A_PARTY: ErrorReason
ERROR_REASON_SUPPORT_NEEDS_ADMIN: ErrorReason
ERROR_REASON_TICKET_CLOSED: ErrorReason
ERROR_REASON_READER_TOO_SLOW: ErrorReason

class Money(_message.Message):
    __slots__ = ("amount_minor", "currency_code")
    AMOUNT_MINOR_FIELD_NUMBER: _ClassVar[int]
    CURRENCY_CODE_FIELD_NUMBER: _ClassVar[int]
    amount_minor: int
    currency_code: str
    def __init__(self, amount_minor: _Optional[int] = ..., currency_code: _Optional[str] = ...) -> None: ...

class GeoPoint(_message.Message):
    __slots__ = ("latitude", "longitude")
    LATITUDE_FIELD_NUMBER: _ClassVar[int]
    LONGITUDE_FIELD_NUMBER: _ClassVar[int]
    latitude: float
    longitude: float
    def __init__(self, latitude: _Optional[float] = ..., longitude: _Optional[float] = ...) -> None: ...

class Date(_message.Message):
    __slots__ = ("year", "month", "day")
    YEAR_FIELD_NUMBER: _ClassVar[int]
    MONTH_FIELD_NUMBER: _ClassVar[int]
    DAY_FIELD_NUMBER: _ClassVar[int]
    year: int
    month: int
    day: int
    def __init__(self, year: _Optional[int] = ..., month: _Optional[int] = ..., day: _Optional[int] = ...) -> None: ...

class TimeWindow(_message.Message):
    __slots__ = ("start_time", "end_time")
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Address(_message.Message):
    __slots__ = ("label", "recipient_name", "phone", "line1", "line2", "city", "region", "postal_code", "country_code", "location", "delivery_notes")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    RECIPIENT_NAME_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    LINE1_FIELD_NUMBER: _ClassVar[int]
    LINE2_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    POSTAL_CODE_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_CODE_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_NOTES_FIELD_NUMBER: _ClassVar[int]
    label: str
    recipient_name: str
    phone: str
    line1: str
    line2: str
    city: str
    region: str
    postal_code: str
    country_code: str
    location: GeoPoint
    delivery_notes: str
    def __init__(self, label: _Optional[str] = ..., recipient_name: _Optional[str] = ..., phone: _Optional[str] = ..., line1: _Optional[str] = ..., line2: _Optional[str] = ..., city: _Optional[str] = ..., region: _Optional[str] = ..., postal_code: _Optional[str] = ..., country_code: _Optional[str] = ..., location: _Optional[_Union[GeoPoint, _Mapping]] = ..., delivery_notes: _Optional[str] = ...) -> None: ...

class Fee(_message.Message):
    __slots__ = ("kind", "label", "amount")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    kind: FeeKind
    label: str
    amount: Money
    def __init__(self, kind: _Optional[_Union[FeeKind, str]] = ..., label: _Optional[str] = ..., amount: _Optional[_Union[Money, _Mapping]] = ...) -> None: ...

class PriceBreakdown(_message.Message):
    __slots__ = ("subtotal", "tax_rate_bps", "tax", "fees", "fees_total", "total")
    SUBTOTAL_FIELD_NUMBER: _ClassVar[int]
    TAX_RATE_BPS_FIELD_NUMBER: _ClassVar[int]
    TAX_FIELD_NUMBER: _ClassVar[int]
    FEES_FIELD_NUMBER: _ClassVar[int]
    FEES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    subtotal: Money
    tax_rate_bps: int
    tax: Money
    fees: _containers.RepeatedCompositeFieldContainer[Fee]
    fees_total: Money
    total: Money
    def __init__(self, subtotal: _Optional[_Union[Money, _Mapping]] = ..., tax_rate_bps: _Optional[int] = ..., tax: _Optional[_Union[Money, _Mapping]] = ..., fees: _Optional[_Iterable[_Union[Fee, _Mapping]]] = ..., fees_total: _Optional[_Union[Money, _Mapping]] = ..., total: _Optional[_Union[Money, _Mapping]] = ...) -> None: ...

class PersonSummary(_message.Message):
    __slots__ = ("account_id", "display_name", "avatar_media_id", "rating")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    AVATAR_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    display_name: str
    avatar_media_id: str
    rating: RatingSummary
    def __init__(self, account_id: _Optional[str] = ..., display_name: _Optional[str] = ..., avatar_media_id: _Optional[str] = ..., rating: _Optional[_Union[RatingSummary, _Mapping]] = ...) -> None: ...

class RatingSummary(_message.Message):
    __slots__ = ("count", "average_hundredths")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    AVERAGE_HUNDREDTHS_FIELD_NUMBER: _ClassVar[int]
    count: int
    average_hundredths: int
    def __init__(self, count: _Optional[int] = ..., average_hundredths: _Optional[int] = ...) -> None: ...

class ResourceRef(_message.Message):
    __slots__ = ("type", "id")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    type: ResourceType
    id: str
    def __init__(self, type: _Optional[_Union[ResourceType, str]] = ..., id: _Optional[str] = ...) -> None: ...

class AuditEntry(_message.Message):
    __slots__ = ("id", "resource", "actor_account_id", "actor_role", "action", "from_state", "to_state", "reason", "resource_version", "request_id", "create_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ROLE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    FROM_STATE_FIELD_NUMBER: _ClassVar[int]
    TO_STATE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    resource: ResourceRef
    actor_account_id: str
    actor_role: Role
    action: str
    from_state: str
    to_state: str
    reason: str
    resource_version: int
    request_id: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., resource: _Optional[_Union[ResourceRef, _Mapping]] = ..., actor_account_id: _Optional[str] = ..., actor_role: _Optional[_Union[Role, str]] = ..., action: _Optional[str] = ..., from_state: _Optional[str] = ..., to_state: _Optional[str] = ..., reason: _Optional[str] = ..., resource_version: _Optional[int] = ..., request_id: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AvailableTransition(_message.Message):
    __slots__ = ("name", "to_state")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TO_STATE_FIELD_NUMBER: _ClassVar[int]
    name: str
    to_state: str
    def __init__(self, name: _Optional[str] = ..., to_state: _Optional[str] = ...) -> None: ...

class Translation(_message.Message):
    __slots__ = ("language_code", "name", "description")
    LANGUAGE_CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    language_code: str
    name: str
    description: str
    def __init__(self, language_code: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...
