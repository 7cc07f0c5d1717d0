"""Copies etcd's API protos (v3.4) into Proto/etcd, without the gogoproto and google.api
annotations (Go code generation and the HTTP gateway, which protoc-c and the Swift generator do
not need). Every message, field number and service method stays as upstream; only the imports
move to Proto/etcd's paths.

    python3 scripts/lib/vendor_etcd_protos.py ETCD_SOURCE_DIR Proto/etcd

ETCD_SOURCE_DIR is a checkout of etcd at v3.4.23 (or any folder holding its
etcdserver/etcdserverpb/rpc.proto, mvcc/mvccpb/kv.proto and auth/authpb/auth.proto).
The output depends only on those files: running it again on them changes nothing."""
import os
import re
import sys

FILES = {
    "etcdserver/etcdserverpb/rpc.proto": "etcdserverpb/rpc.proto",
    "mvcc/mvccpb/kv.proto": "mvccpb/kv.proto",
    "auth/authpb/auth.proto": "authpb/auth.proto",
}
IMPORTS = {
    "etcd/mvcc/mvccpb/kv.proto": "etcd/mvccpb/kv.proto",
    "etcd/auth/authpb/auth.proto": "etcd/authpb/auth.proto",
}


def strip(text):
    # `option (google.api.http) = { ... };` blocks inside rpc definitions.
    text = re.sub(r"\n\s*option \(google\.api\.http\) = \{.*?\n\s*\};", "", text, flags=re.S)
    # An rpc left with an empty body: `{\n  }` -> `{}`.
    text = re.sub(r"\{\s*\n\s*\}", "{}", text)
    out = []
    for line in text.split("\n"):
        if re.match(r'\s*import "(gogoproto/gogo|google/api/annotations)\.proto";', line):
            continue
        if line.strip() == "// for grpc-gateway":
            continue
        if re.match(r"\s*option \(gogoproto\.[a-z_]+\) = [a-z]+;", line):
            continue
        m = re.match(r'(\s*import ")([^"]+)(";.*)', line)
        if m and m.group(2) in IMPORTS:
            line = m.group(1) + IMPORTS[m.group(2)] + m.group(3)
        # Field options: ` [(gogoproto.nullable) = false]`, several at once.
        line = re.sub(r"\s*\[\(gogoproto\.[^\]]*\]", "", line)
        out.append(line)
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    if "gogoproto" in text or "google.api" in text:
        raise SystemExit("vendor_etcd_protos: an annotation was left")
    return text


def main():
    src, dst = sys.argv[1], sys.argv[2]
    for rel, target in FILES.items():
        text = open(os.path.join(src, rel)).read()
        path = os.path.join(dst, target)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        header = "// etcd v3.4.23 " + rel + ", vendored by scripts/lib/vendor_etcd_protos.py (annotations removed).\n"
        with open(path, "w") as out:
            out.write(header + strip(text))


if __name__ == "__main__":
    main()
