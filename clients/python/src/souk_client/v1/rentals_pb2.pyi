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

class ListingType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LISTING_TYPE_UNSPECIFIED: _ClassVar[ListingType]
    LISTING_TYPE_HOUSE: _ClassVar[ListingType]
    LISTING_TYPE_APARTMENT: _ClassVar[ListingType]
    LISTING_TYPE_ROOM: _ClassVar[ListingType]

class ListingStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LISTING_STATUS_UNSPECIFIED: _ClassVar[ListingStatus]
    LISTING_STATUS_DRAFT: _ClassVar[ListingStatus]
    LISTING_STATUS_PUBLISHED: _ClassVar[ListingStatus]
    LISTING_STATUS_RENTED: _ClassVar[ListingStatus]
    LISTING_STATUS_ARCHIVED: _ClassVar[ListingStatus]

class PlaceCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLACE_CATEGORY_UNSPECIFIED: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_SCHOOL: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_MARKET: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_HOSPITAL: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_PHARMACY: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_SUPERMARKET: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_BUS_STOP: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_PARK: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_RESTAURANT: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_BANK: _ClassVar[PlaceCategory]
    PLACE_CATEGORY_OTHER: _ClassVar[PlaceCategory]

class BookingStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOOKING_STATUS_UNSPECIFIED: _ClassVar[BookingStatus]
    BOOKING_STATUS_REQUESTED: _ClassVar[BookingStatus]
    BOOKING_STATUS_CONFIRMED: _ClassVar[BookingStatus]
    BOOKING_STATUS_ACTIVE: _ClassVar[BookingStatus]
    BOOKING_STATUS_ENDED: _ClassVar[BookingStatus]
    BOOKING_STATUS_DECLINED: _ClassVar[BookingStatus]
    BOOKING_STATUS_CANCELLED: _ClassVar[BookingStatus]

class BillKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BILL_KIND_UNSPECIFIED: _ClassVar[BillKind]
    BILL_KIND_DEPOSIT: _ClassVar[BillKind]
    BILL_KIND_MONTHLY: _ClassVar[BillKind]

class BillStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BILL_STATUS_UNSPECIFIED: _ClassVar[BillStatus]
    BILL_STATUS_DUE: _ClassVar[BillStatus]
    BILL_STATUS_PAID: _ClassVar[BillStatus]
    BILL_STATUS_VOID: _ClassVar[BillStatus]

class UtilityKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UTILITY_KIND_UNSPECIFIED: _ClassVar[UtilityKind]
    UTILITY_KIND_ELECTRICITY: _ClassVar[UtilityKind]
    UTILITY_KIND_WATER: _ClassVar[UtilityKind]
    UTILITY_KIND_INTERNET: _ClassVar[UtilityKind]
    UTILITY_KIND_GAS: _ClassVar[UtilityKind]
    UTILITY_KIND_OTHER: _ClassVar[UtilityKind]
LISTING_TYPE_UNSPECIFIED: ListingType
LISTING_TYPE_HOUSE: ListingType
LISTING_TYPE_APARTMENT: ListingType
LISTING_TYPE_ROOM: ListingType
LISTING_STATUS_UNSPECIFIED: ListingStatus
LISTING_STATUS_DRAFT: ListingStatus
LISTING_STATUS_PUBLISHED: ListingStatus
LISTING_STATUS_RENTED: ListingStatus
LISTING_STATUS_ARCHIVED: ListingStatus
PLACE_CATEGORY_UNSPECIFIED: PlaceCategory
PLACE_CATEGORY_SCHOOL: PlaceCategory
PLACE_CATEGORY_MARKET: PlaceCategory
PLACE_CATEGORY_HOSPITAL: PlaceCategory
PLACE_CATEGORY_PHARMACY: PlaceCategory
PLACE_CATEGORY_SUPERMARKET: PlaceCategory
PLACE_CATEGORY_BUS_STOP: PlaceCategory
PLACE_CATEGORY_PARK: PlaceCategory
PLACE_CATEGORY_RESTAURANT: PlaceCategory
PLACE_CATEGORY_BANK: PlaceCategory
PLACE_CATEGORY_OTHER: PlaceCategory
BOOKING_STATUS_UNSPECIFIED: BookingStatus
BOOKING_STATUS_REQUESTED: BookingStatus
BOOKING_STATUS_CONFIRMED: BookingStatus
BOOKING_STATUS_ACTIVE: BookingStatus
BOOKING_STATUS_ENDED: BookingStatus
BOOKING_STATUS_DECLINED: BookingStatus
BOOKING_STATUS_CANCELLED: BookingStatus
BILL_KIND_UNSPECIFIED: BillKind
BILL_KIND_DEPOSIT: BillKind
BILL_KIND_MONTHLY: BillKind
BILL_STATUS_UNSPECIFIED: BillStatus
BILL_STATUS_DUE: BillStatus
BILL_STATUS_PAID: BillStatus
BILL_STATUS_VOID: BillStatus
UTILITY_KIND_UNSPECIFIED: UtilityKind
UTILITY_KIND_ELECTRICITY: UtilityKind
UTILITY_KIND_WATER: UtilityKind
UTILITY_KIND_INTERNET: UtilityKind
UTILITY_KIND_GAS: UtilityKind
UTILITY_KIND_OTHER: UtilityKind

class Region(_message.Message):
    __slots__ = ("id", "name", "districts", "archived", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISTRICTS_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    districts: _containers.RepeatedScalarFieldContainer[str]
    archived: bool
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., districts: _Optional[_Iterable[str]] = ..., archived: bool = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Listing(_message.Message):
    __slots__ = ("id", "owner_account_id", "lessor", "title", "description", "type", "address", "monthly_rent", "deposit_months", "deposit", "features", "photo_media_ids", "area_square_meters", "bedrooms", "bathrooms", "active_booking_id", "rating", "archive_time", "version", "create_time", "update_time", "region_id", "district", "status", "furnished", "parking", "saved")
    ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LESSOR_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    MONTHLY_RENT_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_MONTHS_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    PHOTO_MEDIA_IDS_FIELD_NUMBER: _ClassVar[int]
    AREA_SQUARE_METERS_FIELD_NUMBER: _ClassVar[int]
    BEDROOMS_FIELD_NUMBER: _ClassVar[int]
    BATHROOMS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    REGION_ID_FIELD_NUMBER: _ClassVar[int]
    DISTRICT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    FURNISHED_FIELD_NUMBER: _ClassVar[int]
    PARKING_FIELD_NUMBER: _ClassVar[int]
    SAVED_FIELD_NUMBER: _ClassVar[int]
    id: str
    owner_account_id: str
    lessor: _common_pb2.PersonSummary
    title: str
    description: str
    type: ListingType
    address: _common_pb2.Address
    monthly_rent: _common_pb2.Money
    deposit_months: int
    deposit: _common_pb2.Money
    features: _containers.RepeatedScalarFieldContainer[str]
    photo_media_ids: _containers.RepeatedScalarFieldContainer[str]
    area_square_meters: int
    bedrooms: int
    bathrooms: int
    active_booking_id: str
    rating: _common_pb2.RatingSummary
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    region_id: str
    district: str
    status: ListingStatus
    furnished: bool
    parking: bool
    saved: bool
    def __init__(self, id: _Optional[str] = ..., owner_account_id: _Optional[str] = ..., lessor: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., title: _Optional[str] = ..., description: _Optional[str] = ..., type: _Optional[_Union[ListingType, str]] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., monthly_rent: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., deposit_months: _Optional[int] = ..., deposit: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., features: _Optional[_Iterable[str]] = ..., photo_media_ids: _Optional[_Iterable[str]] = ..., area_square_meters: _Optional[int] = ..., bedrooms: _Optional[int] = ..., bathrooms: _Optional[int] = ..., active_booking_id: _Optional[str] = ..., rating: _Optional[_Union[_common_pb2.RatingSummary, _Mapping]] = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., region_id: _Optional[str] = ..., district: _Optional[str] = ..., status: _Optional[_Union[ListingStatus, str]] = ..., furnished: bool = ..., parking: bool = ..., saved: bool = ...) -> None: ...

class ListingResult(_message.Message):
    __slots__ = ("listing", "distance_meters", "score")
    LISTING_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    listing: Listing
    distance_meters: int
    score: float
    def __init__(self, listing: _Optional[_Union[Listing, _Mapping]] = ..., distance_meters: _Optional[int] = ..., score: _Optional[float] = ...) -> None: ...

class Place(_message.Message):
    __slots__ = ("id", "name", "category", "address", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    category: PlaceCategory
    address: _common_pb2.Address
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., category: _Optional[_Union[PlaceCategory, str]] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class NearbyPlace(_message.Message):
    __slots__ = ("place", "distance_meters")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    place: Place
    distance_meters: int
    def __init__(self, place: _Optional[_Union[Place, _Mapping]] = ..., distance_meters: _Optional[int] = ...) -> None: ...

class Favorite(_message.Message):
    __slots__ = ("id", "account_id", "listing_id", "listing", "create_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    listing_id: str
    listing: Listing
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., listing: _Optional[_Union[Listing, _Mapping]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class DepositReturn(_message.Message):
    __slots__ = ("amount", "reason", "return_time", "payment_id")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RETURN_TIME_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    amount: _common_pb2.Money
    reason: str
    return_time: _timestamp_pb2.Timestamp
    payment_id: str
    def __init__(self, amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., reason: _Optional[str] = ..., return_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., payment_id: _Optional[str] = ...) -> None: ...

class Booking(_message.Message):
    __slots__ = ("id", "listing_id", "listing_title", "listing_address", "lessee_account_id", "lessor_account_id", "status", "start_date", "months", "end_date", "monthly_rent", "deposit", "deposit_bill_id", "deposit_return", "message", "reason", "confirm_time", "activate_time", "end_time", "version", "create_time", "update_time", "lessee", "lessor", "available_transitions")
    ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_TITLE_FIELD_NUMBER: _ClassVar[int]
    LISTING_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    LESSEE_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LESSOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    MONTHS_FIELD_NUMBER: _ClassVar[int]
    END_DATE_FIELD_NUMBER: _ClassVar[int]
    MONTHLY_RENT_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_BILL_ID_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_RETURN_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_TIME_FIELD_NUMBER: _ClassVar[int]
    ACTIVATE_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    LESSEE_FIELD_NUMBER: _ClassVar[int]
    LESSOR_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    listing_id: str
    listing_title: str
    listing_address: _common_pb2.Address
    lessee_account_id: str
    lessor_account_id: str
    status: BookingStatus
    start_date: _common_pb2.Date
    months: int
    end_date: _common_pb2.Date
    monthly_rent: _common_pb2.Money
    deposit: _common_pb2.Money
    deposit_bill_id: str
    deposit_return: DepositReturn
    message: str
    reason: str
    confirm_time: _timestamp_pb2.Timestamp
    activate_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    lessee: _common_pb2.PersonSummary
    lessor: _common_pb2.PersonSummary
    available_transitions: _containers.RepeatedCompositeFieldContainer[_common_pb2.AvailableTransition]
    def __init__(self, id: _Optional[str] = ..., listing_id: _Optional[str] = ..., listing_title: _Optional[str] = ..., listing_address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., lessee_account_id: _Optional[str] = ..., lessor_account_id: _Optional[str] = ..., status: _Optional[_Union[BookingStatus, str]] = ..., start_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., months: _Optional[int] = ..., end_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., monthly_rent: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., deposit: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., deposit_bill_id: _Optional[str] = ..., deposit_return: _Optional[_Union[DepositReturn, _Mapping]] = ..., message: _Optional[str] = ..., reason: _Optional[str] = ..., confirm_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., activate_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., lessee: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., lessor: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., available_transitions: _Optional[_Iterable[_Union[_common_pb2.AvailableTransition, _Mapping]]] = ...) -> None: ...

class BookingEvent(_message.Message):
    __slots__ = ("sequence", "event_time", "booking", "bill", "actor_account_id")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    BOOKING_FIELD_NUMBER: _ClassVar[int]
    BILL_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    event_time: _timestamp_pb2.Timestamp
    booking: Booking
    bill: Bill
    actor_account_id: str
    def __init__(self, sequence: _Optional[int] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., booking: _Optional[_Union[Booking, _Mapping]] = ..., bill: _Optional[_Union[Bill, _Mapping]] = ..., actor_account_id: _Optional[str] = ...) -> None: ...

class BillingPeriod(_message.Message):
    __slots__ = ("year", "month")
    YEAR_FIELD_NUMBER: _ClassVar[int]
    MONTH_FIELD_NUMBER: _ClassVar[int]
    year: int
    month: int
    def __init__(self, year: _Optional[int] = ..., month: _Optional[int] = ...) -> None: ...

class UtilityCharge(_message.Message):
    __slots__ = ("kind", "description", "amount")
    KIND_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    kind: UtilityKind
    description: str
    amount: _common_pb2.Money
    def __init__(self, kind: _Optional[_Union[UtilityKind, str]] = ..., description: _Optional[str] = ..., amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class Bill(_message.Message):
    __slots__ = ("id", "booking_id", "listing_id", "lessee_account_id", "lessor_account_id", "kind", "period", "rent", "utilities", "total", "due_date", "status", "note", "payment_id", "paid_time", "version", "create_time", "update_time", "split", "overdue", "overdue_time", "available_transitions")
    ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    LESSEE_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LESSOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    RENT_FIELD_NUMBER: _ClassVar[int]
    UTILITIES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    DUE_DATE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAID_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    SPLIT_FIELD_NUMBER: _ClassVar[int]
    OVERDUE_FIELD_NUMBER: _ClassVar[int]
    OVERDUE_TIME_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    booking_id: str
    listing_id: str
    lessee_account_id: str
    lessor_account_id: str
    kind: BillKind
    period: BillingPeriod
    rent: _common_pb2.Money
    utilities: _containers.RepeatedCompositeFieldContainer[UtilityCharge]
    total: _common_pb2.Money
    due_date: _common_pb2.Date
    status: BillStatus
    note: str
    payment_id: str
    paid_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    split: BillSplit
    overdue: bool
    overdue_time: _timestamp_pb2.Timestamp
    available_transitions: _containers.RepeatedCompositeFieldContainer[_common_pb2.AvailableTransition]
    def __init__(self, id: _Optional[str] = ..., booking_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., lessee_account_id: _Optional[str] = ..., lessor_account_id: _Optional[str] = ..., kind: _Optional[_Union[BillKind, str]] = ..., period: _Optional[_Union[BillingPeriod, _Mapping]] = ..., rent: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., utilities: _Optional[_Iterable[_Union[UtilityCharge, _Mapping]]] = ..., total: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., due_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., status: _Optional[_Union[BillStatus, str]] = ..., note: _Optional[str] = ..., payment_id: _Optional[str] = ..., paid_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., split: _Optional[_Union[BillSplit, _Mapping]] = ..., overdue: bool = ..., overdue_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., available_transitions: _Optional[_Iterable[_Union[_common_pb2.AvailableTransition, _Mapping]]] = ...) -> None: ...

class BillSplit(_message.Message):
    __slots__ = ("provider_fee", "platform_fee", "lessor_share")
    PROVIDER_FEE_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEE_FIELD_NUMBER: _ClassVar[int]
    LESSOR_SHARE_FIELD_NUMBER: _ClassVar[int]
    provider_fee: _common_pb2.Money
    platform_fee: _common_pb2.Money
    lessor_share: _common_pb2.Money
    def __init__(self, provider_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., platform_fee: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., lessor_share: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class MonthlyIncome(_message.Message):
    __slots__ = ("period", "paid_bills", "gross", "provider_fees", "platform_fees", "lessor_share")
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    PAID_BILLS_FIELD_NUMBER: _ClassVar[int]
    GROSS_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FEES_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FEES_FIELD_NUMBER: _ClassVar[int]
    LESSOR_SHARE_FIELD_NUMBER: _ClassVar[int]
    period: BillingPeriod
    paid_bills: int
    gross: _common_pb2.Money
    provider_fees: _common_pb2.Money
    platform_fees: _common_pb2.Money
    lessor_share: _common_pb2.Money
    def __init__(self, period: _Optional[_Union[BillingPeriod, _Mapping]] = ..., paid_bills: _Optional[int] = ..., gross: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., provider_fees: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., platform_fees: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., lessor_share: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class LessorIncome(_message.Message):
    __slots__ = ("lessor_account_id", "months", "total", "active_leases")
    LESSOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MONTHS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_LEASES_FIELD_NUMBER: _ClassVar[int]
    lessor_account_id: str
    months: _containers.RepeatedCompositeFieldContainer[MonthlyIncome]
    total: MonthlyIncome
    active_leases: int
    def __init__(self, lessor_account_id: _Optional[str] = ..., months: _Optional[_Iterable[_Union[MonthlyIncome, _Mapping]]] = ..., total: _Optional[_Union[MonthlyIncome, _Mapping]] = ..., active_leases: _Optional[int] = ...) -> None: ...

class CreateListingRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "listing")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    listing: Listing
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., listing: _Optional[_Union[Listing, _Mapping]] = ...) -> None: ...

class GetListingRequest(_message.Message):
    __slots__ = ("marketplace_id", "listing_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    listing_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., listing_id: _Optional[str] = ...) -> None: ...

class ListListingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "owner_account_id", "show_archived", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    OWNER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    owner_account_id: str
    show_archived: bool
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., owner_account_id: _Optional[str] = ..., show_archived: bool = ..., order_by: _Optional[str] = ...) -> None: ...

class ListListingsResponse(_message.Message):
    __slots__ = ("listings", "next_page_token")
    LISTINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    listings: _containers.RepeatedCompositeFieldContainer[Listing]
    next_page_token: str
    def __init__(self, listings: _Optional[_Iterable[_Union[Listing, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateListingRequest(_message.Message):
    __slots__ = ("marketplace_id", "listing", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    listing: Listing
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., listing: _Optional[_Union[Listing, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class PublishListingRequest(_message.Message):
    __slots__ = ("marketplace_id", "listing_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    listing_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveListingRequest(_message.Message):
    __slots__ = ("marketplace_id", "listing_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    listing_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreListingRequest(_message.Message):
    __slots__ = ("marketplace_id", "listing_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    listing_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ListingFilter(_message.Message):
    __slots__ = ("min_monthly_rent", "max_monthly_rent", "type", "features", "region_id", "district", "min_bedrooms", "min_bathrooms", "min_area_square_meters", "furnished", "parking")
    MIN_MONTHLY_RENT_FIELD_NUMBER: _ClassVar[int]
    MAX_MONTHLY_RENT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    REGION_ID_FIELD_NUMBER: _ClassVar[int]
    DISTRICT_FIELD_NUMBER: _ClassVar[int]
    MIN_BEDROOMS_FIELD_NUMBER: _ClassVar[int]
    MIN_BATHROOMS_FIELD_NUMBER: _ClassVar[int]
    MIN_AREA_SQUARE_METERS_FIELD_NUMBER: _ClassVar[int]
    FURNISHED_FIELD_NUMBER: _ClassVar[int]
    PARKING_FIELD_NUMBER: _ClassVar[int]
    min_monthly_rent: _common_pb2.Money
    max_monthly_rent: _common_pb2.Money
    type: ListingType
    features: _containers.RepeatedScalarFieldContainer[str]
    region_id: str
    district: str
    min_bedrooms: int
    min_bathrooms: int
    min_area_square_meters: int
    furnished: bool
    parking: bool
    def __init__(self, min_monthly_rent: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., max_monthly_rent: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., type: _Optional[_Union[ListingType, str]] = ..., features: _Optional[_Iterable[str]] = ..., region_id: _Optional[str] = ..., district: _Optional[str] = ..., min_bedrooms: _Optional[int] = ..., min_bathrooms: _Optional[int] = ..., min_area_square_meters: _Optional[int] = ..., furnished: bool = ..., parking: bool = ...) -> None: ...

class SearchListingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "query", "filter", "near", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    query: str
    filter: ListingFilter
    near: _common_pb2.GeoPoint
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., query: _Optional[str] = ..., filter: _Optional[_Union[ListingFilter, _Mapping]] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., order_by: _Optional[str] = ...) -> None: ...

class SearchListingsResponse(_message.Message):
    __slots__ = ("listings", "next_page_token")
    LISTINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    listings: _containers.RepeatedCompositeFieldContainer[ListingResult]
    next_page_token: str
    def __init__(self, listings: _Optional[_Iterable[_Union[ListingResult, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SearchNearbyListingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "near", "radius_meters", "filter")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    near: _common_pb2.GeoPoint
    radius_meters: int
    filter: ListingFilter
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., radius_meters: _Optional[int] = ..., filter: _Optional[_Union[ListingFilter, _Mapping]] = ...) -> None: ...

class RecommendListingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "near", "radius_meters", "max_monthly_rent", "type")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    MAX_MONTHLY_RENT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    near: _common_pb2.GeoPoint
    radius_meters: int
    max_monthly_rent: _common_pb2.Money
    type: ListingType
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., radius_meters: _Optional[int] = ..., max_monthly_rent: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., type: _Optional[_Union[ListingType, str]] = ...) -> None: ...

class CreateRegionRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "region")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    region: Region
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., region: _Optional[_Union[Region, _Mapping]] = ...) -> None: ...

class GetRegionRequest(_message.Message):
    __slots__ = ("marketplace_id", "region_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REGION_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    region_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., region_id: _Optional[str] = ...) -> None: ...

class ListRegionsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "show_archived")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    show_archived: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., show_archived: bool = ...) -> None: ...

class ListRegionsResponse(_message.Message):
    __slots__ = ("regions", "next_page_token")
    REGIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    regions: _containers.RepeatedCompositeFieldContainer[Region]
    next_page_token: str
    def __init__(self, regions: _Optional[_Iterable[_Union[Region, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateRegionRequest(_message.Message):
    __slots__ = ("marketplace_id", "region", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    region: Region
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., region: _Optional[_Union[Region, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreatePlaceRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "place")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    place: Place
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., place: _Optional[_Union[Place, _Mapping]] = ...) -> None: ...

class UpdatePlaceRequest(_message.Message):
    __slots__ = ("marketplace_id", "place", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    place: Place
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., place: _Optional[_Union[Place, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DeletePlaceRequest(_message.Message):
    __slots__ = ("marketplace_id", "place_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PLACE_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    place_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., place_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DeletePlaceResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListNearbyPlacesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "listing_id", "near", "radius_meters", "categories")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    listing_id: str
    near: _common_pb2.GeoPoint
    radius_meters: int
    categories: _containers.RepeatedScalarFieldContainer[PlaceCategory]
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., listing_id: _Optional[str] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., radius_meters: _Optional[int] = ..., categories: _Optional[_Iterable[_Union[PlaceCategory, str]]] = ...) -> None: ...

class ListNearbyPlacesResponse(_message.Message):
    __slots__ = ("places", "next_page_token")
    PLACES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    places: _containers.RepeatedCompositeFieldContainer[NearbyPlace]
    next_page_token: str
    def __init__(self, places: _Optional[_Iterable[_Union[NearbyPlace, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class AddFavoriteRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "listing_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    listing_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., listing_id: _Optional[str] = ...) -> None: ...

class RemoveFavoriteRequest(_message.Message):
    __slots__ = ("marketplace_id", "listing_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    listing_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., listing_id: _Optional[str] = ...) -> None: ...

class RemoveFavoriteResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListFavoritesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., order_by: _Optional[str] = ...) -> None: ...

class ListFavoritesResponse(_message.Message):
    __slots__ = ("favorites", "next_page_token")
    FAVORITES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    favorites: _containers.RepeatedCompositeFieldContainer[Favorite]
    next_page_token: str
    def __init__(self, favorites: _Optional[_Iterable[_Union[Favorite, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RequestBookingRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "listing_id", "start_date", "months", "message")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    MONTHS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    listing_id: str
    start_date: _common_pb2.Date
    months: int
    message: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., start_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., months: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class GetBookingRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ...) -> None: ...

class ListBookingsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "lessee_account_id", "lessor_account_id", "listing_id", "statuses", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LESSEE_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LESSOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LISTING_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    lessee_account_id: str
    lessor_account_id: str
    listing_id: str
    statuses: _containers.RepeatedScalarFieldContainer[BookingStatus]
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., lessee_account_id: _Optional[str] = ..., lessor_account_id: _Optional[str] = ..., listing_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[BookingStatus, str]]] = ..., order_by: _Optional[str] = ...) -> None: ...

class ListBookingsResponse(_message.Message):
    __slots__ = ("bookings", "next_page_token")
    BOOKINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bookings: _containers.RepeatedCompositeFieldContainer[Booking]
    next_page_token: str
    def __init__(self, bookings: _Optional[_Iterable[_Union[Booking, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ConfirmBookingRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id", "deposit_due_date", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    DEPOSIT_DUE_DATE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    deposit_due_date: _common_pb2.Date
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., deposit_due_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DeclineBookingRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CancelBookingRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class EndLeaseRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ReturnDepositRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id", "amount", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    amount: _common_pb2.Money
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class WatchBookingRequest(_message.Message):
    __slots__ = ("marketplace_id", "booking_id", "resume_after_sequence")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    booking_id: str
    resume_after_sequence: int
    def __init__(self, marketplace_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., resume_after_sequence: _Optional[int] = ...) -> None: ...

class CreateMonthlyBillRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "booking_id", "period", "utilities", "due_date", "note")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    UTILITIES_FIELD_NUMBER: _ClassVar[int]
    DUE_DATE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    booking_id: str
    period: BillingPeriod
    utilities: _containers.RepeatedCompositeFieldContainer[UtilityCharge]
    due_date: _common_pb2.Date
    note: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., period: _Optional[_Union[BillingPeriod, _Mapping]] = ..., utilities: _Optional[_Iterable[_Union[UtilityCharge, _Mapping]]] = ..., due_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., note: _Optional[str] = ...) -> None: ...

class GetBillRequest(_message.Message):
    __slots__ = ("marketplace_id", "bill_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BILL_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    bill_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., bill_id: _Optional[str] = ...) -> None: ...

class ListBillsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "lessee_account_id", "lessor_account_id", "booking_id", "statuses")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LESSEE_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LESSOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    BOOKING_ID_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    lessee_account_id: str
    lessor_account_id: str
    booking_id: str
    statuses: _containers.RepeatedScalarFieldContainer[BillStatus]
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., lessee_account_id: _Optional[str] = ..., lessor_account_id: _Optional[str] = ..., booking_id: _Optional[str] = ..., statuses: _Optional[_Iterable[_Union[BillStatus, str]]] = ...) -> None: ...

class ListBillsResponse(_message.Message):
    __slots__ = ("bills", "next_page_token")
    BILLS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bills: _containers.RepeatedCompositeFieldContainer[Bill]
    next_page_token: str
    def __init__(self, bills: _Optional[_Iterable[_Union[Bill, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateBillRequest(_message.Message):
    __slots__ = ("marketplace_id", "bill", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    BILL_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    bill: Bill
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., bill: _Optional[_Union[Bill, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class GetLessorIncomeRequest(_message.Message):
    __slots__ = ("marketplace_id", "lessor_account_id", "from_period", "to_period")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LESSOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_PERIOD_FIELD_NUMBER: _ClassVar[int]
    TO_PERIOD_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    lessor_account_id: str
    from_period: BillingPeriod
    to_period: BillingPeriod
    def __init__(self, marketplace_id: _Optional[str] = ..., lessor_account_id: _Optional[str] = ..., from_period: _Optional[_Union[BillingPeriod, _Mapping]] = ..., to_period: _Optional[_Union[BillingPeriod, _Mapping]] = ...) -> None: ...
