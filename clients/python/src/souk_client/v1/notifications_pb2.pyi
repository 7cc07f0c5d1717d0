import datetime

from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from souk_client.v1 import messaging_pb2 as _messaging_pb2
from souk_client.v1 import support_pb2 as _support_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class NotificationKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NOTIFICATION_KIND_UNSPECIFIED: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_ORDER: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_DELIVERY: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_JOB: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_BOOKING: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_BILL: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_PAYMENT: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_MESSAGE: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_SUPPORT: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_ACCOUNT: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_FEEDBACK: _ClassVar[NotificationKind]
    NOTIFICATION_KIND_ANNOUNCEMENT: _ClassVar[NotificationKind]

class NotificationCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NOTIFICATION_CATEGORY_UNSPECIFIED: _ClassVar[NotificationCategory]
    NOTIFICATION_CATEGORY_ACTIVITY: _ClassVar[NotificationCategory]
    NOTIFICATION_CATEGORY_MESSAGES: _ClassVar[NotificationCategory]
    NOTIFICATION_CATEGORY_ANNOUNCEMENTS: _ClassVar[NotificationCategory]

class DevicePlatform(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEVICE_PLATFORM_UNSPECIFIED: _ClassVar[DevicePlatform]
    DEVICE_PLATFORM_APNS: _ClassVar[DevicePlatform]
    DEVICE_PLATFORM_FCM: _ClassVar[DevicePlatform]

class PushStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PUSH_STATUS_UNSPECIFIED: _ClassVar[PushStatus]
    PUSH_STATUS_PENDING: _ClassVar[PushStatus]
    PUSH_STATUS_SENT: _ClassVar[PushStatus]
    PUSH_STATUS_FAILED: _ClassVar[PushStatus]
NOTIFICATION_KIND_UNSPECIFIED: NotificationKind
NOTIFICATION_KIND_ORDER: NotificationKind
NOTIFICATION_KIND_DELIVERY: NotificationKind
NOTIFICATION_KIND_JOB: NotificationKind
NOTIFICATION_KIND_BOOKING: NotificationKind
NOTIFICATION_KIND_BILL: NotificationKind
NOTIFICATION_KIND_PAYMENT: NotificationKind
NOTIFICATION_KIND_MESSAGE: NotificationKind
NOTIFICATION_KIND_SUPPORT: NotificationKind
NOTIFICATION_KIND_ACCOUNT: NotificationKind
NOTIFICATION_KIND_FEEDBACK: NotificationKind
NOTIFICATION_KIND_ANNOUNCEMENT: NotificationKind
NOTIFICATION_CATEGORY_UNSPECIFIED: NotificationCategory
NOTIFICATION_CATEGORY_ACTIVITY: NotificationCategory
NOTIFICATION_CATEGORY_MESSAGES: NotificationCategory
NOTIFICATION_CATEGORY_ANNOUNCEMENTS: NotificationCategory
DEVICE_PLATFORM_UNSPECIFIED: DevicePlatform
DEVICE_PLATFORM_APNS: DevicePlatform
DEVICE_PLATFORM_FCM: DevicePlatform
PUSH_STATUS_UNSPECIFIED: PushStatus
PUSH_STATUS_PENDING: PushStatus
PUSH_STATUS_SENT: PushStatus
PUSH_STATUS_FAILED: PushStatus

class Notification(_message.Message):
    __slots__ = ("id", "account_id", "kind", "category", "title", "body", "subject", "read", "read_time", "sequence", "create_time", "expire_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    READ_FIELD_NUMBER: _ClassVar[int]
    READ_TIME_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    kind: NotificationKind
    category: NotificationCategory
    title: str
    body: str
    subject: _common_pb2.ResourceRef
    read: bool
    read_time: _timestamp_pb2.Timestamp
    sequence: int
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., kind: _Optional[_Union[NotificationKind, str]] = ..., category: _Optional[_Union[NotificationCategory, str]] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., subject: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., read: bool = ..., read_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., sequence: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AccountEvent(_message.Message):
    __slots__ = ("sequence", "event_time", "notification", "read", "conversation", "ticket")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    NOTIFICATION_FIELD_NUMBER: _ClassVar[int]
    READ_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_FIELD_NUMBER: _ClassVar[int]
    TICKET_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    event_time: _timestamp_pb2.Timestamp
    notification: Notification
    read: NotificationsRead
    conversation: _messaging_pb2.Conversation
    ticket: _support_pb2.Ticket
    def __init__(self, sequence: _Optional[int] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., notification: _Optional[_Union[Notification, _Mapping]] = ..., read: _Optional[_Union[NotificationsRead, _Mapping]] = ..., conversation: _Optional[_Union[_messaging_pb2.Conversation, _Mapping]] = ..., ticket: _Optional[_Union[_support_pb2.Ticket, _Mapping]] = ...) -> None: ...

class NotificationsRead(_message.Message):
    __slots__ = ("notification_ids",)
    NOTIFICATION_IDS_FIELD_NUMBER: _ClassVar[int]
    notification_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, notification_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class NotificationSettings(_message.Message):
    __slots__ = ("muted_categories", "push_disabled", "version", "update_time", "muted_kinds")
    MUTED_CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    PUSH_DISABLED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    MUTED_KINDS_FIELD_NUMBER: _ClassVar[int]
    muted_categories: _containers.RepeatedScalarFieldContainer[NotificationCategory]
    push_disabled: bool
    version: int
    update_time: _timestamp_pb2.Timestamp
    muted_kinds: _containers.RepeatedScalarFieldContainer[NotificationKind]
    def __init__(self, muted_categories: _Optional[_Iterable[_Union[NotificationCategory, str]]] = ..., push_disabled: bool = ..., version: _Optional[int] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., muted_kinds: _Optional[_Iterable[_Union[NotificationKind, str]]] = ...) -> None: ...

class Device(_message.Message):
    __slots__ = ("id", "account_id", "platform", "token", "app_id", "device_name", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    DEVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    platform: DevicePlatform
    token: str
    app_id: str
    device_name: str
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., platform: _Optional[_Union[DevicePlatform, str]] = ..., token: _Optional[str] = ..., app_id: _Optional[str] = ..., device_name: _Optional[str] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class PushMessage(_message.Message):
    __slots__ = ("id", "notification_id", "account_id", "device_id", "platform", "token", "title", "body", "subject", "status", "attempts", "last_error", "create_time", "send_time", "version", "marketplace_id", "app_id", "collapse_id", "payload", "kind", "expire_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    NOTIFICATION_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DEVICE_ID_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    SEND_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    COLLAPSE_ID_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    notification_id: str
    account_id: str
    device_id: str
    platform: DevicePlatform
    token: str
    title: str
    body: str
    subject: _common_pb2.ResourceRef
    status: PushStatus
    attempts: int
    last_error: str
    create_time: _timestamp_pb2.Timestamp
    send_time: _timestamp_pb2.Timestamp
    version: int
    marketplace_id: str
    app_id: str
    collapse_id: str
    payload: str
    kind: NotificationKind
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., notification_id: _Optional[str] = ..., account_id: _Optional[str] = ..., device_id: _Optional[str] = ..., platform: _Optional[_Union[DevicePlatform, str]] = ..., token: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., subject: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., status: _Optional[_Union[PushStatus, str]] = ..., attempts: _Optional[int] = ..., last_error: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., send_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., marketplace_id: _Optional[str] = ..., app_id: _Optional[str] = ..., collapse_id: _Optional[str] = ..., payload: _Optional[str] = ..., kind: _Optional[_Union[NotificationKind, str]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListNotificationsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "unread_only")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    UNREAD_ONLY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    unread_only: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., unread_only: bool = ...) -> None: ...

class ListNotificationsResponse(_message.Message):
    __slots__ = ("notifications", "next_page_token", "unread_count", "last_sequence")
    NOTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    notifications: _containers.RepeatedCompositeFieldContainer[Notification]
    next_page_token: str
    unread_count: int
    last_sequence: int
    def __init__(self, notifications: _Optional[_Iterable[_Union[Notification, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., unread_count: _Optional[int] = ..., last_sequence: _Optional[int] = ...) -> None: ...

class MarkNotificationsReadRequest(_message.Message):
    __slots__ = ("marketplace_id", "notification_ids", "all")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    NOTIFICATION_IDS_FIELD_NUMBER: _ClassVar[int]
    ALL_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    notification_ids: _containers.RepeatedScalarFieldContainer[str]
    all: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., notification_ids: _Optional[_Iterable[str]] = ..., all: bool = ...) -> None: ...

class MarkNotificationsReadResponse(_message.Message):
    __slots__ = ("marked_count", "unread_count")
    MARKED_COUNT_FIELD_NUMBER: _ClassVar[int]
    UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    marked_count: int
    unread_count: int
    def __init__(self, marked_count: _Optional[int] = ..., unread_count: _Optional[int] = ...) -> None: ...

class WatchAccountRequest(_message.Message):
    __slots__ = ("marketplace_id", "resume_after_sequence")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    resume_after_sequence: int
    def __init__(self, marketplace_id: _Optional[str] = ..., resume_after_sequence: _Optional[int] = ...) -> None: ...

class GetNotificationSettingsRequest(_message.Message):
    __slots__ = ("marketplace_id",)
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    def __init__(self, marketplace_id: _Optional[str] = ...) -> None: ...

class UpdateNotificationSettingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "settings", "expected_version", "update_mask")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    settings: NotificationSettings
    expected_version: int
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, marketplace_id: _Optional[str] = ..., settings: _Optional[_Union[NotificationSettings, _Mapping]] = ..., expected_version: _Optional[int] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class RegisterDeviceRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "platform", "token", "app_id", "device_name")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    DEVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    platform: DevicePlatform
    token: str
    app_id: str
    device_name: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., platform: _Optional[_Union[DevicePlatform, str]] = ..., token: _Optional[str] = ..., app_id: _Optional[str] = ..., device_name: _Optional[str] = ...) -> None: ...

class UnregisterDeviceRequest(_message.Message):
    __slots__ = ("marketplace_id", "device_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DEVICE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    device_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., device_id: _Optional[str] = ...) -> None: ...

class UnregisterDeviceResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListDevicesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListDevicesResponse(_message.Message):
    __slots__ = ("devices", "next_page_token")
    DEVICES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    devices: _containers.RepeatedCompositeFieldContainer[Device]
    next_page_token: str
    def __init__(self, devices: _Optional[_Iterable[_Union[Device, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListPushOutboxRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "statuses")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    statuses: _containers.RepeatedScalarFieldContainer[PushStatus]
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[PushStatus, str]]] = ...) -> None: ...

class ListPushOutboxResponse(_message.Message):
    __slots__ = ("messages", "next_page_token")
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[PushMessage]
    next_page_token: str
    def __init__(self, messages: _Optional[_Iterable[_Union[PushMessage, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CompletePushRequest(_message.Message):
    __slots__ = ("push_id", "status", "error", "token_invalid", "expected_version")
    PUSH_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    TOKEN_INVALID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    push_id: str
    status: PushStatus
    error: str
    token_invalid: bool
    expected_version: int
    def __init__(self, push_id: _Optional[str] = ..., status: _Optional[_Union[PushStatus, str]] = ..., error: _Optional[str] = ..., token_invalid: bool = ..., expected_version: _Optional[int] = ...) -> None: ...
