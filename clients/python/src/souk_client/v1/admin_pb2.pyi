import datetime

from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ContentState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTENT_STATE_UNSPECIFIED: _ClassVar[ContentState]
    CONTENT_STATE_DRAFT: _ClassVar[ContentState]
    CONTENT_STATE_SCHEDULED: _ClassVar[ContentState]
    CONTENT_STATE_PUBLISHED: _ClassVar[ContentState]
    CONTENT_STATE_EXPIRED: _ClassVar[ContentState]
    CONTENT_STATE_ARCHIVED: _ClassVar[ContentState]

class PolicyKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POLICY_KIND_UNSPECIFIED: _ClassVar[PolicyKind]
    POLICY_KIND_TERMS_OF_SERVICE: _ClassVar[PolicyKind]
    POLICY_KIND_PRIVACY: _ClassVar[PolicyKind]
    POLICY_KIND_RENTAL: _ClassVar[PolicyKind]
    POLICY_KIND_REFUND: _ClassVar[PolicyKind]
    POLICY_KIND_COMMUNITY: _ClassVar[PolicyKind]
    POLICY_KIND_FEES: _ClassVar[PolicyKind]
    POLICY_KIND_OTHER: _ClassVar[PolicyKind]
    POLICY_KIND_FAQ: _ClassVar[PolicyKind]

class MailKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAIL_KIND_UNSPECIFIED: _ClassVar[MailKind]
    MAIL_KIND_PASSWORD_RESET: _ClassVar[MailKind]
    MAIL_KIND_SUPPORT_REPLY: _ClassVar[MailKind]
    MAIL_KIND_ACCOUNT_NOTICE: _ClassVar[MailKind]
    MAIL_KIND_RECEIPT: _ClassVar[MailKind]
    MAIL_KIND_OTHER: _ClassVar[MailKind]
    MAIL_KIND_EMAIL_VERIFICATION: _ClassVar[MailKind]

class MailStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAIL_STATUS_UNSPECIFIED: _ClassVar[MailStatus]
    MAIL_STATUS_PENDING: _ClassVar[MailStatus]
    MAIL_STATUS_SENT: _ClassVar[MailStatus]
    MAIL_STATUS_FAILED: _ClassVar[MailStatus]
CONTENT_STATE_UNSPECIFIED: ContentState
CONTENT_STATE_DRAFT: ContentState
CONTENT_STATE_SCHEDULED: ContentState
CONTENT_STATE_PUBLISHED: ContentState
CONTENT_STATE_EXPIRED: ContentState
CONTENT_STATE_ARCHIVED: ContentState
POLICY_KIND_UNSPECIFIED: PolicyKind
POLICY_KIND_TERMS_OF_SERVICE: PolicyKind
POLICY_KIND_PRIVACY: PolicyKind
POLICY_KIND_RENTAL: PolicyKind
POLICY_KIND_REFUND: PolicyKind
POLICY_KIND_COMMUNITY: PolicyKind
POLICY_KIND_FEES: PolicyKind
POLICY_KIND_OTHER: PolicyKind
POLICY_KIND_FAQ: PolicyKind
MAIL_KIND_UNSPECIFIED: MailKind
MAIL_KIND_PASSWORD_RESET: MailKind
MAIL_KIND_SUPPORT_REPLY: MailKind
MAIL_KIND_ACCOUNT_NOTICE: MailKind
MAIL_KIND_RECEIPT: MailKind
MAIL_KIND_OTHER: MailKind
MAIL_KIND_EMAIL_VERIFICATION: MailKind
MAIL_STATUS_UNSPECIFIED: MailStatus
MAIL_STATUS_PENDING: MailStatus
MAIL_STATUS_SENT: MailStatus
MAIL_STATUS_FAILED: MailStatus

class Announcement(_message.Message):
    __slots__ = ("id", "title", "body", "audience_roles", "publish_time", "expire_time", "author_account_id", "archived", "archive_time", "version", "create_time", "update_time", "state")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    AUDIENCE_ROLES_FIELD_NUMBER: _ClassVar[int]
    PUBLISH_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    body: str
    audience_roles: _containers.RepeatedScalarFieldContainer[_common_pb2.Role]
    publish_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    author_account_id: str
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    state: ContentState
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., audience_roles: _Optional[_Iterable[_Union[_common_pb2.Role, str]]] = ..., publish_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., author_account_id: _Optional[str] = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., state: _Optional[_Union[ContentState, str]] = ...) -> None: ...

class Policy(_message.Message):
    __slots__ = ("id", "kind", "title", "body", "effective_time", "archived", "archive_time", "version", "create_time", "update_time", "audience_roles", "expire_time", "author_account_id", "state")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    AUDIENCE_ROLES_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: PolicyKind
    title: str
    body: str
    effective_time: _timestamp_pb2.Timestamp
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    audience_roles: _containers.RepeatedScalarFieldContainer[_common_pb2.Role]
    expire_time: _timestamp_pb2.Timestamp
    author_account_id: str
    state: ContentState
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[_Union[PolicyKind, str]] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., effective_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., audience_roles: _Optional[_Iterable[_Union[_common_pb2.Role, str]]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., author_account_id: _Optional[str] = ..., state: _Optional[_Union[ContentState, str]] = ...) -> None: ...

class Advertisement(_message.Message):
    __slots__ = ("id", "title", "body", "image_media_id", "target_url", "placement", "start_time", "end_time", "archived", "archive_time", "version", "create_time", "update_time", "audience_roles", "author_account_id", "state")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    IMAGE_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_URL_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    AUDIENCE_ROLES_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    body: str
    image_media_id: str
    target_url: str
    placement: str
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    audience_roles: _containers.RepeatedScalarFieldContainer[_common_pb2.Role]
    author_account_id: str
    state: ContentState
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., body: _Optional[str] = ..., image_media_id: _Optional[str] = ..., target_url: _Optional[str] = ..., placement: _Optional[str] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., audience_roles: _Optional[_Iterable[_Union[_common_pb2.Role, str]]] = ..., author_account_id: _Optional[str] = ..., state: _Optional[_Union[ContentState, str]] = ...) -> None: ...

class MailMessage(_message.Message):
    __slots__ = ("id", "kind", "to_address", "account_id", "subject", "body", "status", "attempts", "last_error", "version", "create_time", "send_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TO_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    SEND_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: MailKind
    to_address: str
    account_id: str
    subject: str
    body: str
    status: MailStatus
    attempts: int
    last_error: str
    version: int
    create_time: _timestamp_pb2.Timestamp
    send_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[_Union[MailKind, str]] = ..., to_address: _Optional[str] = ..., account_id: _Optional[str] = ..., subject: _Optional[str] = ..., body: _Optional[str] = ..., status: _Optional[_Union[MailStatus, str]] = ..., attempts: _Optional[int] = ..., last_error: _Optional[str] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., send_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateAnnouncementRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "announcement")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    announcement: Announcement
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., announcement: _Optional[_Union[Announcement, _Mapping]] = ...) -> None: ...

class GetAnnouncementRequest(_message.Message):
    __slots__ = ("marketplace_id", "announcement_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    announcement_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., announcement_id: _Optional[str] = ...) -> None: ...

class ListAnnouncementsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "states", "role")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    states: _containers.RepeatedScalarFieldContainer[ContentState]
    role: _common_pb2.Role
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., states: _Optional[_Iterable[_Union[ContentState, str]]] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ...) -> None: ...

class ListAnnouncementsResponse(_message.Message):
    __slots__ = ("announcements", "next_page_token")
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    announcements: _containers.RepeatedCompositeFieldContainer[Announcement]
    next_page_token: str
    def __init__(self, announcements: _Optional[_Iterable[_Union[Announcement, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateAnnouncementRequest(_message.Message):
    __slots__ = ("marketplace_id", "announcement", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    announcement: Announcement
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., announcement: _Optional[_Union[Announcement, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveAnnouncementRequest(_message.Message):
    __slots__ = ("marketplace_id", "announcement_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    announcement_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., announcement_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreAnnouncementRequest(_message.Message):
    __slots__ = ("marketplace_id", "announcement_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    announcement_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., announcement_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreatePolicyRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "policy")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    policy: Policy
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., policy: _Optional[_Union[Policy, _Mapping]] = ...) -> None: ...

class GetPolicyRequest(_message.Message):
    __slots__ = ("marketplace_id", "policy_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    policy_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., policy_id: _Optional[str] = ...) -> None: ...

class ListPoliciesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "kind", "states", "role")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    kind: PolicyKind
    states: _containers.RepeatedScalarFieldContainer[ContentState]
    role: _common_pb2.Role
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., kind: _Optional[_Union[PolicyKind, str]] = ..., states: _Optional[_Iterable[_Union[ContentState, str]]] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ...) -> None: ...

class ListPoliciesResponse(_message.Message):
    __slots__ = ("policies", "next_page_token")
    POLICIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    policies: _containers.RepeatedCompositeFieldContainer[Policy]
    next_page_token: str
    def __init__(self, policies: _Optional[_Iterable[_Union[Policy, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdatePolicyRequest(_message.Message):
    __slots__ = ("marketplace_id", "policy", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    policy: Policy
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., policy: _Optional[_Union[Policy, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchivePolicyRequest(_message.Message):
    __slots__ = ("marketplace_id", "policy_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    policy_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., policy_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestorePolicyRequest(_message.Message):
    __slots__ = ("marketplace_id", "policy_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    policy_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., policy_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreateAdvertisementRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "advertisement")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ADVERTISEMENT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    advertisement: Advertisement
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., advertisement: _Optional[_Union[Advertisement, _Mapping]] = ...) -> None: ...

class GetAdvertisementRequest(_message.Message):
    __slots__ = ("marketplace_id", "advertisement_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADVERTISEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    advertisement_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., advertisement_id: _Optional[str] = ...) -> None: ...

class ListAdvertisementsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "placement", "states", "role")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    placement: str
    states: _containers.RepeatedScalarFieldContainer[ContentState]
    role: _common_pb2.Role
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., placement: _Optional[str] = ..., states: _Optional[_Iterable[_Union[ContentState, str]]] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ...) -> None: ...

class ListAdvertisementsResponse(_message.Message):
    __slots__ = ("advertisements", "next_page_token")
    ADVERTISEMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    advertisements: _containers.RepeatedCompositeFieldContainer[Advertisement]
    next_page_token: str
    def __init__(self, advertisements: _Optional[_Iterable[_Union[Advertisement, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateAdvertisementRequest(_message.Message):
    __slots__ = ("marketplace_id", "advertisement", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADVERTISEMENT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    advertisement: Advertisement
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., advertisement: _Optional[_Union[Advertisement, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveAdvertisementRequest(_message.Message):
    __slots__ = ("marketplace_id", "advertisement_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADVERTISEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    advertisement_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., advertisement_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreAdvertisementRequest(_message.Message):
    __slots__ = ("marketplace_id", "advertisement_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADVERTISEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    advertisement_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., advertisement_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ListAuditEntriesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "resource", "actor_account_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    resource: _common_pb2.ResourceRef
    actor_account_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., resource: _Optional[_Union[_common_pb2.ResourceRef, _Mapping]] = ..., actor_account_id: _Optional[str] = ...) -> None: ...

class ListAuditEntriesResponse(_message.Message):
    __slots__ = ("entries", "next_page_token")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[_common_pb2.AuditEntry]
    next_page_token: str
    def __init__(self, entries: _Optional[_Iterable[_Union[_common_pb2.AuditEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListMailOutboxRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "statuses", "to_address", "kinds")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    TO_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    statuses: _containers.RepeatedScalarFieldContainer[MailStatus]
    to_address: str
    kinds: _containers.RepeatedScalarFieldContainer[MailKind]
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[MailStatus, str]]] = ..., to_address: _Optional[str] = ..., kinds: _Optional[_Iterable[_Union[MailKind, str]]] = ...) -> None: ...

class ListMailOutboxResponse(_message.Message):
    __slots__ = ("messages", "next_page_token")
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[MailMessage]
    next_page_token: str
    def __init__(self, messages: _Optional[_Iterable[_Union[MailMessage, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CompleteMailRequest(_message.Message):
    __slots__ = ("marketplace_id", "mail_id", "status", "error", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MAIL_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    mail_id: str
    status: MailStatus
    error: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., mail_id: _Optional[str] = ..., status: _Optional[_Union[MailStatus, str]] = ..., error: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...
