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

class DeliveryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELIVERY_STATUS_UNSPECIFIED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_OFFERED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_ASSIGNED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_IN_PROGRESS: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_DELAYED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_COMPLETED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_REJECTED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_EXPIRED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_CANCELLED: _ClassVar[DeliveryStatus]
DELIVERY_STATUS_UNSPECIFIED: DeliveryStatus
DELIVERY_STATUS_OFFERED: DeliveryStatus
DELIVERY_STATUS_ASSIGNED: DeliveryStatus
DELIVERY_STATUS_IN_PROGRESS: DeliveryStatus
DELIVERY_STATUS_DELAYED: DeliveryStatus
DELIVERY_STATUS_COMPLETED: DeliveryStatus
DELIVERY_STATUS_REJECTED: DeliveryStatus
DELIVERY_STATUS_EXPIRED: DeliveryStatus
DELIVERY_STATUS_CANCELLED: DeliveryStatus

class Delivery(_message.Message):
    __slots__ = ("id", "order_id", "courier_account_id", "courier", "status", "dropoff_address", "pickup_address", "delivery_fee", "offer_distance_meters", "offer_expire_time", "note", "assigned_by_account_id", "dispatch_time", "completion_time", "estimated_arrival_time", "version", "create_time", "update_time", "customer", "offered_to_nearest", "available_transitions")
    ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DROPOFF_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PICKUP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_FEE_FIELD_NUMBER: _ClassVar[int]
    OFFER_DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    OFFER_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    ASSIGNED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DISPATCH_TIME_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_TIME_FIELD_NUMBER: _ClassVar[int]
    ESTIMATED_ARRIVAL_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_FIELD_NUMBER: _ClassVar[int]
    OFFERED_TO_NEAREST_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    order_id: str
    courier_account_id: str
    courier: _common_pb2.PersonSummary
    status: DeliveryStatus
    dropoff_address: _common_pb2.Address
    pickup_address: _common_pb2.Address
    delivery_fee: _common_pb2.Money
    offer_distance_meters: int
    offer_expire_time: _timestamp_pb2.Timestamp
    note: str
    assigned_by_account_id: str
    dispatch_time: _timestamp_pb2.Timestamp
    completion_time: _timestamp_pb2.Timestamp
    estimated_arrival_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    customer: _common_pb2.PersonSummary
    offered_to_nearest: bool
    available_transitions: _containers.RepeatedCompositeFieldContainer[_common_pb2.AvailableTransition]
    def __init__(self, id: _Optional[str] = ..., order_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ..., courier: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., status: _Optional[_Union[DeliveryStatus, str]] = ..., dropoff_address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., pickup_address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., delivery_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., offer_distance_meters: _Optional[int] = ..., offer_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., note: _Optional[str] = ..., assigned_by_account_id: _Optional[str] = ..., dispatch_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., completion_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., estimated_arrival_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., customer: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., offered_to_nearest: bool = ..., available_transitions: _Optional[_Iterable[_Union[_common_pb2.AvailableTransition, _Mapping]]] = ...) -> None: ...

class CourierStatus(_message.Message):
    __slots__ = ("courier_account_id", "online", "location", "location_time", "active_delivery_id", "version", "update_time")
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ONLINE_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    LOCATION_TIME_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    courier_account_id: str
    online: bool
    location: _common_pb2.GeoPoint
    location_time: _timestamp_pb2.Timestamp
    active_delivery_id: str
    version: int
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, courier_account_id: _Optional[str] = ..., online: bool = ..., location: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., location_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., active_delivery_id: _Optional[str] = ..., version: _Optional[int] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AvailableCourier(_message.Message):
    __slots__ = ("courier", "location_time", "distance_meters")
    COURIER_FIELD_NUMBER: _ClassVar[int]
    LOCATION_TIME_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    courier: _common_pb2.PersonSummary
    location_time: _timestamp_pb2.Timestamp
    distance_meters: int
    def __init__(self, courier: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., location_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., distance_meters: _Optional[int] = ...) -> None: ...

class CourierLocationEvent(_message.Message):
    __slots__ = ("sequence", "delivery_id", "courier_account_id", "location", "location_time", "remaining_distance_meters", "estimated_arrival_time")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    LOCATION_TIME_FIELD_NUMBER: _ClassVar[int]
    REMAINING_DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    ESTIMATED_ARRIVAL_TIME_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    delivery_id: str
    courier_account_id: str
    location: _common_pb2.GeoPoint
    location_time: _timestamp_pb2.Timestamp
    remaining_distance_meters: int
    estimated_arrival_time: _timestamp_pb2.Timestamp
    def __init__(self, sequence: _Optional[int] = ..., delivery_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ..., location: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., location_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., remaining_distance_meters: _Optional[int] = ..., estimated_arrival_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AssignDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "order_id", "courier_account_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    order_id: str
    courier_account_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., order_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ...) -> None: ...

class OfferDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "order_id", "courier_account_id", "nearest_available")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NEAREST_AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    order_id: str
    courier_account_id: str
    nearest_available: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., order_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ..., nearest_available: bool = ...) -> None: ...

class AcceptDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RejectDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class StartDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DelayDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id", "note", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    note: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ..., note: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CompleteDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CancelDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class GetDeliveryRequest(_message.Message):
    __slots__ = ("marketplace_id", "delivery_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    delivery_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., delivery_id: _Optional[str] = ...) -> None: ...

class ListDeliveriesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "courier_account_id", "order_id", "statuses")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    courier_account_id: str
    order_id: str
    statuses: _containers.RepeatedScalarFieldContainer[DeliveryStatus]
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., courier_account_id: _Optional[str] = ..., order_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[DeliveryStatus, str]]] = ...) -> None: ...

class ListDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries", "next_page_token")
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[Delivery]
    next_page_token: str
    def __init__(self, deliveries: _Optional[_Iterable[_Union[Delivery, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SetCourierAvailabilityRequest(_message.Message):
    __slots__ = ("marketplace_id", "online", "location")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ONLINE_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    online: bool
    location: _common_pb2.GeoPoint
    def __init__(self, marketplace_id: _Optional[str] = ..., online: bool = ..., location: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ...) -> None: ...

class GetCourierStatusRequest(_message.Message):
    __slots__ = ("marketplace_id", "courier_account_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    COURIER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    courier_account_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., courier_account_id: _Optional[str] = ...) -> None: ...

class ReportLocationRequest(_message.Message):
    __slots__ = ("marketplace_id", "location", "location_time", "accuracy_meters")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    LOCATION_TIME_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_METERS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    location: _common_pb2.GeoPoint
    location_time: _timestamp_pb2.Timestamp
    accuracy_meters: int
    def __init__(self, marketplace_id: _Optional[str] = ..., location: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., location_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., accuracy_meters: _Optional[int] = ...) -> None: ...

class UpdateCourierLocationRequest(_message.Message):
    __slots__ = ("marketplace_id", "location", "location_time", "accuracy_meters")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    LOCATION_TIME_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_METERS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    location: _common_pb2.GeoPoint
    location_time: _timestamp_pb2.Timestamp
    accuracy_meters: int
    def __init__(self, marketplace_id: _Optional[str] = ..., location: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., location_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., accuracy_meters: _Optional[int] = ...) -> None: ...

class ReportLocationResponse(_message.Message):
    __slots__ = ("accepted_count", "dropped_count")
    ACCEPTED_COUNT_FIELD_NUMBER: _ClassVar[int]
    DROPPED_COUNT_FIELD_NUMBER: _ClassVar[int]
    accepted_count: int
    dropped_count: int
    def __init__(self, accepted_count: _Optional[int] = ..., dropped_count: _Optional[int] = ...) -> None: ...

class ListAvailableCouriersRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "order_id", "radius_meters")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    order_id: str
    radius_meters: int
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., order_id: _Optional[str] = ..., radius_meters: _Optional[int] = ...) -> None: ...

class ListAvailableCouriersResponse(_message.Message):
    __slots__ = ("couriers", "next_page_token")
    COURIERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    couriers: _containers.RepeatedCompositeFieldContainer[AvailableCourier]
    next_page_token: str
    def __init__(self, couriers: _Optional[_Iterable[_Union[AvailableCourier, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchCourierLocationRequest(_message.Message):
    __slots__ = ("marketplace_id", "order_id", "resume_after_sequence")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    order_id: str
    resume_after_sequence: int
    def __init__(self, marketplace_id: _Optional[str] = ..., order_id: _Optional[str] = ..., resume_after_sequence: _Optional[int] = ...) -> None: ...
