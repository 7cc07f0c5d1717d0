"""Message classes and call helpers built from the server's own descriptor set (Generated/souk.desc).

Loading the descriptor set instead of generating Python code keeps the tests on exactly the
contract the server was built from, and avoids a clash between the proto package `grpc.testing`
and the `grpc` Python package.
"""
import pathlib

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

ROOT = pathlib.Path(__file__).resolve().parents[2]
DESCRIPTOR_SET = ROOT / "Generated" / "souk.desc"

_pool = descriptor_pool.DescriptorPool()
_files = descriptor_pb2.FileDescriptorSet.FromString(DESCRIPTOR_SET.read_bytes())
for _file in _files.file:
    _pool.Add(_file)


def message(full_name):
    """The Python class of a protobuf message, by its fully-qualified name."""
    return message_factory.GetMessageClass(_pool.FindMessageTypeByName(full_name))


def service_names():
    """Every service declared in the descriptor set."""
    return sorted(s.full_name for f in _files.file for s in _pool.FindFileByName(f.name).services_by_name.values())


class Stub:
    """Callables for every method of a service, built from the descriptor set.

    `Stub(channel, "grpc.testing.TestService").UnaryCall(request, timeout=...)` works like a
    generated stub; streaming shapes follow grpcio's multi-callables.
    """

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


def interop_stub(channel):
    return Stub(channel, "grpc.testing.TestService")


def status_of(error: grpc.RpcError):
    return error.code(), error.details()
