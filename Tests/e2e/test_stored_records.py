"""Stored records are not wire messages: the records tables store (package souk.store.v1) are
neither served nor reflected, and a field only the server uses is not in the contract."""
import grpc
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha import reflection_pb2_grpc


def reflect(channel, *requests):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    return list(stub.ServerReflectionInfo(iter(requests), timeout=10))


def test_stored_records_are_not_reflected(channel):
    responses = reflect(
        channel,
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="souk.store.v1.Job"),
        reflection_pb2.ServerReflectionRequest(file_by_filename="souk/store/v1/laundry.proto"),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="souk.v1.Job"),
    )
    not_found = grpc.StatusCode.NOT_FOUND.value[0]
    assert responses[0].error_response.error_code == not_found
    assert responses[1].error_response.error_code == not_found
    files = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in responses[2].file_descriptor_response.file_descriptor_proto]
    assert all(not f.name.startswith("souk/store/") and "souk/store" not in " ".join(f.dependency) for f in files)


def test_the_dashers_excluded_from_a_job_leave_the_contract(channel):
    (laundry,) = [f for f in (descriptor_pb2.FileDescriptorProto.FromString(b) for b in reflect(
        channel, reflection_pb2.ServerReflectionRequest(file_by_filename="souk/v1/laundry.proto"))[0]
        .file_descriptor_response.file_descriptor_proto) if f.name == "souk/v1/laundry.proto"]
    (job,) = [m for m in laundry.message_type if m.name == "Job"]
    assert "excluded_dasher_account_ids" not in {f.name for f in job.field}
    assert 18 not in {f.number for f in job.field}
    assert any(r.start <= 18 < r.end for r in job.reserved_range) and "excluded_dasher_account_ids" in job.reserved_name


def test_the_platform_tables_records_are_not_reflected(channel):
    records = ["Payment", "Account", "SavedAddress", "Marketplace", "Notification", "FeedbackEntry", "AuditEntry", "MailMessage"]
    files = ["payments", "identity", "notifications", "feedback", "audit", "mail"]
    responses = reflect(
        channel,
        *[reflection_pb2.ServerReflectionRequest(file_containing_symbol="souk.store.v1." + name) for name in records],
        *[reflection_pb2.ServerReflectionRequest(file_by_filename=f"souk/store/v1/{name}.proto") for name in files],
    )
    not_found = grpc.StatusCode.NOT_FOUND.value[0]
    assert [r.error_response.error_code for r in responses] == [not_found] * (len(records) + len(files))
