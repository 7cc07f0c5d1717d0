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

class FeedbackTarget(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FEEDBACK_TARGET_UNSPECIFIED: _ClassVar[FeedbackTarget]
    FEEDBACK_TARGET_COURIER: _ClassVar[FeedbackTarget]
    FEEDBACK_TARGET_RESTAURANT: _ClassVar[FeedbackTarget]
FEEDBACK_TARGET_UNSPECIFIED: FeedbackTarget
FEEDBACK_TARGET_COURIER: FeedbackTarget
FEEDBACK_TARGET_RESTAURANT: FeedbackTarget

class FeedbackAnswer(_message.Message):
    __slots__ = ("text", "answered_by_account_id", "answer_time")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ANSWER_TIME_FIELD_NUMBER: _ClassVar[int]
    text: str
    answered_by_account_id: str
    answer_time: _timestamp_pb2.Timestamp
    def __init__(self, text: _Optional[str] = ..., answered_by_account_id: _Optional[str] = ..., answer_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class FeedbackEntry(_message.Message):
    __slots__ = ("id", "subject", "author_account_id", "rated_account_id", "listing_id", "restaurant_id", "stars", "comment", "answer", "version", "create_time", "update_time", "author", "rated")
    ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    RATED_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    id: str
    subject: _common_pb2.ResourceRef
    author_account_id: str
    rated_account_id: str
    listing_id: str
    restaurant_id: str
    stars: int
    comment: str
    answer: FeedbackAnswer
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    author: _common_pb2.PersonSummary
    rated: _common_pb2.PersonSummary
    def __init__(self, id: _Optional[str] = ..., subject: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., author_account_id: _Optional[str] = ..., rated_account_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., stars: _Optional[int] = ..., comment: _Optional[str] = ..., answer: _Optional[_Union[FeedbackAnswer, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., author: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., rated: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ...) -> None: ...

class CreateFeedbackRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "order_id", "booking_id", "stars", "comment", "target")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    order_id: str
    booking_id: str
    stars: int
    comment: str
    target: FeedbackTarget
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., order_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., stars: _Optional[int] = ..., comment: _Optional[str] = ..., target: _Optional[_Union[FeedbackTarget, str]] = ...) -> None: ...

class GetFeedbackRequest(_message.Message):
    __slots__ = ("marketplace_id", "feedback_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    FEEDBACK_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    feedback_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., feedback_id: _Optional[str] = ...) -> None: ...

class ListFeedbackRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "rated_account_id", "listing_id", "author_account_id", "subject_id", "unanswered_only", "restaurant_id", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RATED_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_ID_FIELD_NUMBER: _ClassVar[int]
    UNANSWERED_ONLY_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    rated_account_id: str
    listing_id: str
    author_account_id: str
    subject_id: str
    unanswered_only: bool
    restaurant_id: str
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., rated_account_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., author_account_id: _Optional[str] = ..., subject_id: _Optional[str] = ..., unanswered_only: bool = ..., restaurant_id: _Optional[str] = ..., order_by: _Optional[str] = ...) -> None: ...

class ListFeedbackResponse(_message.Message):
    __slots__ = ("feedback", "next_page_token")
    FEEDBACK_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    feedback: _containers.RepeatedCompositeFieldContainer[FeedbackEntry]
    next_page_token: str
    def __init__(self, feedback: _Optional[_Iterable[_Union[FeedbackEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class AnswerFeedbackRequest(_message.Message):
    __slots__ = ("marketplace_id", "feedback_id", "text", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    FEEDBACK_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    feedback_id: str
    text: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., feedback_id: _Optional[str] = ..., text: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class GetRatingSummaryRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "listing_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    listing_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., listing_id: _Optional[str] = ...) -> None: ...
