import datetime

from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from souk_client.v1 import accounts_pb2 as _accounts_pb2
from souk_client.v1 import common_pb2 as _common_pb2
from souk_client.v1 import feedback_pb2 as _feedback_pb2
from souk_client.v1 import payments_pb2 as _payments_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JobStage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT: _ClassVar[JobStage]
    JOB_STAGE_DASHER_ACCEPTED_REQUEST: _ClassVar[JobStage]
    JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP: _ClassVar[JobStage]
    JOB_STAGE_PICKED_UP_LAUNDRY: _ClassVar[JobStage]
    JOB_STAGE_LAUNDRY_IN_WASHER: _ClassVar[JobStage]
    JOB_STAGE_FINISHED_WASHING: _ClassVar[JobStage]
    JOB_STAGE_LAUNDRY_IN_DRYER: _ClassVar[JobStage]
    JOB_STAGE_FINISHED_DRYING: _ClassVar[JobStage]
    JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF: _ClassVar[JobStage]
    JOB_STAGE_DROPPED_OFF_LAUNDRY: _ClassVar[JobStage]

class JobState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_STATE_UNSPECIFIED: _ClassVar[JobState]
    JOB_STATE_ACTIVE: _ClassVar[JobState]
    JOB_STATE_DROPPED_OFF: _ClassVar[JobState]
    JOB_STATE_CANCELLED: _ClassVar[JobState]

class LaundryAddOn(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LAUNDRY_ADD_ON_UNSPECIFIED: _ClassVar[LaundryAddOn]
    LAUNDRY_ADD_ON_FOLDING: _ClassVar[LaundryAddOn]
    LAUNDRY_ADD_ON_IRONING: _ClassVar[LaundryAddOn]

class DisputeStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DISPUTE_STATUS_UNSPECIFIED: _ClassVar[DisputeStatus]
    DISPUTE_STATUS_OPEN: _ClassVar[DisputeStatus]
    DISPUTE_STATUS_RESOLVED: _ClassVar[DisputeStatus]

class DisputeOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DISPUTE_OUTCOME_UNSPECIFIED: _ClassVar[DisputeOutcome]
    DISPUTE_OUTCOME_REJECTED: _ClassVar[DisputeOutcome]
    DISPUTE_OUTCOME_PARTIAL_REFUND: _ClassVar[DisputeOutcome]
    DISPUTE_OUTCOME_FULL_REFUND: _ClassVar[DisputeOutcome]

class EarningsPeriod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EARNINGS_PERIOD_UNSPECIFIED: _ClassVar[EarningsPeriod]
    EARNINGS_PERIOD_WEEK: _ClassVar[EarningsPeriod]
    EARNINGS_PERIOD_MONTH: _ClassVar[EarningsPeriod]
JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT: JobStage
JOB_STAGE_DASHER_ACCEPTED_REQUEST: JobStage
JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP: JobStage
JOB_STAGE_PICKED_UP_LAUNDRY: JobStage
JOB_STAGE_LAUNDRY_IN_WASHER: JobStage
JOB_STAGE_FINISHED_WASHING: JobStage
JOB_STAGE_LAUNDRY_IN_DRYER: JobStage
JOB_STAGE_FINISHED_DRYING: JobStage
JOB_STAGE_DASHER_ON_WAY_FOR_DROP_OFF: JobStage
JOB_STAGE_DROPPED_OFF_LAUNDRY: JobStage
JOB_STATE_UNSPECIFIED: JobState
JOB_STATE_ACTIVE: JobState
JOB_STATE_DROPPED_OFF: JobState
JOB_STATE_CANCELLED: JobState
LAUNDRY_ADD_ON_UNSPECIFIED: LaundryAddOn
LAUNDRY_ADD_ON_FOLDING: LaundryAddOn
LAUNDRY_ADD_ON_IRONING: LaundryAddOn
DISPUTE_STATUS_UNSPECIFIED: DisputeStatus
DISPUTE_STATUS_OPEN: DisputeStatus
DISPUTE_STATUS_RESOLVED: DisputeStatus
DISPUTE_OUTCOME_UNSPECIFIED: DisputeOutcome
DISPUTE_OUTCOME_REJECTED: DisputeOutcome
DISPUTE_OUTCOME_PARTIAL_REFUND: DisputeOutcome
DISPUTE_OUTCOME_FULL_REFUND: DisputeOutcome
EARNINGS_PERIOD_UNSPECIFIED: EarningsPeriod
EARNINGS_PERIOD_WEEK: EarningsPeriod
EARNINGS_PERIOD_MONTH: EarningsPeriod

class Dorm(_message.Message):
    __slots__ = ("id", "campus", "name", "archived", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    CAMPUS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    campus: str
    name: str
    archived: bool
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., campus: _Optional[str] = ..., name: _Optional[str] = ..., archived: bool = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class JobDispute(_message.Message):
    __slots__ = ("status", "reason", "open_time", "resolution", "resolved_by_account_id", "refund", "resolve_time", "outcome")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    OPEN_TIME_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    REFUND_FIELD_NUMBER: _ClassVar[int]
    RESOLVE_TIME_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    status: DisputeStatus
    reason: str
    open_time: _timestamp_pb2.Timestamp
    resolution: str
    resolved_by_account_id: str
    refund: _common_pb2.Money
    resolve_time: _timestamp_pb2.Timestamp
    outcome: DisputeOutcome
    def __init__(self, status: _Optional[_Union[DisputeStatus, str]] = ..., reason: _Optional[str] = ..., open_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., resolution: _Optional[str] = ..., resolved_by_account_id: _Optional[str] = ..., refund: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., resolve_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., outcome: _Optional[_Union[DisputeOutcome, str]] = ...) -> None: ...

class StageTime(_message.Message):
    __slots__ = ("stage", "time")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    stage: JobStage
    time: _timestamp_pb2.Timestamp
    def __init__(self, stage: _Optional[_Union[JobStage, str]] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Job(_message.Message):
    __slots__ = ("id", "customer_account_id", "customer", "dorm_id", "room", "loads_estimate", "instructions", "pickup_time", "dropoff_time", "add_ons", "preferred_dasher_account_id", "stage", "state", "dasher_account_id", "dasher", "offered_to_account_id", "offer_expire_time", "estimate", "actual_loads", "machine_cost_total", "final_price", "payment_id", "payment_status", "paid_amount", "pay_time", "refunded_amount", "dispute", "customer_rated_dasher", "dasher_rated_customer", "stage_times", "cancel_reason", "cancel_time", "version", "create_time", "update_time", "same_gender_only", "final_price_confirmation_required", "final_price_confirm_time", "complete_time", "dasher_completed_jobs", "dasher_since", "available_transitions")
    ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_FIELD_NUMBER: _ClassVar[int]
    DORM_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_FIELD_NUMBER: _ClassVar[int]
    LOADS_ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    PICKUP_TIME_FIELD_NUMBER: _ClassVar[int]
    DROPOFF_TIME_FIELD_NUMBER: _ClassVar[int]
    ADD_ONS_FIELD_NUMBER: _ClassVar[int]
    PREFERRED_DASHER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    DASHER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DASHER_FIELD_NUMBER: _ClassVar[int]
    OFFERED_TO_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    OFFER_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    ACTUAL_LOADS_FIELD_NUMBER: _ClassVar[int]
    MACHINE_COST_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINAL_PRICE_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_STATUS_FIELD_NUMBER: _ClassVar[int]
    PAID_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PAY_TIME_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    DISPUTE_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_RATED_DASHER_FIELD_NUMBER: _ClassVar[int]
    DASHER_RATED_CUSTOMER_FIELD_NUMBER: _ClassVar[int]
    STAGE_TIMES_FIELD_NUMBER: _ClassVar[int]
    CANCEL_REASON_FIELD_NUMBER: _ClassVar[int]
    CANCEL_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    SAME_GENDER_ONLY_FIELD_NUMBER: _ClassVar[int]
    FINAL_PRICE_CONFIRMATION_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    FINAL_PRICE_CONFIRM_TIME_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_TIME_FIELD_NUMBER: _ClassVar[int]
    DASHER_COMPLETED_JOBS_FIELD_NUMBER: _ClassVar[int]
    DASHER_SINCE_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_TRANSITIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    customer_account_id: str
    customer: _common_pb2.PersonSummary
    dorm_id: str
    room: str
    loads_estimate: int
    instructions: str
    pickup_time: _timestamp_pb2.Timestamp
    dropoff_time: _timestamp_pb2.Timestamp
    add_ons: _containers.RepeatedScalarFieldContainer[LaundryAddOn]
    preferred_dasher_account_id: str
    stage: JobStage
    state: JobState
    dasher_account_id: str
    dasher: _common_pb2.PersonSummary
    offered_to_account_id: str
    offer_expire_time: _timestamp_pb2.Timestamp
    estimate: _common_pb2.PriceBreakdown
    actual_loads: int
    machine_cost_total: _common_pb2.Money
    final_price: _common_pb2.PriceBreakdown
    payment_id: str
    payment_status: _payments_pb2.PaymentStatus
    paid_amount: _common_pb2.Money
    pay_time: _timestamp_pb2.Timestamp
    refunded_amount: _common_pb2.Money
    dispute: JobDispute
    customer_rated_dasher: bool
    dasher_rated_customer: bool
    stage_times: _containers.RepeatedCompositeFieldContainer[StageTime]
    cancel_reason: str
    cancel_time: _timestamp_pb2.Timestamp
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    same_gender_only: bool
    final_price_confirmation_required: bool
    final_price_confirm_time: _timestamp_pb2.Timestamp
    complete_time: _timestamp_pb2.Timestamp
    dasher_completed_jobs: int
    dasher_since: _timestamp_pb2.Timestamp
    available_transitions: _containers.RepeatedCompositeFieldContainer[_common_pb2.AvailableTransition]
    def __init__(self, id: _Optional[str] = ..., customer_account_id: _Optional[str] = ..., customer: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., dorm_id: _Optional[str] = ..., room: _Optional[str] = ..., loads_estimate: _Optional[int] = ..., instructions: _Optional[str] = ..., pickup_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., dropoff_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., add_ons: _Optional[_Iterable[_Union[LaundryAddOn, str]]] = ..., preferred_dasher_account_id: _Optional[str] = ..., stage: _Optional[_Union[JobStage, str]] = ..., state: _Optional[_Union[JobState, str]] = ..., dasher_account_id: _Optional[str] = ..., dasher: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., offered_to_account_id: _Optional[str] = ..., offer_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., estimate: _Optional[_Union[_common_pb2.PriceBreakdown, _Mapping]] = ..., actual_loads: _Optional[int] = ..., machine_cost_total: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., final_price: _Optional[_Union[_common_pb2.PriceBreakdown, _Mapping]] = ..., payment_id: _Optional[str] = ..., payment_status: _Optional[_Union[_payments_pb2.PaymentStatus, str]] = ..., paid_amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., pay_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., refunded_amount: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., dispute: _Optional[_Union[JobDispute, _Mapping]] = ..., customer_rated_dasher: bool = ..., dasher_rated_customer: bool = ..., stage_times: _Optional[_Iterable[_Union[StageTime, _Mapping]]] = ..., cancel_reason: _Optional[str] = ..., cancel_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., same_gender_only: bool = ..., final_price_confirmation_required: bool = ..., final_price_confirm_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., complete_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., dasher_completed_jobs: _Optional[int] = ..., dasher_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., available_transitions: _Optional[_Iterable[_Union[_common_pb2.AvailableTransition, _Mapping]]] = ...) -> None: ...

class JobEvent(_message.Message):
    __slots__ = ("sequence", "event_time", "job", "previous_stage", "actor_account_id")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_STAGE_FIELD_NUMBER: _ClassVar[int]
    ACTOR_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    event_time: _timestamp_pb2.Timestamp
    job: Job
    previous_stage: JobStage
    actor_account_id: str
    def __init__(self, sequence: _Optional[int] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., job: _Optional[_Union[Job, _Mapping]] = ..., previous_stage: _Optional[_Union[JobStage, str]] = ..., actor_account_id: _Optional[str] = ...) -> None: ...

class CreateDormRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "dorm")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DORM_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    dorm: Dorm
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., dorm: _Optional[_Union[Dorm, _Mapping]] = ...) -> None: ...

class GetDormRequest(_message.Message):
    __slots__ = ("marketplace_id", "dorm_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DORM_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    dorm_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., dorm_id: _Optional[str] = ...) -> None: ...

class ListDormsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "campus", "show_archived")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CAMPUS_FIELD_NUMBER: _ClassVar[int]
    SHOW_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    campus: str
    show_archived: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., campus: _Optional[str] = ..., show_archived: bool = ...) -> None: ...

class ListDormsResponse(_message.Message):
    __slots__ = ("dorms", "next_page_token")
    DORMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    dorms: _containers.RepeatedCompositeFieldContainer[Dorm]
    next_page_token: str
    def __init__(self, dorms: _Optional[_Iterable[_Union[Dorm, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateDormRequest(_message.Message):
    __slots__ = ("marketplace_id", "dorm", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DORM_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    dorm: Dorm
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., dorm: _Optional[_Union[Dorm, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class EstimateJobPriceRequest(_message.Message):
    __slots__ = ("marketplace_id", "loads_estimate", "add_ons")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    LOADS_ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    ADD_ONS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    loads_estimate: int
    add_ons: _containers.RepeatedScalarFieldContainer[LaundryAddOn]
    def __init__(self, marketplace_id: _Optional[str] = ..., loads_estimate: _Optional[int] = ..., add_ons: _Optional[_Iterable[_Union[LaundryAddOn, str]]] = ...) -> None: ...

class ListAcceptingDashersRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "dorm_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    DORM_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    dorm_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., dorm_id: _Optional[str] = ...) -> None: ...

class ListAcceptingDashersResponse(_message.Message):
    __slots__ = ("dashers", "next_page_token")
    DASHERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    dashers: _containers.RepeatedCompositeFieldContainer[DasherSummary]
    next_page_token: str
    def __init__(self, dashers: _Optional[_Iterable[_Union[DasherSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SetAcceptingRequestsRequest(_message.Message):
    __slots__ = ("marketplace_id", "accepting_requests")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPTING_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    accepting_requests: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., accepting_requests: bool = ...) -> None: ...

class SubmitJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "loads_estimate", "instructions", "pickup_time", "dropoff_time", "add_ons", "preferred_dasher_account_id", "same_gender_only")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LOADS_ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    PICKUP_TIME_FIELD_NUMBER: _ClassVar[int]
    DROPOFF_TIME_FIELD_NUMBER: _ClassVar[int]
    ADD_ONS_FIELD_NUMBER: _ClassVar[int]
    PREFERRED_DASHER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SAME_GENDER_ONLY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    loads_estimate: int
    instructions: str
    pickup_time: _timestamp_pb2.Timestamp
    dropoff_time: _timestamp_pb2.Timestamp
    add_ons: _containers.RepeatedScalarFieldContainer[LaundryAddOn]
    preferred_dasher_account_id: str
    same_gender_only: bool
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., loads_estimate: _Optional[int] = ..., instructions: _Optional[str] = ..., pickup_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., dropoff_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., add_ons: _Optional[_Iterable[_Union[LaundryAddOn, str]]] = ..., preferred_dasher_account_id: _Optional[str] = ..., same_gender_only: bool = ...) -> None: ...

class GetJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ...) -> None: ...

class ListJobsRequest(_message.Message):
    __slots__ = ("marketplace_id", "page_size", "page_token", "customer_account_id", "dasher_account_id", "dorm_id", "states", "open_disputes", "order_by")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DASHER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    DORM_ID_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    OPEN_DISPUTES_FIELD_NUMBER: _ClassVar[int]
    ORDER_BY_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    page_size: int
    page_token: str
    customer_account_id: str
    dasher_account_id: str
    dorm_id: str
    states: _containers.RepeatedScalarFieldContainer[JobState]
    open_disputes: bool
    order_by: str
    def __init__(self, marketplace_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., customer_account_id: _Optional[str] = ..., dasher_account_id: _Optional[str] = ..., dorm_id: _Optional[str] = ..., states: _Optional[_Iterable[_Union[JobState, str]]] = ..., open_disputes: bool = ..., order_by: _Optional[str] = ...) -> None: ...

class ListJobsResponse(_message.Message):
    __slots__ = ("jobs", "next_page_token")
    JOBS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[Job]
    next_page_token: str
    def __init__(self, jobs: _Optional[_Iterable[_Union[Job, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ClearPreferredDasherRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RequestWorkRequest(_message.Message):
    __slots__ = ("marketplace_id",)
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    def __init__(self, marketplace_id: _Optional[str] = ...) -> None: ...

class RequestWorkResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class AcceptJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DenyJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RejectDasherRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class AdvanceJobStageRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "target_stage", "actual_loads", "machine_cost_total", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_STAGE_FIELD_NUMBER: _ClassVar[int]
    ACTUAL_LOADS_FIELD_NUMBER: _ClassVar[int]
    MACHINE_COST_TOTAL_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    target_stage: JobStage
    actual_loads: int
    machine_cost_total: _common_pb2.Money
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., target_stage: _Optional[_Union[JobStage, str]] = ..., actual_loads: _Optional[int] = ..., machine_cost_total: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ConfirmFinalPriceRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CancelJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class DisputeJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "reason", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    reason: str
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., reason: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ResolveDisputeRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "resolution", "refund", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    REFUND_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    resolution: str
    refund: _common_pb2.Money
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., resolution: _Optional[str] = ..., refund: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class RateJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "job_id", "stars", "comment")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    job_id: str
    stars: int
    comment: str
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., job_id: _Optional[str] = ..., stars: _Optional[int] = ..., comment: _Optional[str] = ...) -> None: ...

class WatchJobRequest(_message.Message):
    __slots__ = ("marketplace_id", "job_id", "resume_after_sequence")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    JOB_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    job_id: str
    resume_after_sequence: int
    def __init__(self, marketplace_id: _Optional[str] = ..., job_id: _Optional[str] = ..., resume_after_sequence: _Optional[int] = ...) -> None: ...

class GetDasherEarningsRequest(_message.Message):
    __slots__ = ("marketplace_id", "dasher_account_id", "period", "start_date", "end_date")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    DASHER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    END_DATE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    dasher_account_id: str
    period: EarningsPeriod
    start_date: _common_pb2.Date
    end_date: _common_pb2.Date
    def __init__(self, marketplace_id: _Optional[str] = ..., dasher_account_id: _Optional[str] = ..., period: _Optional[_Union[EarningsPeriod, str]] = ..., start_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., end_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ...) -> None: ...

class DasherEarningsPeriod(_message.Message):
    __slots__ = ("start_date", "end_date", "jobs_paid", "paid", "refunded", "earnings")
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    END_DATE_FIELD_NUMBER: _ClassVar[int]
    JOBS_PAID_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    REFUNDED_FIELD_NUMBER: _ClassVar[int]
    EARNINGS_FIELD_NUMBER: _ClassVar[int]
    start_date: _common_pb2.Date
    end_date: _common_pb2.Date
    jobs_paid: int
    paid: _common_pb2.Money
    refunded: _common_pb2.Money
    earnings: _common_pb2.Money
    def __init__(self, start_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., end_date: _Optional[_Union[_common_pb2.Date, _Mapping]] = ..., jobs_paid: _Optional[int] = ..., paid: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., refunded: _Optional[_Union[_common_pb2.Money, _Mapping]] = ..., earnings: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class DasherEarnings(_message.Message):
    __slots__ = ("dasher_account_id", "period", "periods", "total_earnings")
    DASHER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    PERIODS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_EARNINGS_FIELD_NUMBER: _ClassVar[int]
    dasher_account_id: str
    period: EarningsPeriod
    periods: _containers.RepeatedCompositeFieldContainer[DasherEarningsPeriod]
    total_earnings: _common_pb2.Money
    def __init__(self, dasher_account_id: _Optional[str] = ..., period: _Optional[_Union[EarningsPeriod, str]] = ..., periods: _Optional[_Iterable[_Union[DasherEarningsPeriod, _Mapping]]] = ..., total_earnings: _Optional[_Union[_common_pb2.Money, _Mapping]] = ...) -> None: ...

class DasherSummary(_message.Message):
    __slots__ = ("person", "completed_jobs", "dasher_since")
    PERSON_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_JOBS_FIELD_NUMBER: _ClassVar[int]
    DASHER_SINCE_FIELD_NUMBER: _ClassVar[int]
    person: _common_pb2.PersonSummary
    completed_jobs: int
    dasher_since: _timestamp_pb2.Timestamp
    def __init__(self, person: _Optional[_Union[_common_pb2.PersonSummary, _Mapping]] = ..., completed_jobs: _Optional[int] = ..., dasher_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class QuizQuestion(_message.Message):
    __slots__ = ("id", "text", "choices", "correct_choice", "archived", "version", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    CORRECT_CHOICE_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    text: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    correct_choice: int
    archived: bool
    version: int
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., text: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ..., correct_choice: _Optional[int] = ..., archived: bool = ..., version: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateQuizQuestionRequest(_message.Message):
    __slots__ = ("marketplace_id", "request_id", "question")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    request_id: str
    question: QuizQuestion
    def __init__(self, marketplace_id: _Optional[str] = ..., request_id: _Optional[str] = ..., question: _Optional[_Union[QuizQuestion, _Mapping]] = ...) -> None: ...

class ListQuizQuestionsRequest(_message.Message):
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

class ListQuizQuestionsResponse(_message.Message):
    __slots__ = ("questions", "next_page_token")
    QUESTIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    questions: _containers.RepeatedCompositeFieldContainer[QuizQuestion]
    next_page_token: str
    def __init__(self, questions: _Optional[_Iterable[_Union[QuizQuestion, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateQuizQuestionRequest(_message.Message):
    __slots__ = ("marketplace_id", "question", "update_mask", "expected_version")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    question: QuizQuestion
    update_mask: _field_mask_pb2.FieldMask
    expected_version: int
    def __init__(self, marketplace_id: _Optional[str] = ..., question: _Optional[_Union[QuizQuestion, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class QuizAnswer(_message.Message):
    __slots__ = ("question_id", "choice")
    QUESTION_ID_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    question_id: str
    choice: int
    def __init__(self, question_id: _Optional[str] = ..., choice: _Optional[int] = ...) -> None: ...

class SubmitQuizAnswersRequest(_message.Message):
    __slots__ = ("marketplace_id", "answers", "dasher_age")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    DASHER_AGE_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    answers: _containers.RepeatedCompositeFieldContainer[QuizAnswer]
    dasher_age: int
    def __init__(self, marketplace_id: _Optional[str] = ..., answers: _Optional[_Iterable[_Union[QuizAnswer, _Mapping]]] = ..., dasher_age: _Optional[int] = ...) -> None: ...

class QuizResult(_message.Message):
    __slots__ = ("correct", "total", "score_percent", "passed", "retry_time", "account")
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    SCORE_PERCENT_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    RETRY_TIME_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    correct: int
    total: int
    score_percent: int
    passed: bool
    retry_time: _timestamp_pb2.Timestamp
    account: _accounts_pb2.Account
    def __init__(self, correct: _Optional[int] = ..., total: _Optional[int] = ..., score_percent: _Optional[int] = ..., passed: bool = ..., retry_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., account: _Optional[_Union[_accounts_pb2.Account, _Mapping]] = ...) -> None: ...
