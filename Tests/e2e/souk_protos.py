"""Message classes and call helpers of the e2e tests.

The souk.v1 messages and service stubs come from the Python package (clients/python,
`souk_client`), so the tests use what clients install; `scripts/generate --check` keeps its
generated code equal to the contract the server was built from. The package ships souk.v1 only:
the interop service `grpc.testing` (whose Python package would clash with grpcio's `grpc`), and
the standard services, are built here from the server's own descriptor set (Generated/souk.desc),
as is every RPC's `Access:`/`Errors:` comment, which generated code does not keep.
"""
import pathlib
import re
from dataclasses import dataclass
from types import SimpleNamespace

import grpc
import souk_client
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_status import rpc_status as grpc_rich_status
from souk_client import SoukError

ROOT = pathlib.Path(__file__).resolve().parents[2]
DESCRIPTOR_SET = ROOT / "Generated" / "souk.desc"

_pool = descriptor_pool.DescriptorPool()
_files = descriptor_pb2.FileDescriptorSet.FromString(DESCRIPTOR_SET.read_bytes())
for _file in _files.file:
    _pool.Add(_file)

# What the package registers in the default pool (its stubs, and the well-known types and
# google.rpc details they use): one class per message, shared with the package's stubs.
_PACKAGE_PREFIXES = ("souk.v1.", "google.protobuf.", "google.rpc.")


def _pool_of(full_name: str):
    return descriptor_pool.Default() if full_name.startswith(_PACKAGE_PREFIXES) else _pool


def message(full_name):
    """The Python class of a protobuf message, by its fully-qualified name."""
    return message_factory.GetMessageClass(_pool_of(full_name).FindMessageTypeByName(full_name))


def service_names():
    """Every service declared in the descriptor set."""
    return sorted(s.full_name for f in _files.file for s in _pool.FindFileByName(f.name).services_by_name.values())


class _DescriptorStub:
    """Callables for every method of a service, built from the descriptor set; streaming shapes
    follow grpcio's multi-callables."""

    def __init__(self, channel, service_name):
        service = _pool.FindServiceByName(service_name)
        for method in service.methods:
            request = message_factory.GetMessageClass(method.input_type)
            response = message_factory.GetMessageClass(method.output_type)
            path = f"/{service.full_name}/{method.name}"
            kind = {
                (False, False): channel.unary_unary,
                (False, True): channel.unary_stream,
                (True, False): channel.stream_unary,
                (True, True): channel.stream_stream,
            }[(method.client_streaming, method.server_streaming)]
            setattr(self, method.name, kind(
                path,
                request_serializer=request.SerializeToString,
                response_deserializer=response.FromString,
            ))


def Stub(channel, service_name):
    """A stub of a service: `Stub(channel, "souk.v1.Catalog").ListProducts(request, timeout=...)`.
    souk.v1 services get the package's generated stub; the others one built from the descriptor set."""
    if service_name.startswith("souk.v1."):
        return souk_client.stub(channel, service_name)
    return _DescriptorStub(channel, service_name)


def interop_stub(channel):
    return Stub(channel, "grpc.testing.TestService")


def status_of(error: grpc.RpcError):
    return error.code(), error.details()


# ---- The contract's own comments: the `// Access:` and `// Errors:` lines of every RPC ----

ACCESS_WORDS = ("guest", "customer", "provider", "courier", "admin", "operator", "push_adapter")
# Only a role that can be a party to a resource takes the ` (owner)` qualifier.
OWNER_WORDS = ("customer", "provider", "courier")
_ACCESS_CALLER = r"(?:guest|customer|provider|courier|admin|operator|push_adapter)(?: \(owner\))?"
_ACCESS_LINE = re.compile(rf"Access: ({_ACCESS_CALLER}(?:, {_ACCESS_CALLER})*)\.")


@dataclass(frozen=True)
class AccessRule:
    """Who may call an RPC, parsed from the first line of its comment (common.proto, ACCESS LINE)."""
    callers: frozenset  # the caller words listed
    owner_only: frozenset  # the words qualified by ` (owner)`
    line: str

    def allows(self, roles) -> bool:
        """Whether a caller passes at the role level; `roles` is None for a guest (no token),
        else the caller's active role words. `(owner)` counts as allowed here: ownership is a
        property of the resource a request names, not of the caller."""
        if "guest" in self.callers:
            return True
        return roles is not None and bool(self.callers & set(roles))


def parse_access_line(line: str) -> AccessRule:
    """Parses `Access: <caller>[, <caller>]... .`; raises ValueError when the line breaks the grammar."""
    match = _ACCESS_LINE.fullmatch(line.strip())
    if not match:
        raise ValueError(f"not an Access line: {line!r}")
    words, owned = [], set()
    for caller in match.group(1).split(", "):
        word, _, qualifier = caller.partition(" ")
        if word in words:
            raise ValueError(f"{word} listed twice: {line!r}")
        if qualifier and word not in OWNER_WORDS:
            raise ValueError(f"{word} cannot be qualified by (owner): {line!r}")
        words.append(word)
        if qualifier:
            owned.add(word)
    if "guest" in words and len(words) > 1:
        raise ValueError(f"guest already admits every caller: {line!r}")
    return AccessRule(frozenset(words), frozenset(owned), line.strip())


@dataclass(frozen=True)
class Method:
    """One RPC of the descriptor set with its request/response classes and its proto comment."""
    path: str  # "/souk.v1.Accounts/GetMe"
    service: str  # "souk.v1.Accounts"
    name: str  # "GetMe"
    client_streaming: bool
    server_streaming: bool
    request: type
    response: type
    comment: str  # leading comment, one line per `//` line, without the slashes

    @property
    def short(self) -> str:
        """"Accounts/GetMe": the service without its package, then the method."""
        return f"{self.service.rsplit('.', 1)[-1]}/{self.name}"

    def access(self) -> AccessRule:
        """The rule of the comment's first line (raises ValueError if it is missing or malformed)."""
        first = self.comment.strip().splitlines()[0] if self.comment.strip() else ""
        return parse_access_line(first)

    def errors_text(self) -> str:
        """The `Errors:` part of the comment (to the end), or "" if there is none."""
        text = " ".join(line.strip() for line in self.comment.splitlines())
        _, found, rest = text.partition("Errors:")
        return rest.strip() if found else ""


# FileDescriptorProto.service = 6, ServiceDescriptorProto.method = 2 (descriptor.proto field numbers).
_SERVICE_FIELD, _METHOD_FIELD = 6, 2


def methods(package: str = "souk.v1") -> list:
    """Every RPC of a package, in declaration order, with its comment from the SourceCodeInfo."""
    out = []
    for file in _files.file:
        if file.package != package:
            continue
        comments = {
            (loc.path[1], loc.path[3]): loc.leading_comments
            for loc in file.source_code_info.location
            if len(loc.path) == 4 and loc.path[0] == _SERVICE_FIELD and loc.path[2] == _METHOD_FIELD
        }
        for s_index, service in enumerate(file.service):
            service_name = f"{file.package}.{service.name}"
            for m_index, m in enumerate(service.method):
                described = _pool_of(service_name + ".").FindMethodByName(f"{service_name}.{m.name}")
                out.append(Method(
                    path=f"/{service_name}/{m.name}", service=service_name, name=m.name,
                    client_streaming=m.client_streaming, server_streaming=m.server_streaming,
                    request=message_factory.GetMessageClass(described.input_type),
                    response=message_factory.GetMessageClass(described.output_type),
                    comment=comments.get((s_index, m_index), ""),
                ))
    return out


def enum(full_name):
    """The numbers of a proto enum by value name: `enum("souk.v1.Role").ROLE_ADMIN == 4`."""
    values = _pool_of(full_name).FindEnumTypeByName(full_name).values
    return SimpleNamespace(**{v.name: v.number for v in values})


def enum_name(full_name, number) -> str:
    """The value name of an enum number ("ROLE_ADMIN"), or the number as text if unknown."""
    value = _pool_of(full_name).FindEnumTypeByName(full_name).values_by_number.get(number)
    return value.name if value else str(number)


# ---- Error details (AIP-193): a google.rpc.Status in grpc-status-details-bin ----

def trailer(error: grpc.RpcError, key: str):
    """The value of one trailing-metadata key of a failed call (bytes for `-bin` keys), or None."""
    for k, v in error.trailing_metadata() or ():
        if k == key:
            return v
    return None


def rich_status(error: grpc.RpcError):
    """The google.rpc.Status of a failed call, read by grpcio-status from grpc-status-details-bin
    (it also checks that the status's code and message match the call's), or None when absent."""
    return grpc_rich_status.from_call(error)


def status_detail(error: grpc.RpcError, kind):
    """The first detail of type `kind` (an error_details_pb2 class) in the call's rich status, or None."""
    status = rich_status(error)
    for detail in status.details if status is not None else ():
        if detail.Is(kind.DESCRIPTOR):
            unpacked = kind()
            detail.Unpack(unpacked)
            return unpacked
    return None


def field_violations(error: grpc.RpcError) -> list:
    """Every google.rpc.BadRequest.FieldViolation of the call's rich status (checked as
    `rich_status` does), as the package decodes them (`.field`, `.description`, `.reason`)."""
    rich_status(error)
    return list(SoukError.from_rpc_error(error).field_violations)


def error_reason(error: grpc.RpcError):
    """The souk.v1.ErrorReason number that the call's google.rpc.ErrorInfo names (domain souk.v1),
    or None when there is none."""
    rich_status(error)
    return SoukError.from_rpc_error(error).reason_number
