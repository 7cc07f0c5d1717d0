import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from souk_client.v1 import payments_pb2 as _payments_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Vertical(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERTICAL_UNSPECIFIED: _ClassVar[Vertical]
    VERTICAL_WATER_SERVICES: _ClassVar[Vertical]
    VERTICAL_RETAIL: _ClassVar[Vertical]
    VERTICAL_LAUNDRY: _ClassVar[Vertical]
    VERTICAL_RENTALS: _ClassVar[Vertical]
    VERTICAL_FOOD_DELIVERY: _ClassVar[Vertical]
VERTICAL_UNSPECIFIED: Vertical
VERTICAL_WATER_SERVICES: Vertical
VERTICAL_RETAIL: Vertical
VERTICAL_LAUNDRY: Vertical
VERTICAL_RENTALS: Vertical
VERTICAL_FOOD_DELIVERY: Vertical

class Marketplace(_message.Message):
    __slots__ = ("id", "slug", "display_name", "vertical", "currency_code", "time_zone", "default_locale", "settings", "archived", "archive_time", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    SLUG_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    VERTICAL_FIELD_NUMBER: _ClassVar[int]
    CURRENCY_CODE_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    slug: str
    display_name: str
    vertical: Vertical
    currency_code: str
    time_zone: str
    default_locale: str
    settings: MarketplaceSettings
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., slug: _Optional[str] = ..., display_name: _Optional[str] = ..., vertical: _Optional[_Union[Vertical, str]] = ..., currency_code: _Optional[str] = ..., time_zone: _Optional[str] = ..., default_locale: _Optional[str] = ..., settings: _Optional[_Union[MarketplaceSettings, _Mapping]] = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class MarketplaceSettings(_message.Message):
    __slots__ = ("accounts", "commerce", "laundry", "rentals", "delivery", "media", "support")
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    COMMERCE_FIELD_NUMBER: _ClassVar[int]
    LAUNDRY_FIELD_NUMBER: _ClassVar[int]
    RENTALS_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    MEDIA_FIELD_NUMBER: _ClassVar[int]
    SUPPORT_FIELD_NUMBER: _ClassVar[int]
    accounts: AccountSettings
    commerce: CommerceSettings
    laundry: LaundrySettings
    rentals: RentalSettings
    delivery: DeliverySettings
    media: MediaSettings
    support: SupportSettings
    def __init__(self, accounts: _Optional[_Union[AccountSettings, _Mapping]] = ..., commerce: _Optional[_Union[CommerceSettings, _Mapping]] = ..., laundry: _Optional[_Union[LaundrySettings, _Mapping]] = ..., rentals: _Optional[_Union[RentalSettings, _Mapping]] = ..., delivery: _Optional[_Union[DeliverySettings, _Mapping]] = ..., media: _Optional[_Union[MediaSettings, _Mapping]] = ..., support: _Optional[_Union[SupportSettings, _Mapping]] = ...) -> None: ...

class AccountSettings(_message.Message):
    __slots__ = ("allowed_email_domains", "max_failed_logins", "lockout_duration", "password_reset_ttl", "access_token_ttl", "refresh_token_ttl", "refresh_reuse_interval", "rate_limits")
    ALLOWED_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    MAX_FAILED_LOGINS_FIELD_NUMBER: _ClassVar[int]
    LOCKOUT_DURATION_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_RESET_TTL_FIELD_NUMBER: _ClassVar[int]
    ACCESS_TOKEN_TTL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_TTL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_REUSE_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    allowed_email_domains: _containers.RepeatedScalarFieldContainer[str]
    max_failed_logins: int
    lockout_duration: _duration_pb2.Duration
    password_reset_ttl: _duration_pb2.Duration
    access_token_ttl: _duration_pb2.Duration
    refresh_token_ttl: _duration_pb2.Duration
    refresh_reuse_interval: _duration_pb2.Duration
    rate_limits: AuthRateLimits
    def __init__(self, allowed_email_domains: _Optional[_Iterable[str]] = ..., max_failed_logins: _Optional[int] = ..., lockout_duration: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., password_reset_ttl: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., access_token_ttl: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., refresh_token_ttl: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., refresh_reuse_interval: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., rate_limits: _Optional[_Union[AuthRateLimits, _Mapping]] = ...) -> None: ...

class AuthRateLimits(_message.Message):
    __slots__ = ("sign_in_per_address", "sign_in_per_account", "sign_up_per_address", "password_reset_per_address", "password_reset_per_account", "verification_per_address", "verification_per_account")
    SIGN_IN_PER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    SIGN_IN_PER_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    SIGN_UP_PER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_RESET_PER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_RESET_PER_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_PER_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_PER_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    sign_in_per_address: RateLimit
    sign_in_per_account: RateLimit
    sign_up_per_address: RateLimit
    password_reset_per_address: RateLimit
    password_reset_per_account: RateLimit
    verification_per_address: RateLimit
    verification_per_account: RateLimit
    def __init__(self, sign_in_per_address: _Optional[_Union[RateLimit, _Mapping]] = ..., sign_in_per_account: _Optional[_Union[RateLimit, _Mapping]] = ..., sign_up_per_address: _Optional[_Union[RateLimit, _Mapping]] = ..., password_reset_per_address: _Optional[_Union[RateLimit, _Mapping]] = ..., password_reset_per_account: _Optional[_Union[RateLimit, _Mapping]] = ..., verification_per_address: _Optional[_Union[RateLimit, _Mapping]] = ..., verification_per_account: _Optional[_Union[RateLimit, _Mapping]] = ...) -> None: ...

class RateLimit(_message.Message):
    __slots__ = ("count", "window")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    WINDOW_FIELD_NUMBER: _ClassVar[int]
    count: int
    window: _duration_pb2.Duration
    def __init__(self, count: _Optional[int] = ..., window: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CommerceSettings(_message.Message):
    __slots__ = ("tax_rate_bps", "shipping_fee", "delivery_fee", "default_commission_bps", "max_quantity_per_cart_line", "accepted_payment_methods", "service_windows", "window_capacity")
    TAX_RATE_BPS_FIELD_NUMBER: _ClassVar[int]
    SHIPPING_FEE_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_FEE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_COMMISSION_BPS_FIELD_NUMBER: _ClassVar[int]
    MAX_QUANTITY_PER_CART_LINE_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_PAYMENT_METHODS_FIELD_NUMBER: _ClassVar[int]
    SERVICE_WINDOWS_FIELD_NUMBER: _ClassVar[int]
    WINDOW_CAPACITY_FIELD_NUMBER: _ClassVar[int]
    tax_rate_bps: int
    shipping_fee: _common_pb2.Money
    delivery_fee: _common_pb2.Money
    default_commission_bps: int
    max_quantity_per_cart_line: int
    accepted_payment_methods: _containers.RepeatedScalarFieldContainer[_payments_pb2.PaymentMethod]
    service_windows: _containers.RepeatedCompositeFieldContainer[DailyWindow]
    window_capacity: int
    def __init__(self, tax_rate_bps: _Optional[int] = ..., shipping_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., delivery_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., default_commission_bps: _Optional[int] = ..., max_quantity_per_cart_line: _Optional[int] = ..., accepted_payment_methods: _Optional[_Iterable[_Union[_payments_pb2.PaymentMethod, str]]] = ..., service_windows: _Optional[_Iterable[_Union[DailyWindow, _Mapping]]] = ..., window_capacity: _Optional[int] = ...) -> None: ...

class DailyWindow(_message.Message):
    __slots__ = ("start_minute", "end_minute")
    START_MINUTE_FIELD_NUMBER: _ClassVar[int]
    END_MINUTE_FIELD_NUMBER: _ClassVar[int]
    start_minute: int
    end_minute: int
    def __init__(self, start_minute: _Optional[int] = ..., end_minute: _Optional[int] = ...) -> None: ...

class LaundrySettings(_message.Message):
    __slots__ = ("machine_cost_per_load", "service_fee", "folding_price", "ironing_price", "last_cancellable_stage", "job_offer_timeout", "quiz_retry_delay")
    MACHINE_COST_PER_LOAD_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FEE_FIELD_NUMBER: _ClassVar[int]
    FOLDING_PRICE_FIELD_NUMBER: _ClassVar[int]
    IRONING_PRICE_FIELD_NUMBER: _ClassVar[int]
    LAST_CANCELLABLE_STAGE_FIELD_NUMBER: _ClassVar[int]
    JOB_OFFER_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    QUIZ_RETRY_DELAY_FIELD_NUMBER: _ClassVar[int]
    machine_cost_per_load: _common_pb2.Money
    service_fee: _common_pb2.Money
    folding_price: _common_pb2.Money
    ironing_price: _common_pb2.Money
    last_cancellable_stage: int
    job_offer_timeout: _duration_pb2.Duration
    quiz_retry_delay: _duration_pb2.Duration
    def __init__(self, machine_cost_per_load: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., service_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., folding_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., ironing_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., last_cancellable_stage: _Optional[int] = ..., job_offer_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., quiz_retry_delay: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class RentalSettings(_message.Message):
    __slots__ = ("min_lease_months", "max_deposit_months", "payment_provider_fee_bps", "platform_fee_bps", "bill_due_day", "deposit_due_days")
    MIN_LEASE_MONTHS_FIELD_NUMBER: _ClassVar[int]
    MAX_DEPOSIT_MONTHS_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_PROVIDER_FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_BPS_FIELD_NUMBER: _ClassVar[int]
    BILL_DUE_DAY_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_DUE_DAYS_FIELD_NUMBER: _ClassVar[int]
    min_lease_months: int
    max_deposit_months: int
    payment_provider_fee_bps: int
    platform_fee_bps: int
    bill_due_day: int
    deposit_due_days: int
    def __init__(self, min_lease_months: _Optional[int] = ..., max_deposit_months: _Optional[int] = ..., payment_provider_fee_bps: _Optional[int] = ..., platform_fee_bps: _Optional[int] = ..., bill_due_day: _Optional[int] = ..., deposit_due_days: _Optional[int] = ...) -> None: ...

class DeliverySettings(_message.Message):
    __slots__ = ("location_report_interval", "location_stale_after", "offer_timeout")
    LOCATION_REPORT_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    LOCATION_STALE_AFTER_FIELD_NUMBER: _ClassVar[int]
    OFFER_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    location_report_interval: _duration_pb2.Duration
    location_stale_after: _duration_pb2.Duration
    offer_timeout: _duration_pb2.Duration
    def __init__(self, location_report_interval: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., location_stale_after: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., offer_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class SupportSettings(_message.Message):
    __slots__ = ("response_target",)
    RESPONSE_TARGET_FIELD_NUMBER: _ClassVar[int]
    response_target: _duration_pb2.Duration
    def __init__(self, response_target: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class MediaSettings(_message.Message):
    __slots__ = ("max_upload_bytes", "allowed_content_types")
    MAX_UPLOAD_BYTES_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_CONTENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    max_upload_bytes: int
    allowed_content_types: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, max_upload_bytes: _Optional[int] = ..., allowed_content_types: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateMarketplaceRequest(_message.Message):
    __slots__ = ("request_id", "marketplace")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MARKETPLACE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    marketplace: Marketplace
    def __init__(self, request_id: _Optional[str] = ..., marketplace: _Optional[_Union[Marketplace, _Mapping]] = ...) -> None: ...

class GetMarketplaceRequest(_message.Message):
    __slots__ = ("marketplace_id",)
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    def __init__(self, marketplace_id: _Optional[str] = ...) -> None: ...

class ListMarketplacesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "slug", "vertical", "show_archived")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SLUG_FIELD_NUMBER: _ClassVar[int]
    VERTICAL_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    slug: str
    vertical: Vertical
    show_archived: bool
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., slug: _Optional[str] = ..., vertical: _Optional[_Union[Vertical, str]] = ..., show_archived: bool = ...) -> None: ...

class ListMarketplacesResponse(_message.Message):
    __slots__ = ("marketplaces", "next_page_token")
    MARKETPLACES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    marketplaces: _containers.RepeatedCompositeFieldContainer[Marketplace]
    next_page_token: str
    def __init__(self, marketplaces: _Optional[_Iterable[_Union[Marketplace, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateMarketplaceRequest(_message.Message):
    __slots__ = ("marketplace_id", "marketplace", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MARKETPLACE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    marketplace: Marketplace
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., marketplace: _Optional[_Union[Marketplace, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class UpdateMarketplaceSettingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "settings", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    settings: MarketplaceSettings
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., settings: _Optional[_Union[MarketplaceSettings, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveMarketplaceRequest(_message.Message):
    __slots__ = ("marketplace_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreMarketplaceRequest(_message.Message):
    __slots__ = ("marketplace_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...
