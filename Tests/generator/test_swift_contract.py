"""The contract generator (scripts/lib/swift_contract.py) against expected output: a sample proto
with every shape the contract uses (scalars, bytes, enums, repeated fields, nested messages,
timestamps and durations, a oneof, a marketplace-scoped request and all four call shapes)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))

import swift_contract  # noqa: E402
from google.protobuf import descriptor_pb2  # noqa: E402


def sample_file():
    include = os.environ.get("PROTOC_INCLUDE", "/usr/include")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sample.desc")
        subprocess.run(["protoc", "-I", os.path.join(HERE, "fixtures"), "-I", include, "--include_imports",
                        "--include_source_info", f"--descriptor_set_out={out}", "souk/v1/sample.proto"], check=True)
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(out, "rb").read())
    return next(f for f in fds.file if f.name == "souk/v1/sample.proto")


def expected(name):
    with open(os.path.join(HERE, "expected", name)) as f:
        return f.read()


def test_messages_and_enums_match_the_expected_swift():
    assert swift_contract.messages_file(sample_file()) == expected("Sample.swift")


def test_service_declaration_matches_the_expected_swift():
    f = sample_file()
    messages = {m.name: m for m in f.message_type}
    assert swift_contract.service_file(f, f.service[0], 0, messages) == expected("Samples.swift")


def test_names_follow_swift_conventions():
    assert swift_contract.camel("courier_account_id") == "courierAccountID"
    assert swift_contract.camel("photo_urls") == "photoURLs"
    assert swift_contract.camel("refresh_token_ttl") == "refreshTokenTTL"
    assert swift_contract.camel("target", upper_first=True) == "Target"
    assert swift_contract.c_snake("GetMeRequest") == "get_me_request"
    assert swift_contract.esc("operator") == "`operator`"


def test_unsupported_shapes_stop_the_generator():
    f = sample_file()
    sample = f.message_type[0]
    nested = sample.nested_type.add()
    nested.name = "Inner"
    try:
        swift_contract.messages_file(f)
    except SystemExit as stop:
        assert "nested" in str(stop)
    else:
        raise AssertionError("a nested message was accepted")


def test_stored_records_get_their_own_namespace_and_c_names():
    assert swift_contract.namespace("souk.store.v1") == "SoukStoreV1"
    assert swift_contract.c_prefix("souk.store.v1") == "Souk__Store__V1__"
    assert swift_contract.swift_type(".souk.store.v1.Job") == "SoukStoreV1.Job"
    assert swift_contract.swift_type(".souk.v1.Money") == "SoukV1.Money"
    assert swift_contract.c_type(".souk.v1.JobStage") == "Souk__V1__JobStage"
    assert swift_contract.swift_file_name("souk/store/v1/orders.proto", "souk.store.v1") == "StoredOrders.swift"
    f = sample_file()
    f.package = "souk.store.v1"
    stored = swift_contract.messages_file(f)
    assert "extension SoukStoreV1 {" in stored and "Souk__Store__V1__" in stored and "souk__store__v1__" in stored
    assert "MarketplaceScopedRequest" not in stored
    f.package = "souk.v1"
    assert swift_contract.messages_file(f) == expected("Sample.swift")


def client_sample_file():
    include = os.environ.get("PROTOC_INCLUDE", "/usr/include")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "client.desc")
        subprocess.run(["protoc", "-I", os.path.join(HERE, "fixtures"), "-I", include, "--include_source_info",
                        f"--descriptor_set_out={out}", "souk/v1/sample_client.proto"], check=True)
        return descriptor_pb2.FileDescriptorSet.FromString(open(out, "rb").read()).file[0]


def test_client_matches_the_expected_swift():
    """Every call shape: a create with a request_id (retried, its id filled), a read (retried), a
    change without a request_id (never retried), a Watch (resumed), a plain server stream, a client
    stream and a bidirectional stream."""
    f = client_sample_file()
    messages = {m.name: m for m in f.message_type}
    assert swift_contract.client_file(f, f.service[0], 0, messages) == expected("ParcelsClient.swift")
    assert swift_contract.client_services_file([f]) == expected("ClientServices.swift")


def test_only_sequenced_resumable_streams_are_watches():
    f = client_sample_file()
    messages = {m.name: m for m in f.message_type}
    methods = {m.name: m for m in f.service[0].method}
    assert swift_contract.is_watch(methods["WatchParcel"], messages)
    assert not swift_contract.is_watch(methods["ExportParcels"], messages)
    assert not swift_contract.is_watch(methods["ChatParcel"], messages)
    assert swift_contract.is_read(methods["GetParcel"]) and not swift_contract.is_read(methods["CancelParcel"])
    assert not swift_contract.is_read(methods["ReportParcels"])


def etcd_files():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "etcd.desc")
        subprocess.run(["protoc", "-I", os.path.join(ROOT, "Proto"), "--include_imports", "--include_source_info",
                        f"--descriptor_set_out={out}", "etcd/etcdserverpb/rpc.proto"], check=True)
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(out, "rb").read())
    return {f.name: f for f in fds.file}


def test_etcd_nested_enums_and_capital_fields():
    files = etcd_files()
    assert sorted(files) == ["etcd/authpb/auth.proto", "etcd/etcdserverpb/rpc.proto", "etcd/mvccpb/kv.proto"]
    for f in files.values():
        swift_contract.ZERO_CASES.update({f".{f.package}.{m.name}.{e.name}": swift_contract.enum_case(e, v)
                                          for m in f.message_type for e in m.enum_type for v in e.value if v.number == 0})
    rpc = swift_contract.messages_file(files["etcd/etcdserverpb/rpc.proto"])
    # A nested enum is a Swift type nested in its message's struct, its C type joined with `__`.
    assert "extension Etcdserverpb.RangeRequest {\n" in rpc
    assert "public var sortOrder: Etcdserverpb.RangeRequest.SortOrder\n" in rpc
    assert "sortOrder = .init(cValue: c.sort_order)" in rpc
    # etcd's all-capitals fields (`ID`, `TTL`) are lower-case properties over protobuf-c's lower-case members.
    assert "public var ttl: Int64\n" in rpc and "ttl = c.ttl" in rpc and "c.id = id" in rpc
    assert "etcdserverpb__hash_kvrequest__init(c)" in rpc
    auth = swift_contract.messages_file(files["etcd/authpb/auth.proto"])
    # `Type` would name the metatype: the nested enum becomes `TypeEnum`.
    assert "public var permType: Authpb.Permission.TypeEnum\n" in auth
    assert "permType = .init(cValue: c.permtype)" in auth
    assert swift_contract.swift_file_name("etcd/mvccpb/kv.proto", "mvccpb") == "EtcdKv.swift"


def test_etcd_stays_out_of_the_served_descriptor_set():
    served = descriptor_pb2.FileDescriptorSet.FromString(open(os.path.join(ROOT, "Generated", "souk.desc"), "rb").read())
    assert not [f.name for f in served.file if f.name.startswith("etcd/")]
    own = descriptor_pb2.FileDescriptorSet.FromString(open(os.path.join(ROOT, "Generated", "etcd.desc"), "rb").read())
    assert sorted(f.package for f in own.file) == ["authpb", "etcdserverpb", "mvccpb"]
