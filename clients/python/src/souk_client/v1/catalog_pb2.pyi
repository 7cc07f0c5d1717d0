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

class ServiceType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SERVICE_TYPE_UNSPECIFIED: _ClassVar[ServiceType]
    SERVICE_TYPE_DELIVERY: _ClassVar[ServiceType]
    SERVICE_TYPE_CLEANING: _ClassVar[ServiceType]
    SERVICE_TYPE_MAINTENANCE: _ClassVar[ServiceType]

class ProductCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRODUCT_CATEGORY_UNSPECIFIED: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_RED: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_WHITE: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_ROSE: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_SPARKLING: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_DESSERT: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_FORTIFIED: _ClassVar[ProductCategory]
    PRODUCT_CATEGORY_OTHER: _ClassVar[ProductCategory]

class RestaurantApprovalState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESTAURANT_APPROVAL_STATE_UNSPECIFIED: _ClassVar[RestaurantApprovalState]
    RESTAURANT_APPROVAL_STATE_PENDING: _ClassVar[RestaurantApprovalState]
    RESTAURANT_APPROVAL_STATE_APPROVED: _ClassVar[RestaurantApprovalState]
    RESTAURANT_APPROVAL_STATE_REJECTED: _ClassVar[RestaurantApprovalState]
SERVICE_TYPE_UNSPECIFIED: ServiceType
SERVICE_TYPE_DELIVERY: ServiceType
SERVICE_TYPE_CLEANING: ServiceType
SERVICE_TYPE_MAINTENANCE: ServiceType
PRODUCT_CATEGORY_UNSPECIFIED: ProductCategory
PRODUCT_CATEGORY_RED: ProductCategory
PRODUCT_CATEGORY_WHITE: ProductCategory
PRODUCT_CATEGORY_ROSE: ProductCategory
PRODUCT_CATEGORY_SPARKLING: ProductCategory
PRODUCT_CATEGORY_DESSERT: ProductCategory
PRODUCT_CATEGORY_FORTIFIED: ProductCategory
PRODUCT_CATEGORY_OTHER: ProductCategory
RESTAURANT_APPROVAL_STATE_UNSPECIFIED: RestaurantApprovalState
RESTAURANT_APPROVAL_STATE_PENDING: RestaurantApprovalState
RESTAURANT_APPROVAL_STATE_APPROVED: RestaurantApprovalState
RESTAURANT_APPROVAL_STATE_REJECTED: RestaurantApprovalState

class ServiceOption(_message.Message):
    __slots__ = ("id", "name", "price", "available", "translations", "code", "localized")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    TRANSLATIONS_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    LOCALIZED_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    price: _common_pb2.Money
    available: bool
    translations: _containers.RepeatedCompositeFieldContainer[_common_pb2.Translation]
    code: str
    localized: _common_pb2.Translation
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., available: bool = ..., translations: _Optional[_Iterable[_Union[_common_pb2.Translation, _Mapping]]] = ..., code: _Optional[str] = ..., localized: _Optional[_Union[_common_pb2.Translation, _Mapping]] = ...) -> None: ...

class Service(_message.Message):
    __slots__ = ("id", "name", "description", "type", "base_price", "available", "options", "image_media_id", "requires_approval", "archived", "archive_time", "version", "create_time", "update_time", "translations", "rating", "language_code", "localized")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    BASE_PRICE_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    IMAGE_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_APPROVAL_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    TRANSLATIONS_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_CODE_FIELD_NUMBER: _ClassVar[int]
    LOCALIZED_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    type: ServiceType
    base_price: _common_pb2.Money
    available: bool
    options: _containers.RepeatedCompositeFieldContainer[ServiceOption]
    image_media_id: str
    requires_approval: bool
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    translations: _containers.RepeatedCompositeFieldContainer[_common_pb2.Translation]
    rating: _common_pb2.RatingSummary
    language_code: str
    localized: _common_pb2.Translation
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., type: _Optional[_Union[ServiceType, str]] = ..., base_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., available: bool = ..., options: _Optional[_Iterable[_Union[ServiceOption, _Mapping]]] = ..., image_media_id: _Optional[str] = ..., requires_approval: bool = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., translations: _Optional[_Iterable[_Union[_common_pb2.Translation, _Mapping]]] = ..., rating: _Optional[_Union[_common_pb2.RatingSummary, _Mapping]] = ..., language_code: _Optional[str] = ..., localized: _Optional[_Union[_common_pb2.Translation, _Mapping]] = ...) -> None: ...

class Product(_message.Message):
    __slots__ = ("id", "name", "description", "tasting_notes", "pairings", "category", "grape", "region", "vintage", "image_media_ids", "price", "stock", "available", "expert_rating", "expert_review", "reviewer_account_id", "archived", "archive_time", "version", "create_time", "update_time", "featured")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TASTING_NOTES_FIELD_NUMBER: _ClassVar[int]
    PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    GRAPE_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    VINTAGE_FIELD_NUMBER: _ClassVar[int]
    IMAGE_MEDIA_IDS_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    EXPERT_RATING_FIELD_NUMBER: _ClassVar[int]
    EXPERT_REVIEW_FIELD_NUMBER: _ClassVar[int]
    REVIEWER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    FEATURED_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    tasting_notes: str
    pairings: str
    category: ProductCategory
    grape: str
    region: str
    vintage: int
    image_media_ids: _containers.RepeatedScalarFieldContainer[str]
    price: _common_pb2.Money
    stock: int
    available: bool
    expert_rating: int
    expert_review: str
    reviewer_account_id: str
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    featured: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., tasting_notes: _Optional[str] = ..., pairings: _Optional[str] = ..., category: _Optional[_Union[ProductCategory, str]] = ..., grape: _Optional[str] = ..., region: _Optional[str] = ..., vintage: _Optional[int] = ..., image_media_ids: _Optional[_Iterable[str]] = ..., price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., stock: _Optional[int] = ..., available: bool = ..., expert_rating: _Optional[int] = ..., expert_review: _Optional[str] = ..., reviewer_account_id: _Optional[str] = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., featured: bool = ...) -> None: ...

class Restaurant(_message.Message):
    __slots__ = ("id", "owner_account_id", "name", "description", "address", "logo_media_id", "picture_media_id", "categories", "commission_bps", "open", "rating", "archived", "archive_time", "version", "create_time", "update_time", "approval_state", "rejection_reason", "decided_by_account_id", "decide_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    LOGO_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    PICTURE_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    COMMISSION_BPS_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_STATE_FIELD_NUMBER: _ClassVar[int]
    REJECTION_REASON_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DECIDE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    owner_account_id: str
    name: str
    description: str
    address: _common_pb2.Address
    logo_media_id: str
    picture_media_id: str
    categories: _containers.RepeatedScalarFieldContainer[str]
    commission_bps: int
    open: bool
    rating: _common_pb2.RatingSummary
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    approval_state: RestaurantApprovalState
    rejection_reason: str
    decided_by_account_id: str
    decide_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., owner_account_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., address: _Optional[_Union[_common_pb2.Address, _Mapping]] = ..., logo_media_id: _Optional[str] = ..., picture_media_id: _Optional[str] = ..., categories: _Optional[_Iterable[str]] = ..., commission_bps: _Optional[int] = ..., open: bool = ..., rating: _Optional[_Union[_common_pb2.RatingSummary, _Mapping]] = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., approval_state: _Optional[_Union[RestaurantApprovalState, str]] = ..., rejection_reason: _Optional[str] = ..., decided_by_account_id: _Optional[str] = ..., decide_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RestaurantResult(_message.Message):
    __slots__ = ("restaurant", "distance_meters")
    RESTAURANT_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    restaurant: Restaurant
    distance_meters: int
    def __init__(self, restaurant: _Optional[_Union[Restaurant, _Mapping]] = ..., distance_meters: _Optional[int] = ...) -> None: ...

class MenuItem(_message.Message):
    __slots__ = ("id", "restaurant_id", "name", "description", "price", "discount_bps", "effective_price", "section", "picture_media_id", "available", "hidden", "archived", "archive_time", "version", "create_time", "update_time", "option_groups")
    ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    DISCOUNT_BPS_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_PRICE_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    PICTURE_MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    OPTION_GROUPS_FIELD_NUMBER: _ClassVar[int]
    id: str
    restaurant_id: str
    name: str
    description: str
    price: _common_pb2.Money
    discount_bps: int
    effective_price: _common_pb2.Money
    section: str
    picture_media_id: str
    available: bool
    hidden: bool
    archived: bool
    archive_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    option_groups: _containers.RepeatedCompositeFieldContainer[MenuOptionGroup]
    def __init__(self, id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., discount_bps: _Optional[int] = ..., effective_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., section: _Optional[str] = ..., picture_media_id: _Optional[str] = ..., available: bool = ..., hidden: bool = ..., archived: bool = ..., archive_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., option_groups: _Optional[_Iterable[_Union[MenuOptionGroup, _Mapping]]] = ...) -> None: ...

class MenuOptionGroup(_message.Message):
    __slots__ = ("id", "name", "required", "min_choices", "max_choices", "choices")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MIN_CHOICES_FIELD_NUMBER: _ClassVar[int]
    MAX_CHOICES_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    required: bool
    min_choices: int
    max_choices: int
    choices: _containers.RepeatedCompositeFieldContainer[MenuOptionChoice]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., required: bool = ..., min_choices: _Optional[int] = ..., max_choices: _Optional[int] = ..., choices: _Optional[_Iterable[_Union[MenuOptionChoice, _Mapping]]] = ...) -> None: ...

class MenuOptionChoice(_message.Message):
    __slots__ = ("id", "name", "price")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    price: _common_pb2.Money
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class MenuItemResult(_message.Message):
    __slots__ = ("menu_item", "restaurant_name", "distance_meters")
    MENU_ITEM_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_NAME_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_METERS_FIELD_NUMBER: _ClassVar[int]
    menu_item: MenuItem
    restaurant_name: str
    distance_meters: int
    def __init__(self, menu_item: _Optional[_Union[MenuItem, _Mapping]] = ..., restaurant_name: _Optional[str] = ..., distance_meters: _Optional[int] = ...) -> None: ...

class CreateServiceRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "service")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    service: Service
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., service: _Optional[_Union[Service, _Mapping]] = ...) -> None: ...

class GetServiceRequest(_message.Message):
    __slots__ = ("marketplace_id", "service_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    service_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., service_id: _Optional[str] = ...) -> None: ...

class ListServicesRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "type", "available_only", "show_archived", "query", "min_price", "max_price", "min_rating", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_ONLY_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    MIN_PRICE_FIELD_NUMBER: _ClassVar[int]
    MAX_PRICE_FIELD_NUMBER: _ClassVar[int]
    MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    type: ServiceType
    available_only: bool
    show_archived: bool
    query: str
    min_price: _common_pb2.Money
    max_price: _common_pb2.Money
    min_rating: int
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., type: _Optional[_Union[ServiceType, str]] = ..., available_only: bool = ..., show_archived: bool = ..., query: _Optional[str] = ..., min_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., max_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., min_rating: _Optional[int] = ..., order_by: _Optional[str] = ...) -> None: ...

class ListServicesResponse(_message.Message):
    __slots__ = ("services", "next_page_token")
    SERVICES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    services: _containers.RepeatedCompositeFieldContainer[Service]
    next_page_token: str
    def __init__(self, services: _Optional[_Iterable[_Union[Service, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateServiceRequest(_message.Message):
    __slots__ = ("marketplace_id", "service", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    service: Service
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., service: _Optional[_Union[Service, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveServiceRequest(_message.Message):
    __slots__ = ("marketplace_id", "service_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    service_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., service_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreServiceRequest(_message.Message):
    __slots__ = ("marketplace_id", "service_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    SERVICE_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    service_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., service_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreateProductRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "product")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    product: Product
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., product: _Optional[_Union[Product, _Mapping]] = ...) -> None: ...

class GetProductRequest(_message.Message):
    __slots__ = ("marketplace_id", "product_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    product_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., product_id: _Optional[str] = ...) -> None: ...

class ProductFilter(_message.Message):
    __slots__ = ("category", "min_price", "max_price", "min_expert_rating", "available_only", "featured_only")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    MIN_PRICE_FIELD_NUMBER: _ClassVar[int]
    MAX_PRICE_FIELD_NUMBER: _ClassVar[int]
    MIN_EXPERT_RATING_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_ONLY_FIELD_NUMBER: _ClassVar[int]
    FEATURED_ONLY_FIELD_NUMBER: _ClassVar[int]
    category: ProductCategory
    min_price: _common_pb2.Money
    max_price: _common_pb2.Money
    min_expert_rating: int
    available_only: bool
    featured_only: bool
    def __init__(self, category: _Optional[_Union[ProductCategory, str]] = ..., min_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., max_price: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., min_expert_rating: _Optional[int] = ..., available_only: bool = ..., featured_only: bool = ...) -> None: ...

class ListProductsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "filter", "show_archived", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    filter: ProductFilter
    show_archived: bool
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., filter: _Optional[_Union[ProductFilter, _Mapping]] = ..., show_archived: bool = ..., order_by: _Optional[str] = ...) -> None: ...

class ListProductsResponse(_message.Message):
    __slots__ = ("products", "next_page_token")
    PRODUCTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    products: _containers.RepeatedCompositeFieldContainer[Product]
    next_page_token: str
    def __init__(self, products: _Optional[_Iterable[_Union[Product, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SearchProductsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "query", "filter")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    query: str
    filter: ProductFilter
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., query: _Optional[str] = ..., filter: _Optional[_Union[ProductFilter, _Mapping]] = ...) -> None: ...

class ListRecommendedProductsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "product_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    product_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., product_id: _Optional[str] = ...) -> None: ...

class UpdateProductRequest(_message.Message):
    __slots__ = ("marketplace_id", "product", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    product: Product
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., product: _Optional[_Union[Product, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SetProductReviewRequest(_message.Message):
    __slots__ = ("marketplace_id", "product_id", "stars", "review", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ID_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    product_id: str
    stars: int
    review: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., product_id: _Optional[str] = ..., stars: _Optional[int] = ..., review: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveProductRequest(_message.Message):
    __slots__ = ("marketplace_id", "product_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    product_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., product_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreProductRequest(_message.Message):
    __slots__ = ("marketplace_id", "product_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PRODUCT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    product_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., product_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreateRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "restaurant")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    restaurant: Restaurant
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., restaurant: _Optional[_Union[Restaurant, _Mapping]] = ...) -> None: ...

class ApproveRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RejectRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class GetRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ...) -> None: ...

class ListRestaurantsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "near", "radius_meters", "open_only", "category", "owner_account_id", "show_archived", "approval_states", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    OPEN_ONLY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    OWNER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_STATES_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    near: _common_pb2.GeoPoint
    radius_meters: int
    open_only: bool
    category: str
    owner_account_id: str
    show_archived: bool
    approval_states: _containers.RepeatedScalarFieldContainer[RestaurantApprovalState]
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., radius_meters: _Optional[int] = ..., open_only: bool = ..., category: _Optional[str] = ..., owner_account_id: _Optional[str] = ..., show_archived: bool = ..., approval_states: _Optional[_Iterable[_Union[RestaurantApprovalState, str]]] = ..., order_by: _Optional[str] = ...) -> None: ...

class ListRestaurantsResponse(_message.Message):
    __slots__ = ("restaurants", "next_page_token")
    RESTAURANTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    restaurants: _containers.RepeatedCompositeFieldContainer[RestaurantResult]
    next_page_token: str
    def __init__(self, restaurants: _Optional[_Iterable[_Union[RestaurantResult, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SearchRestaurantsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "query", "category", "near", "radius_meters", "open_only", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    OPEN_ONLY_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    query: str
    category: str
    near: _common_pb2.GeoPoint
    radius_meters: int
    open_only: bool
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., query: _Optional[str] = ..., category: _Optional[str] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., radius_meters: _Optional[int] = ..., open_only: bool = ..., order_by: _Optional[str] = ...) -> None: ...

class UpdateRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant: Restaurant
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant: _Optional[_Union[Restaurant, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SetRestaurantCommissionRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant_id", "commission_bps", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    COMMISSION_BPS_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant_id: str
    commission_bps: int
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., commission_bps: _Optional[int] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreRestaurantRequest(_message.Message):
    __slots__ = ("marketplace_id", "restaurant_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    restaurant_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CreateMenuItemRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "menu_item")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MENU_ITEM_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    menu_item: MenuItem
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., menu_item: _Optional[_Union[MenuItem, _Mapping]] = ...) -> None: ...

class GetMenuItemRequest(_message.Message):
    __slots__ = ("marketplace_id", "menu_item_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MENU_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    menu_item_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., menu_item_id: _Optional[str] = ...) -> None: ...

class ListMenuItemsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "restaurant_id", "section", "show_hidden", "show_archived")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RESTAURANT_ID_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    SHOW_HIDDEN_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    restaurant_id: str
    section: str
    show_hidden: bool
    show_archived: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., restaurant_id: _Optional[str] = ..., section: _Optional[str] = ..., show_hidden: bool = ..., show_archived: bool = ...) -> None: ...

class ListMenuItemsResponse(_message.Message):
    __slots__ = ("menu_items", "next_page_token")
    MENU_ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    menu_items: _containers.RepeatedCompositeFieldContainer[MenuItem]
    next_page_token: str
    def __init__(self, menu_items: _Optional[_Iterable[_Union[MenuItem, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SearchMenuItemsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "query", "section", "near", "radius_meters", "open_only")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    RADIUS_METERS_FIELD_NUMBER: _ClassVar[int]
    OPEN_ONLY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    query: str
    section: str
    near: _common_pb2.GeoPoint
    radius_meters: int
    open_only: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., query: _Optional[str] = ..., section: _Optional[str] = ..., near: _Optional[_Union[_common_pb2.GeoPoint, _Mapping]] = ..., radius_meters: _Optional[int] = ..., open_only: bool = ...) -> None: ...

class SearchMenuItemsResponse(_message.Message):
    __slots__ = ("results", "next_page_token")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[MenuItemResult]
    next_page_token: str
    def __init__(self, results: _Optional[_Iterable[_Union[MenuItemResult, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateMenuItemRequest(_message.Message):
    __slots__ = ("marketplace_id", "menu_item", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MENU_ITEM_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    menu_item: MenuItem
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., menu_item: _Optional[_Union[MenuItem, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ArchiveMenuItemRequest(_message.Message):
    __slots__ = ("marketplace_id", "menu_item_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MENU_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    menu_item_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., menu_item_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RestoreMenuItemRequest(_message.Message):
    __slots__ = ("marketplace_id", "menu_item_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MENU_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    menu_item_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., menu_item_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...
