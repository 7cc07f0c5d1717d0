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

class TypingState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TYPING_STATE_UNSPECIFIED: _ClassVar[TypingState]
    TYPING_STATE_TYPING: _ClassVar[TypingState]
    TYPING_STATE_STOPPED: _ClassVar[TypingState]
TYPING_STATE_UNSPECIFIED: TypingState
TYPING_STATE_TYPING: TypingState
TYPING_STATE_STOPPED: TypingState

class Attachment(_message.Message):
    __slots__ = ("media_id", "content_type", "file_name", "size_bytes")
    MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    media_id: str
    content_type: str
    file_name: str
    size_bytes: int
    def __init__(self, media_id: _Optional[str] = ..., content_type: _Optional[str] = ..., file_name: _Optional[str] = ..., size_bytes: _Optional[int] = ...) -> None: ...

class ReadReceipt(_message.Message):
    __slots__ = ("conversation_id", "account_id", "through_sequence", "read_time")
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    THROUGH_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    READ_TIME_FIELD_NUMBER: _ClassVar[int]
    conversation_id: str
    account_id: str
    through_sequence: int
    read_time: _timestamp_pb2.Timestamp
    def __init__(self, conversation_id: _Optional[str] = ..., account_id: _Optional[str] = ..., through_sequence: _Optional[int] = ..., read_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Conversation(_message.Message):
    __slots__ = ("id", "participant_account_ids", "subject", "title", "last_message", "unread_count", "read_receipts", "last_sequence", "version", "create_time", "update_time", "participants")
    ID_FIELD_NUMBER: _ClassVar[int]
    PARTICIPANT_ACCOUNT_IDS_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    LAST_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    READ_RECEIPTS_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    participant_account_ids: _containers.RepeatedScalarFieldContainer[str]
    subject: _common_pb2.ResourceRef
    title: str
    last_message: Message
    unread_count: int
    read_receipts: _containers.RepeatedCompositeFieldContainer[ReadReceipt]
    last_sequence: int
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    participants: _containers.RepeatedCompositeFieldContainer[_common_pb2.PersonSummary]
    def __init__(self, id: _Optional[str] = ..., participant_account_ids: _Optional[_Iterable[str]] = ..., subject: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., title: _Optional[str] = ..., last_message: _Optional[_Union[Message, _Mapping]] = ..., unread_count: _Optional[int] = ..., read_receipts: _Optional[_Iterable[_Union[ReadReceipt, _Mapping]]] = ..., last_sequence: _Optional[int] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., participants: _Optional[_Iterable[_Union[_common_pb2.PersonSummary, _Mapping]]] = ...) -> None: ...

class Message(_message.Message):
    __slots__ = ("id", "conversation_id", "sequence", "sender_account_id", "text", "attachments", "create_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SENDER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ATTACHMENTS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    conversation_id: str
    sequence: int
    sender_account_id: str
    text: str
    attachments: _containers.RepeatedCompositeFieldContainer[Attachment]
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., sequence: _Optional[int] = ..., sender_account_id: _Optional[str] = ..., text: _Optional[str] = ..., attachments: _Optional[_Iterable[_Union[Attachment, _Mapping]]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TypingIndicator(_message.Message):
    __slots__ = ("account_id", "typing", "expire_time")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    TYPING_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    typing: bool
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, account_id: _Optional[str] = ..., typing: bool = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ConversationEvent(_message.Message):
    __slots__ = ("sequence", "event_time", "message", "read_receipt", "typing")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    READ_RECEIPT_FIELD_NUMBER: _ClassVar[int]
    TYPING_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    event_time: _timestamp_pb2.Timestamp
    message: Message
    read_receipt: ReadReceipt
    typing: TypingIndicator
    def __init__(self, sequence: _Optional[int] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., message: _Optional[_Union[Message, _Mapping]] = ..., read_receipt: _Optional[_Union[ReadReceipt, _Mapping]] = ..., typing: _Optional[_Union[TypingIndicator, _Mapping]] = ...) -> None: ...

class CreateConversationRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "participant_account_ids", "subject", "first_message_text")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PARTICIPANT_ACCOUNT_IDS_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    FIRST_MESSAGE_TEXT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    participant_account_ids: _containers.RepeatedScalarFieldContainer[str]
    subject: _common_pb2.ResourceRef
    first_message_text: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., participant_account_ids: _Optional[_Iterable[str]] = ..., subject: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., first_message_text: _Optional[str] = ...) -> None: ...

class GetConversationRequest(_message.Message):
    __slots__ = ("marketplace_id", "conversation_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    conversation_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., conversation_id: _Optional[str] = ...) -> None: ...

class ListConversationsRequest(_message.Message):
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

class ListConversationsResponse(_message.Message):
    __slots__ = ("conversations", "next_page_token", "total_unread_count")
    CONVERSATIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOTAL_UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    conversations: _containers.RepeatedCompositeFieldContainer[Conversation]
    next_page_token: str
    total_unread_count: int
    def __init__(self, conversations: _Optional[_Iterable[_Union[Conversation, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., total_unread_count: _Optional[int] = ...) -> None: ...

class SendMessageRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "conversation_id", "text", "attachments")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ATTACHMENTS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    conversation_id: str
    text: str
    attachments: _containers.RepeatedCompositeFieldContainer[Attachment]
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., text: _Optional[str] = ..., attachments: _Optional[_Iterable[_Union[Attachment, _Mapping]]] = ...) -> None: ...

class ListMessagesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "conversation_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    conversation_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., conversation_id: _Optional[str] = ...) -> None: ...

class ListMessagesResponse(_message.Message):
    __slots__ = ("messages", "next_page_token")
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[Message]
    next_page_token: str
    def __init__(self, messages: _Optional[_Iterable[_Union[Message, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class MarkConversationReadRequest(_message.Message):
    __slots__ = ("marketplace_id", "conversation_id", "through_sequence")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    THROUGH_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    conversation_id: str
    through_sequence: int
    def __init__(self, marketplace_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., through_sequence: _Optional[int] = ...) -> None: ...

class WatchConversationRequest(_message.Message):
    __slots__ = ("marketplace_id", "conversation_id", "resume_after_sequence", "typing")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    CONVERSATION_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    TYPING_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    conversation_id: str
    resume_after_sequence: int
    typing: TypingState
    def __init__(self, marketplace_id: _Optional[str] = ..., conversation_id: _Optional[str] = ..., resume_after_sequence: _Optional[int] = ..., typing: _Optional[_Union[TypingState, str]] = ...) -> None: ...
