import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CartLine(_message.Message):
    __slots__ = ("item_id", "item_type", "name", "unit_price", "quantity", "line_total", "purchasable", "image_media_id", "line_id", "options", "note", "item_price", "unavailable_reason")
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_TYPE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNIT_PRICE_FIELD_NUMBER: _ClassVar[int]
    QUANTITY_FIELD_NUMBER: _ClassVar[int]
    LINE_TOTAL_FIELD_NUMBER: _ClassVar[int]
    PURCHASABLE_FIELD_NUMBER: _ClassVar[int]
    IMAGE_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    LINE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    ITEM_PRICE_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_REASON_FIELD_NUMBER: _ClassVar[int]
    item_id: str
    item_type: _common_pb2.ResourceType
    name: str
    unit_price: _common_pb2.Money
    quantity: int
    line_total: _common_pb2.Money
    purchasable: bool
    image_media_id: str
    line_id: str
    options: _containers.RepeatedCompositeFieldContainer[CartLineOption]
    note: str
    item_price: _common_pb2.Money
    unavailable_reason: str
    def __init__(self, item_id: _Optional[str] = ..., item_type: _Optional[_Union[_common_pb2.ResourceType, str]] = ..., name: _Optional[str] = ..., unit_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., quantity: _Optional[int] = ..., line_total: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., purchasable: bool = ..., image_media_id: _Optional[str] = ..., line_id: _Optional[str] = ..., options: _Optional[_Iterable[_Union[CartLineOption, _Mapping]]] = ..., note: _Optional[str] = ..., item_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., unavailable_reason: _Optional[str] = ...) -> None: ...

class CartLineOption(_message.Message):
    __slots__ = ("group_id", "choice_id", "group_name", "choice_name", "price")
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    CHOICE_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_NAME_FIELD_NUMBER: _ClassVar[int]
    CHOICE_NAME_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    group_id: str
    choice_id: str
    group_name: str
    choice_name: str
    price: _common_pb2.Money
    def __init__(self, group_id: _Optional[str] = ..., choice_id: _Optional[str] = ..., group_name: _Optional[str] = ..., choice_name: _Optional[str] = ..., price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class Cart(_message.Message):
    __slots__ = ("id", "customer_account_id", "restaurant_id", "lines", "price", "version", "create_time", "update_time", "restaurant_name", "purchasable", "unavailable_reason")
    ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_NAME_FIELD_NUMBER: _ClassVar[int]
    PURCHASABLE_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_REASON_FIELD_NUMBER: _ClassVar[int]
    id: str
    customer_account_id: str
    restaurant_id: str
    lines: _containers.RepeatedCompositeFieldContainer[CartLine]
    price: _common_pb2.PriceBreakdown
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    restaurant_name: str
    purchasable: bool
    unavailable_reason: str
    def __init__(self, id: _Optional[str] = ..., customer_account_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., lines: _Optional[_Iterable[_Union[CartLine, _Mapping]]] = ..., price: _Optional[_Union[_common_pb2.PriceBreakdown, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., restaurant_name: _Optional[str] = ..., purchasable: bool = ..., unavailable_reason: _Optional[str] = ...) -> None: ...

class GetCartRequest(_message.Message):
    __slots__ = ("marketplace_id",)
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    def __init__(self, marketplace_id: _Optional[str] = ...) -> None: ...

class AddCartLineRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "item_id", "quantity", "expected_version", "options", "note")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    QUANTITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    item_id: str
    quantity: int
    expected_version: int
    options: _containers.RepeatedCompositeFieldContainer[CartLineOption]
    note: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., item_id: _Optional[str] = ..., quantity: _Optional[int] = ..., expected_version: _Optional[int] = ..., options: _Optional[_Iterable[_Union[CartLineOption, _Mapping]]] = ..., note: _Optional[str] = ...) -> None: ...

class UpdateCartLineRequest(_message.Message):
    __slots__ = ("marketplace_id", "line_id", "item_id", "quantity", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LINE_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    QUANTITY_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    line_id: str
    item_id: str
    quantity: int
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., line_id: _Optional[str] = ..., item_id: _Optional[str] = ..., quantity: _Optional[int] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RemoveCartLineRequest(_message.Message):
    __slots__ = ("marketplace_id", "line_id", "item_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LINE_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    line_id: str
    item_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., line_id: _Optional[str] = ..., item_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ClearCartRequest(_message.Message):
    __slots__ = ("marketplace_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...
