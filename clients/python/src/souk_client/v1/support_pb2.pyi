import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from souk_client.v1 import messaging_pb2 as _messaging_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TicketStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_STATUS_UNSPECIFIED: _ClassVar[TicketStatus]
    TICKET_STATUS_OPEN: _ClassVar[TicketStatus]
    TICKET_STATUS_ANSWERED: _ClassVar[TicketStatus]
    TICKET_STATUS_CLOSED: _ClassVar[TicketStatus]

class TicketTopic(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_TOPIC_UNSPECIFIED: _ClassVar[TicketTopic]
    TICKET_TOPIC_ACCOUNT: _ClassVar[TicketTopic]
    TICKET_TOPIC_ORDER: _ClassVar[TicketTopic]
    TICKET_TOPIC_PAYMENT: _ClassVar[TicketTopic]
    TICKET_TOPIC_DELIVERY: _ClassVar[TicketTopic]
    TICKET_TOPIC_LAUNDRY_JOB: _ClassVar[TicketTopic]
    TICKET_TOPIC_RENTAL: _ClassVar[TicketTopic]
    TICKET_TOPIC_COMPLAINT: _ClassVar[TicketTopic]
    TICKET_TOPIC_OTHER: _ClassVar[TicketTopic]
TICKET_STATUS_UNSPECIFIED: TicketStatus
TICKET_STATUS_OPEN: TicketStatus
TICKET_STATUS_ANSWERED: TicketStatus
TICKET_STATUS_CLOSED: TicketStatus
TICKET_TOPIC_UNSPECIFIED: TicketTopic
TICKET_TOPIC_ACCOUNT: TicketTopic
TICKET_TOPIC_ORDER: TicketTopic
TICKET_TOPIC_PAYMENT: TicketTopic
TICKET_TOPIC_DELIVERY: TicketTopic
TICKET_TOPIC_LAUNDRY_JOB: TicketTopic
TICKET_TOPIC_RENTAL: TicketTopic
TICKET_TOPIC_COMPLAINT: TicketTopic
TICKET_TOPIC_OTHER: TicketTopic

class Ticket(_message.Message):
    __slots__ = ("id", "author_account_id", "author_role", "contact_email", "contact_name", "topic", "subject", "related", "status", "message_count", "version", "create_time", "update_time", "waiting_since", "response_due_time", "overdue")
    ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTACT_EMAIL_FIELD_NUMBER: _ClassVar[int]
    CONTACT_NAME_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    RELATED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_COUNT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    WAITING_SINCE_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_DUE_TIME_FIELD_NUMBER: _ClassVar[int]
    OVERDUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    author_account_id: str
    author_role: _common_pb2.Role
    contact_email: str
    contact_name: str
    topic: TicketTopic
    subject: str
    related: _common_pb2.ResourceRef
    status: TicketStatus
    message_count: int
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    waiting_since: _timestamp_pb2.Timestamp
    response_due_time: _timestamp_pb2.Timestamp
    overdue: bool
    def __init__(self, id: _Optional[str] = ..., author_account_id: _Optional[str] = ..., author_role: _Optional[_Union[_common_pb2.Role, str]] = ..., contact_email: _Optional[str] = ..., contact_name: _Optional[str] = ..., topic: _Optional[_Union[TicketTopic, str]] = ..., subject: _Optional[str] = ..., related: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., status: _Optional[_Union[TicketStatus, str]] = ..., message_count: _Optional[int] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., waiting_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., response_due_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., overdue: bool = ...) -> None: ...

class TicketMessage(_message.Message):
    __slots__ = ("id", "ticket_id", "author_account_id", "from_admin", "text", "attachments", "create_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_ADMIN_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ATTACHMENTS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    ticket_id: str
    author_account_id: str
    from_admin: bool
    text: str
    attachments: _containers.RepeatedCompositeFieldContainer[_messaging_pb2.Attachment]
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., ticket_id: _Optional[str] = ..., author_account_id: _Optional[str] = ..., from_admin: bool = ..., text: _Optional[str] = ..., attachments: _Optional[_Iterable[_Union[_messaging_pb2.Attachment, _Mapping]]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateTicketRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "subject", "text", "topic", "related", "acting_role", "contact_email", "contact_name", "attachments")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    RELATED_FIELD_NUMBER: _ClassVar[int]
    ACTING_ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTACT_EMAIL_FIELD_NUMBER: _ClassVar[int]
    CONTACT_NAME_FIELD_NUMBER: _ClassVar[int]
    ATTACHMENTS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    subject: str
    text: str
    topic: TicketTopic
    related: _common_pb2.ResourceRef
    acting_role: _common_pb2.Role
    contact_email: str
    contact_name: str
    attachments: _containers.RepeatedCompositeFieldContainer[_messaging_pb2.Attachment]
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., subject: _Optional[str] = ..., text: _Optional[str] = ..., topic: _Optional[_Union[TicketTopic, str]] = ..., related: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., acting_role: _Optional[_Union[_common_pb2.Role, str]] = ..., contact_email: _Optional[str] = ..., contact_name: _Optional[str] = ..., attachments: _Optional[_Iterable[_Union[_messaging_pb2.Attachment, _Mapping]]] = ...) -> None: ...

class GetTicketRequest(_message.Message):
    __slots__ = ("marketplace_id", "ticket_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    ticket_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., ticket_id: _Optional[str] = ...) -> None: ...

class ListTicketsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "author_account_id", "author_role", "statuses", "topics", "created_after", "created_before", "order_by", "overdue")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ROLE_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    TOPICS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AFTER_FIELD_NUMBER: _ClassVar[int]
    CREATED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    OVERDUE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    author_account_id: str
    author_role: _common_pb2.Role
    statuses: _containers.RepeatedScalarFieldContainer[TicketStatus]
    topics: _containers.RepeatedScalarFieldContainer[TicketTopic]
    created_after: _timestamp_pb2.Timestamp
    created_before: _timestamp_pb2.Timestamp
    order_by: str
    overdue: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., author_account_id: _Optional[str] = ..., author_role: _Optional[_Union[_common_pb2.Role, str]] = ..., statuses: _Optional[_Iterable[_Union[TicketStatus, str]]] = ..., topics: _Optional[_Iterable[_Union[TicketTopic, str]]] = ..., created_after: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_before: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., order_by: _Optional[str] = ..., overdue: bool = ...) -> None: ...

class ListTicketsResponse(_message.Message):
    __slots__ = ("tickets", "next_page_token", "response_target")
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_TARGET_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[Ticket]
    next_page_token: str
    response_target: _duration_pb2.Duration
    def __init__(self, tickets: _Optional[_Iterable[_Union[Ticket, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., response_target: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class AddTicketMessageRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "ticket_id", "text", "attachments")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ATTACHMENTS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    ticket_id: str
    text: str
    attachments: _containers.RepeatedCompositeFieldContainer[_messaging_pb2.Attachment]
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., ticket_id: _Optional[str] = ..., text: _Optional[str] = ..., attachments: _Optional[_Iterable[_Union[_messaging_pb2.Attachment, _Mapping]]] = ...) -> None: ...

class ListTicketMessagesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "ticket_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    ticket_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., ticket_id: _Optional[str] = ...) -> None: ...

class ListTicketMessagesResponse(_message.Message):
    __slots__ = ("messages", "next_page_token")
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[TicketMessage]
    next_page_token: str
    def __init__(self, messages: _Optional[_Iterable[_Union[TicketMessage, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CloseTicketRequest(_message.Message):
    __slots__ = ("marketplace_id", "ticket_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    ticket_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., ticket_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...
