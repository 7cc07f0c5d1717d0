import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MediaPurpose(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MEDIA_PURPOSE_UNSPECIFIED: _ClassVar[MediaPurpose]
    MEDIA_PURPOSE_AVATAR: _ClassVar[MediaPurpose]
    MEDIA_PURPOSE_CATALOG_PICTURE: _ClassVar[MediaPurpose]
    MEDIA_PURPOSE_LISTING_PHOTO: _ClassVar[MediaPurpose]
    MEDIA_PURPOSE_ATTACHMENT: _ClassVar[MediaPurpose]
    MEDIA_PURPOSE_ADVERTISEMENT: _ClassVar[MediaPurpose]
MEDIA_PURPOSE_UNSPECIFIED: MediaPurpose
MEDIA_PURPOSE_AVATAR: MediaPurpose
MEDIA_PURPOSE_CATALOG_PICTURE: MediaPurpose
MEDIA_PURPOSE_LISTING_PHOTO: MediaPurpose
MEDIA_PURPOSE_ATTACHMENT: MediaPurpose
MEDIA_PURPOSE_ADVERTISEMENT: MediaPurpose

class MediaObject(_message.Message):
    __slots__ = ("id", "marketplace_id", "owner_account_id", "content_type", "size_bytes", "sha256", "file_name", "purpose", "referenced", "create_time", "url")
    ID_FIELD_NUMBER: _ClassVar[int]
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    REFERENCED_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    id: str
    marketplace_id: str
    owner_account_id: str
    content_type: str
    size_bytes: int
    sha256: str
    file_name: str
    purpose: MediaPurpose
    referenced: bool
    create_time: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., marketplace_id: _Optional[str] = ..., owner_account_id: _Optional[str] = ..., content_type: _Optional[str] = ..., size_bytes: _Optional[int] = ..., sha256: _Optional[str] = ..., file_name: _Optional[str] = ..., purpose: _Optional[_Union[MediaPurpose, str]] = ..., referenced: bool = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., url: _Optional[str] = ...) -> None: ...

class UploadMediaMetadata(_message.Message):
    __slots__ = ("request_id", "content_type", "size_bytes", "file_name", "purpose")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    content_type: str
    size_bytes: int
    file_name: str
    purpose: MediaPurpose
    def __init__(self, request_id: _Optional[str] = ..., content_type: _Optional[str] = ..., size_bytes: _Optional[int] = ..., file_name: _Optional[str] = ..., purpose: _Optional[_Union[MediaPurpose, str]] = ...) -> None: ...

class UploadMediaRequest(_message.Message):
    __slots__ = ("marketplace_id", "metadata", "chunk")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    metadata: UploadMediaMetadata
    chunk: bytes
    def __init__(self, marketplace_id: _Optional[str] = ..., metadata: _Optional[_Union[UploadMediaMetadata, _Mapping]] = ..., chunk: _Optional[bytes] = ...) -> None: ...

class GetMediaRequest(_message.Message):
    __slots__ = ("marketplace_id", "media_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    media_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., media_id: _Optional[str] = ...) -> None: ...

class DownloadMediaRequest(_message.Message):
    __slots__ = ("marketplace_id", "media_id")
    MARKETPLACE_ID_FIELD_NUMBER: _ClassVar[int]
    MEDIA_ID_FIELD_NUMBER: _ClassVar[int]
    marketplace_id: str
    media_id: str
    def __init__(self, marketplace_id: _Optional[str] = ..., media_id: _Optional[str] = ...) -> None: ...

class DownloadMediaResponse(_message.Message):
    __slots__ = ("media", "chunk")
    MEDIA_FIELD_NUMBER: _ClassVar[int]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    media: MediaObject
    chunk: bytes
    def __init__(self, media: _Optional[_Union[MediaObject, _Mapping]] = ..., chunk: _Optional[bytes] = ...) -> None: ...
