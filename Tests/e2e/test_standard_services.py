"""Health and reflection through grpcio's own health and reflection clients."""
import grpc
import pytest
from google.protobuf import descriptor_pool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2 as v1alpha_pb2
from grpc_reflection.v1alpha import reflection_pb2_grpc as v1alpha_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase


def test_health_check_whole_server_and_services(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in ["", "grpc.health.v1.Health", "grpc.testing.TestService"]:
        response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
        assert response.status == health_pb2.HealthCheckResponse.SERVING, service


def test_health_check_unknown_service_is_not_found(channel):
    health = health_pb2_grpc.HealthStub(channel)
    with pytest.raises(grpc.RpcError) as error:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=10)
    assert error.value.code() == grpc.StatusCode.NOT_FOUND


def test_health_watch_streams_current_status(channel):
    health = health_pb2_grpc.HealthStub(channel)
    watch = health.Watch(health_pb2.HealthCheckRequest(service=""), timeout=10)
    assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
    watch.cancel()
    unknown = health.Watch(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=10)
    assert next(unknown).status == health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
    unknown.cancel()


def test_reflection_lists_and_describes_services(channel):
    database = ProtoReflectionDescriptorDatabase(channel)
    services = set(database.get_services())
    assert {"grpc.health.v1.Health", "grpc.testing.TestService",
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} <= services
    pool = descriptor_pool.DescriptorPool(database)
    for name in services:
        service = pool.FindServiceByName(name)
        assert service.methods, name
    method = pool.FindMethodByName("grpc.testing.TestService.UnaryCall")
    assert method.input_type.full_name == "grpc.testing.SimpleRequest"
    assert pool.FindMessageTypeByName("grpc.testing.SimpleResponse").fields_by_name["payload"].number == 1


def test_reflection_v1_file_by_name_and_errors(channel):
    from grpc_reflection.v1alpha import reflection_pb2  # v1 shares message shapes with v1alpha
    call = channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                 request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                 response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    requests = [
        reflection_pb2.ServerReflectionRequest(file_by_filename="grpc/testing/test.proto"),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="no.such.Symbol"),
        reflection_pb2.ServerReflectionRequest(list_services=""),
    ]
    responses = list(call(iter(requests), timeout=10))
    assert len(responses) == 3
    names = {__import__("google.protobuf.descriptor_pb2", fromlist=["x"]).FileDescriptorProto.FromString(b).name
             for b in responses[0].file_descriptor_response.file_descriptor_proto}
    assert {"grpc/testing/test.proto", "grpc/testing/empty.proto", "grpc/testing/messages.proto"} <= names
    assert responses[1].error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
    assert "grpc.testing.TestService" in {s.name for s in responses[2].list_services_response.service}


def test_reflection_v1alpha_symbol_lookup(channel):
    stub = v1alpha_grpc.ServerReflectionStub(channel)
    responses = list(stub.ServerReflectionInfo(iter([
        v1alpha_pb2.ServerReflectionRequest(file_containing_symbol="grpc.health.v1.Health.Check"),
    ]), timeout=10))
    assert responses[0].file_descriptor_response.file_descriptor_proto
