"""The stamp of the stock mobile stack's generated Swift code (scripts/lib/stock_swift.sh, which
`scripts/generate --check` runs): the committed code is current, and a copy of the tree where a
.proto input, a plugin version or a generated file changed is reported stale, naming the file."""
import os
import shutil
import subprocess
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = "clients/stock-swift/Sources/SoukStockAPI"


def stale(root: str) -> str:
    """What stock_swift_stale prints for the tree at `root` (empty: current)."""
    script = "set -euo pipefail; export LC_ALL=C; . scripts/lib/stock_swift.sh; stock_swift_stale"
    run = subprocess.run(["bash", "-c", script], cwd=root, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.fixture
def tree():
    """A copy of what the check reads: Proto/, the package manifest, the generated code, the script."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(ROOT, "Proto"), os.path.join(tmp, "Proto"))
        shutil.copytree(os.path.join(ROOT, OUT), os.path.join(tmp, OUT))
        shutil.copy(os.path.join(ROOT, "clients/stock-swift/Package.swift"), os.path.join(tmp, "clients/stock-swift"))
        os.makedirs(os.path.join(tmp, "scripts/lib"))
        shutil.copy(os.path.join(ROOT, "scripts/lib/stock_swift.sh"), os.path.join(tmp, "scripts/lib"))
        yield tmp


def append(path: str, text: str):
    with open(path, "a") as f:
        f.write(text)


def test_the_committed_code_is_current(tree):
    assert stale(tree) == ""


def test_a_changed_proto_input_is_stale(tree):
    append(os.path.join(tree, "Proto/souk/v1/orders.proto"), "// changed\n")
    report = stale(tree)
    assert "stamped: input" in report and "now:     input" in report and "souk/v1/orders.proto" in report


def test_a_new_contract_file_is_stale(tree):
    append(os.path.join(tree, "Proto/souk/v1/new.proto"), 'syntax = "proto3";\npackage souk.v1;\n')
    assert "now:     input" in stale(tree) and "souk/v1/new.proto" in stale(tree)


def test_the_files_outside_the_inputs_do_not_count(tree):
    append(os.path.join(tree, "Proto/grpc/testing/test.proto"), "// changed\n")
    append(os.path.join(tree, "Proto/souk/store/v1/orders.proto"), "// changed\n")
    assert stale(tree) == ""


def test_another_plugin_version_is_stale(tree):
    manifest = os.path.join(tree, "clients/stock-swift/Package.swift")
    text = open(manifest).read()
    assert 'swift-protobuf.git", exact: "1.39.0"' in text
    open(manifest, "w").write(text.replace('swift-protobuf.git", exact: "1.39.0"', 'swift-protobuf.git", exact: "1.40.0"'))
    assert "now:     tool apple/swift-protobuf 1.40.0" in stale(tree)


def test_edited_missing_and_extra_generated_files_are_stale(tree):
    append(os.path.join(tree, OUT, "souk_v1_orders.pb.swift"), "// by hand\n")
    os.remove(os.path.join(tree, OUT, "souk_v1_carts.grpc.swift"))
    append(os.path.join(tree, OUT, "Extra.swift"), "// by hand\n")
    report = stale(tree)
    assert f"edited:  {OUT}/souk_v1_orders.pb.swift" in report
    assert f"missing: {OUT}/souk_v1_carts.grpc.swift" in report
    assert f"not generated: {OUT}/Extra.swift" in report
