"""Souk's errors as one exception: the status, and the google.rpc.Status details the server puts in
the `grpc-status-details-bin` trailer (AIP-193): ErrorInfo, BadRequest, RetryInfo and
LocalizedMessage."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Optional, TypeVar

import grpc
from google.rpc import error_details_pb2, status_pb2

from souk_client.v1 import common_pb2

DOMAIN = "souk.v1"
_DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True)
class FieldViolation:
    """One wrong field of a request (google.rpc.BadRequest.FieldViolation)."""
    field: str
    description: str
    reason: str = ""


class SoukError(grpc.RpcError):
    """A failed Souk call: the status code, the developer-facing message, and the details.

    It is a `grpc.RpcError` whose `code()`, `details()`, `trailing_metadata()` and
    `initial_metadata()` answer like grpcio's, so code written for grpcio keeps working.
    Branch on `reason` (an ErrorReason name without its prefix, "STALE_VERSION"), never on
    messages; show `localized_message` to the user.
    """

    def __init__(self, code: grpc.StatusCode, message: str, status: Optional[status_pb2.Status] = None,
                 trailing_metadata=(), initial_metadata=()):
        super().__init__(f"{code.name}: {message}")
        self.status = code
        self.message = message
        self.rich_status = status
        self._trailing = tuple(trailing_metadata or ())
        self._initial = tuple(initial_metadata or ())
        self.reason = ""
        self.domain = ""
        self.metadata: dict = {}
        self.field_violations: list = []
        self.retry_delay: Optional[float] = None
        self.localized_message = ""
        self.locale = ""
        for detail in status.details if status is not None else ():
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR) and not self.domain:
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                self.reason, self.domain, self.metadata = info.reason, info.domain, dict(info.metadata)
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                self.field_violations += [FieldViolation(v.field, v.description, v.reason) for v in bad.field_violations]
            elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry = error_details_pb2.RetryInfo()
                detail.Unpack(retry)
                self.retry_delay = retry.retry_delay.seconds + retry.retry_delay.nanos / 1e9
            elif detail.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR):
                localized = error_details_pb2.LocalizedMessage()
                detail.Unpack(localized)
                self.localized_message, self.locale = localized.message, localized.locale

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> "SoukError":
        """The SoukError of a grpcio failure (itself if it already is one)."""
        if isinstance(error, SoukError):
            return error
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        message = (error.details() if hasattr(error, "details") else str(error)) or ""
        trailing = error.trailing_metadata() if hasattr(error, "trailing_metadata") else ()
        initial = ()
        if hasattr(error, "initial_metadata"):
            try:
                initial = error.initial_metadata()
            except Exception:  # a call that never started has none
                initial = ()
        status = None
        for key, value in trailing or ():
            if key == _DETAILS_KEY:
                status = status_pb2.Status.FromString(value)
        return cls(code or grpc.StatusCode.UNKNOWN, message, status, trailing, initial)

    # grpcio's call interface, so `except grpc.RpcError as e: e.code()` keeps working.
    def code(self) -> grpc.StatusCode:
        return self.status

    def details(self) -> str:
        return self.message

    def trailing_metadata(self):
        return self._trailing

    def initial_metadata(self):
        return self._initial

    @property
    def reason_number(self) -> Optional[int]:
        """The souk.v1.ErrorReason number of `reason`, or None (no souk.v1 ErrorInfo, or a reason
        newer than these stubs)."""
        if self.domain != DOMAIN or not self.reason:
            return None
        value = common_pb2.ErrorReason.DESCRIPTOR.values_by_name.get(f"ERROR_REASON_{self.reason}")
        return None if value is None else value.number

    @property
    def field(self) -> str:
        """The field the error is about (ErrorInfo.metadata `field`), or ""."""
        return self.metadata.get("field", "")

    def violation(self, field: str) -> Optional[FieldViolation]:
        """The violation naming `field`, or None."""
        return next((v for v in self.field_violations if v.field == field), None)

    def __str__(self) -> str:
        text = f"{self.status.name}"
        if self.reason:
            text += f" ({self.reason})"
        return f"{text}: {self.message}"

    def __repr__(self) -> str:
        return f"SoukError({self.status.name}, reason={self.reason!r}, message={self.message!r})"


F = TypeVar("F", bound=Callable)


def raising(function: F) -> F:
    """Wraps a callable so a grpc.RpcError it raises comes out as a SoukError."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except grpc.RpcError as error:
            raise SoukError.from_rpc_error(error) from None
    return wrapper  # type: ignore[return-value]
