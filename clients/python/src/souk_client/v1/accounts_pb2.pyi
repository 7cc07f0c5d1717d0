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

class RoleStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_STATUS_UNSPECIFIED: _ClassVar[RoleStatus]
    ROLE_STATUS_PENDING: _ClassVar[RoleStatus]
    ROLE_STATUS_ACTIVE: _ClassVar[RoleStatus]
    ROLE_STATUS_REJECTED: _ClassVar[RoleStatus]
    ROLE_STATUS_REVOKED: _ClassVar[RoleStatus]

class AccountState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACCOUNT_STATE_UNSPECIFIED: _ClassVar[AccountState]
    ACCOUNT_STATE_ACTIVE: _ClassVar[AccountState]
    ACCOUNT_STATE_BLOCKED: _ClassVar[AccountState]
    ACCOUNT_STATE_DELETED: _ClassVar[AccountState]

class Gender(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GENDER_UNSPECIFIED: _ClassVar[Gender]
    GENDER_FEMALE: _ClassVar[Gender]
    GENDER_MALE: _ClassVar[Gender]
    GENDER_NONBINARY: _ClassVar[Gender]
ROLE_STATUS_UNSPECIFIED: RoleStatus
ROLE_STATUS_PENDING: RoleStatus
ROLE_STATUS_ACTIVE: RoleStatus
ROLE_STATUS_REJECTED: RoleStatus
ROLE_STATUS_REVOKED: RoleStatus
ACCOUNT_STATE_UNSPECIFIED: AccountState
ACCOUNT_STATE_ACTIVE: AccountState
ACCOUNT_STATE_BLOCKED: AccountState
ACCOUNT_STATE_DELETED: AccountState
GENDER_UNSPECIFIED: Gender
GENDER_FEMALE: Gender
GENDER_MALE: Gender
GENDER_NONBINARY: Gender

class RoleGrant(_message.Message):
    __slots__ = ("role", "status", "reason", "decided_by_account_id", "request_time", "decide_time")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_TIME_FIELD_NUMBER: _ClassVar[int]
    DECIDE_TIME_FIELD_NUMBER: _ClassVar[int]
    role: _common_pb2.Role
    status: RoleStatus
    reason: str
    decided_by_account_id: str
    request_time: _timestamp_pb2.Timestamp
    decide_time: _timestamp_pb2.Timestamp
    def __init__(self, role: _Optional[_Union[_common_pb2.Role, str]] = ..., status: _Optional[_Union[RoleStatus, str]] = ..., reason: _Optional[str] = ..., decided_by_account_id: _Optional[str] = ..., request_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., decide_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LaundryProfile(_message.Message):
    __slots__ = ("campus", "dorm_id", "room", "gender")
    CAMPUS_FIELD_NUMBER: _ClassVar[int]
    DORM_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_FIELD_NUMBER: _ClassVar[int]
    GENDER_FIELD_NUMBER: _ClassVar[int]
    campus: str
    dorm_id: str
    room: str
    gender: Gender
    def __init__(self, campus: _Optional[str] = ..., dorm_id: _Optional[str] = ..., room: _Optional[str] = ..., gender: _Optional[_Union[Gender, str]] = ...) -> None: ...

class DasherProfile(_message.Message):
    __slots__ = ("age", "completed_jobs", "accepting_requests", "dasher_since")
    AGE_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_JOBS_FIELD_NUMBER: _ClassVar[int]
    ACCEPTING_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    DASHER_SINCE_FIELD_NUMBER: _ClassVar[int]
    age: int
    completed_jobs: int
    accepting_requests: bool
    dasher_since: _timestamp_pb2.Timestamp
    def __init__(self, age: _Optional[int] = ..., completed_jobs: _Optional[int] = ..., accepting_requests: bool = ..., dasher_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Account(_message.Message):
    __slots__ = ("id", "marketplace_id", "email", "given_name", "family_name", "phone", "avatar_media_id", "locale", "roles", "state", "block_reason", "rating", "customer_rating", "laundry_profile", "dasher_profile", "failed_login_count", "locked_until", "last_login_time", "version", "create_time", "update_time", "email_verified")
    ID_FIELD_NUMBER: _ClassVar[int]
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    GIVEN_NAME_FIELD_NUMBER: _ClassVar[int]
    FAMILY_NAME_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    AVATAR_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    BLOCK_REASON_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_RATING_FIELD_NUMBER: _ClassVar[int]
    LAUNDRY_PROFILE_FIELD_NUMBER: _ClassVar[int]
    DASHER_PROFILE_FIELD_NUMBER: _ClassVar[int]
    FAILED_LOGIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    LOCKED_UNTIL_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    id: str
    marketplace_id: str
    email: str
    given_name: str
    family_name: str
    phone: str
    avatar_media_id: str
    locale: str
    roles: _containers.RepeatedCompositeFieldContainer[RoleGrant]
    state: AccountState
    block_reason: str
    rating: _common_pb2.RatingSummary
    customer_rating: _common_pb2.RatingSummary
    laundry_profile: LaundryProfile
    dasher_profile: DasherProfile
    failed_login_count: int
    locked_until: _timestamp_pb2.Timestamp
    last_login_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    email_verified: bool
    def __init__(self, id: _Optional[str] = ..., marketplace_id: _Optional[str] = ..., email: _Optional[str] = ..., given_name: _Optional[str] = ..., family_name: _Optional[str] = ..., phone: _Optional[str] = ..., avatar_media_id: _Optional[str] = ..., locale: _Optional[str] = ..., roles: _Optional[_Iterable[_Union[RoleGrant, _Mapping]]] = ..., state: _Optional[_Union[AccountState, str]] = ..., block_reason: _Optional[str] = ..., rating: _Optional[_Union[_common_pb2.RatingSummary, _Mapping]] = ..., customer_rating: _Optional[_Union[_common_pb2.RatingSummary, _Mapping]] = ..., laundry_profile: _Optional[_Union[LaundryProfile, _Mapping]] = ..., dasher_profile: _Optional[_Union[DasherProfile, _Mapping]] = ..., failed_login_count: _Optional[int] = ..., locked_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., email_verified: bool = ...) -> None: ...

class Session(_message.Message):
    __slots__ = ("access_token", "access_token_expire_time", "refresh_token", "refresh_token_expire_time", "session_id", "account")
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    access_token_expire_time: _timestamp_pb2.Timestamp
    refresh_token: str
    refresh_token_expire_time: _timestamp_pb2.Timestamp
    session_id: str
    account: Account
    def __init__(self, access_token: _Optional[str] = ..., access_token_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., refresh_token: _Optional[str] = ..., refresh_token_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., session_id: _Optional[str] = ..., account: _Optional[_Union[Account, _Mapping]] = ...) -> None: ...

class SavedAddress(_message.Message):
    __slots__ = ("id", "account_id", "address", "is_default", "archived", "archive_time", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    address: _common_pb2.Address
    is_default: bool
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., is_default: bool = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SignUpRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "email", "password", "given_name", "family_name", "phone", "requested_roles", "laundry_profile", "dasher_age", "device_name")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    GIVEN_NAME_FIELD_NUMBER: _ClassVar[int]
    FAMILY_NAME_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_ROLES_FIELD_NUMBER: _ClassVar[int]
    LAUNDRY_PROFILE_FIELD_NUMBER: _ClassVar[int]
    DASHER_AGE_FIELD_NUMBER: _ClassVar[int]
    DEVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    email: str
    password: str
    given_name: str
    family_name: str
    phone: str
    requested_roles: _containers.RepeatedScalarFieldContainer[_common_pb2.Role]
    laundry_profile: LaundryProfile
    dasher_age: int
    device_name: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., email: _Optional[str] = ..., password: _Optional[str] = ..., given_name: _Optional[str] = ..., family_name: _Optional[str] = ..., phone: _Optional[str] = ..., requested_roles: _Optional[_Iterable[_Union[_common_pb2.Role, str]]] = ..., laundry_profile: _Optional[_Union[LaundryProfile, _Mapping]] = ..., dasher_age: _Optional[int] = ..., device_name: _Optional[str] = ...) -> None: ...

class SignUpResponse(_message.Message):
    __slots__ = ("account", "session")
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    account: Account
    session: Session
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ..., session: _Optional[_Union[Session, _Mapping]] = ...) -> None: ...

class LoginRequest(_message.Message):
    __slots__ = ("marketplace_id", "email", "password", "device_name")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    DEVICE_NAME_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    email: str
    password: str
    device_name: str
    def __init__(self, marketplace_id: _Optional[str] = ..., email: _Optional[str] = ..., password: _Optional[str] = ..., device_name: _Optional[str] = ...) -> None: ...

class RefreshRequest(_message.Message):
    __slots__ = ("marketplace_id", "refresh_token")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    refresh_token: str
    def __init__(self, marketplace_id: _Optional[str] = ..., refresh_token: _Optional[str] = ...) -> None: ...

class LogoutRequest(_message.Message):
    __slots__ = ("marketplace_id", "all_sessions")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ALL_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    all_sessions: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., all_sessions: bool = ...) -> None: ...

class LogoutResponse(_message.Message):
    __slots__ = ("ended_sessions",)
    ENDED_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    ended_sessions: int
    def __init__(self, ended_sessions: _Optional[int] = ...) -> None: ...

class GetMeRequest(_message.Message):
    __slots__ = ("marketplace_id",)
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    def __init__(self, marketplace_id: _Optional[str] = ...) -> None: ...

class UpdateProfileRequest(_message.Message):
    __slots__ = ("marketplace_id", "account", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account: Account
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account: _Optional[_Union[Account, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ChangePasswordRequest(_message.Message):
    __slots__ = ("marketplace_id", "current_password", "new_password")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    current_password: str
    new_password: str
    def __init__(self, marketplace_id: _Optional[str] = ..., current_password: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ChangePasswordResponse(_message.Message):
    __slots__ = ("ended_sessions",)
    ENDED_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    ended_sessions: int
    def __init__(self, ended_sessions: _Optional[int] = ...) -> None: ...

class RequestPasswordResetRequest(_message.Message):
    __slots__ = ("marketplace_id", "email")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    email: str
    def __init__(self, marketplace_id: _Optional[str] = ..., email: _Optional[str] = ...) -> None: ...

class RequestPasswordResetResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ConfirmPasswordResetRequest(_message.Message):
    __slots__ = ("marketplace_id", "reset_token", "new_password")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESET_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    reset_token: str
    new_password: str
    def __init__(self, marketplace_id: _Optional[str] = ..., reset_token: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ConfirmPasswordResetResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeleteAccountRequest(_message.Message):
    __slots__ = ("marketplace_id", "password", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    password: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., password: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DeleteAccountResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RequestRoleRequest(_message.Message):
    __slots__ = ("marketplace_id", "role", "dasher_age", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    DASHER_AGE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    role: _common_pb2.Role
    dasher_age: int
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ..., dasher_age: _Optional[int] = ..., expected_version: _Optional[int] = ...) -> None: ...

class GetAccountRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ...) -> None: ...

class GetPublicProfileRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ...) -> None: ...

class ListAccountsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "role", "role_status", "state", "email_prefix")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    ROLE_STATUS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    EMAIL_PREFIX_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    role: _common_pb2.Role
    role_status: RoleStatus
    state: AccountState
    email_prefix: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ..., role_status: _Optional[_Union[RoleStatus, str]] = ..., state: _Optional[_Union[AccountState, str]] = ..., email_prefix: _Optional[str] = ...) -> None: ...

class ListAccountsResponse(_message.Message):
    __slots__ = ("accounts", "next_page_token")
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    accounts: _containers.RepeatedCompositeFieldContainer[Account]
    next_page_token: str
    def __init__(self, accounts: _Optional[_Iterable[_Union[Account, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CreateAccountRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "email", "initial_password", "given_name", "family_name", "phone", "roles", "laundry_profile")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    INITIAL_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    GIVEN_NAME_FIELD_NUMBER: _ClassVar[int]
    FAMILY_NAME_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    LAUNDRY_PROFILE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    email: str
    initial_password: str
    given_name: str
    family_name: str
    phone: str
    roles: _containers.RepeatedScalarFieldContainer[_common_pb2.Role]
    laundry_profile: LaundryProfile
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., email: _Optional[str] = ..., initial_password: _Optional[str] = ..., given_name: _Optional[str] = ..., family_name: _Optional[str] = ..., phone: _Optional[str] = ..., roles: _Optional[_Iterable[_Union[_common_pb2.Role, str]]] = ..., laundry_profile: _Optional[_Union[LaundryProfile, _Mapping]] = ...) -> None: ...

class ApproveRoleRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "role", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    role: _common_pb2.Role
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RejectRoleRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "role", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    role: _common_pb2.Role
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class AssignRoleRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "role", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    role: _common_pb2.Role
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RevokeRoleRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "role", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    role: _common_pb2.Role
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., role: _Optional[_Union[_common_pb2.Role, str]] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class BlockAccountRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class UnblockAccountRequest(_message.Message):
    __slots__ = ("marketplace_id", "account_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    account_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., account_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreateAddressRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "address", "is_default")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    IS_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    address: _common_pb2.Address
    is_default: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., is_default: bool = ...) -> None: ...

class GetAddressRequest(_message.Message):
    __slots__ = ("marketplace_id", "address_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    address_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., address_id: _Optional[str] = ...) -> None: ...

class ListAddressesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "account_id", "show_archived")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    account_id: str
    show_archived: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., account_id: _Optional[str] = ..., show_archived: bool = ...) -> None: ...

class ListAddressesResponse(_message.Message):
    __slots__ = ("addresses", "next_page_token")
    ADDRESSES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    addresses: _containers.RepeatedCompositeFieldContainer[SavedAddress]
    next_page_token: str
    def __init__(self, addresses: _Optional[_Iterable[_Union[SavedAddress, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateAddressRequest(_message.Message):
    __slots__ = ("marketplace_id", "saved_address", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SAVED_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    saved_address: SavedAddress
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., saved_address: _Optional[_Union[SavedAddress, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveAddressRequest(_message.Message):
    __slots__ = ("marketplace_id", "address_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    address_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., address_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreAddressRequest(_message.Message):
    __slots__ = ("marketplace_id", "address_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    address_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., address_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SendVerificationCodeRequest(_message.Message):
    __slots__ = ("marketplace_id",)
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    def __init__(self, marketplace_id: _Optional[str] = ...) -> None: ...

class SendVerificationCodeResponse(_message.Message):
    __slots__ = ("expire_time",)
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class VerifyEmailRequest(_message.Message):
    __slots__ = ("marketplace_id", "code")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    code: str
    def __init__(self, marketplace_id: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...
