"""Prints a first draft of SoukMessages wrappers (value types plus their protobuf-c mirrors, in the
style of Sources/SoukMessages/Runtime/CStructConvertible.swift) for the messages and enums of one
souk.v1 proto file, read from Generated/souk.desc with its source comments.

    python wrappers.py Generated/souk.desc souk/v1/orders.proto [Name,Name,...]

Review the output before committing it: names, doc comments and defaults are mechanical. Oneofs
and nested messages are not handled (the script stops naming the message)."""
import re
import sys

from google.protobuf import descriptor_pb2

DESC = sys.argv[1]
FILE = sys.argv[2]          # e.g. souk/v1/accounts.proto
ONLY = set(sys.argv[3].split(",")) if len(sys.argv) > 3 and sys.argv[3] else None

fds = descriptor_pb2.FileDescriptorSet.FromString(open(DESC, "rb").read())
files = {f.name: f for f in fds.file}
f = files[FILE]

T = descriptor_pb2.FieldDescriptorProto

comments = {}
for loc in f.source_code_info.location:
    if loc.leading_comments:
        comments[tuple(loc.path)] = loc.leading_comments.strip()


def first_sentence(text):
    if not text:
        return ""
    line = " ".join(l.strip() for l in text.splitlines() if not l.strip().startswith("Access:"))
    m = re.match(r"(.+?\.)(\s|$)", line)
    return (m.group(1) if m else line).strip()


def camel(snake):
    parts = snake.split("_")
    out = parts[0]
    for p in parts[1:]:
        if p == "id":
            out += "ID"
        elif p == "ttl":
            out += "TTL"
        elif p == "url":
            out += "URL"
        elif p == "ids":
            out += "IDs"
        else:
            out += p[:1].upper() + p[1:]
    if out == "url":
        out = "url"
    return out


def c_snake(name):
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return s.lower()


def upper_snake(name):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).upper()


SWIFT_KEYWORDS = {"operator", "default", "case", "class", "struct", "enum", "protocol", "extension", "func",
                  "import", "in", "internal", "public", "private", "return", "self", "static", "switch", "where",
                  "while", "repeat", "var", "let", "is", "as", "do", "if", "else", "for", "break", "continue",
                  "true", "false", "nil", "throw", "throws", "try", "catch", "init", "deinit", "subscript",
                  "typealias", "associatedtype", "fallthrough", "guard", "defer", "inout", "operator", "Type"}


def esc(name):
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


out = []

# Enums
for ei, e in enumerate(f.enum_type):
    if ONLY is not None and e.name not in ONLY:
        continue
    prefix = upper_snake(e.name) + "_"
    doc = first_sentence(comments.get((5, ei), "")) or f"`souk.v1.{e.name}`."
    out.append(f"extension SoukV1 {{")
    out.append(f"    /// {doc}")
    out.append(f"    public enum {e.name}: ProtoEnum, CaseIterable {{")
    cases = []
    for vi, v in enumerate(e.value):
        n = v.name[len(prefix):] if v.name.startswith(prefix) else v.name
        case = camel(n.lower())
        cases.append((case, v.number, v.name))
        vdoc = first_sentence(comments.get((5, ei, 2, vi), ""))
        if vdoc:
            out.append(f"        /// {vdoc}")
        out.append(f"        case {esc(case)}")
    out.append(f"        case unrecognized(Int32)")
    out.append("")
    items = ['.' + esc(c) for c, _, _ in cases]
    line = f"        public static let allCases: [{e.name}] = [{', '.join(items)}]"
    if len(line) <= 120:
        out.append(line)
    else:
        out.append(f"        public static let allCases: [{e.name}] = [")
        row = "           "
        for item in items:
            if len(row) + len(item) + 2 > 116:
                out.append(row.rstrip())
                row = "           "
            row += " " + item + ","
        out.append(row.rstrip())
        out.append("        ]")
    out.append("")
    out.append(f"        public init(rawValue: Int32) {{")
    out.append(f"            switch rawValue {{")
    for c, n, _ in cases:
        out.append(f"            case {n}: self = .{esc(c)}")
    out.append(f"            default: self = .unrecognized(rawValue)")
    out.append(f"            }}")
    out.append(f"        }}")
    out.append("")
    out.append(f"        public var rawValue: Int32 {{")
    out.append(f"            switch self {{")
    for c, n, _ in cases:
        out.append(f"            case .{esc(c)}: {n}")
    out.append(f"            case .unrecognized(let value): value")
    out.append(f"            }}")
    out.append(f"        }}")
    out.append("")
    out.append(f"        /// The value's name in the contract, for example `{cases[1][2] if len(cases) > 1 else cases[0][2]}`.")
    out.append(f"        public var protoName: String {{")
    out.append(f"            switch self {{")
    for c, n, pn in cases:
        out.append(f"            case .{esc(c)}: \"{pn}\"")
    out.append(f"            case .unrecognized(let value): \"{prefix}\\(value)\"")
    out.append(f"            }}")
    out.append(f"        }}")
    out.append(f"    }}")
    out.append(f"}}")
    out.append("")


def swift_type(fd):
    rep = fd.label == T.LABEL_REPEATED
    t = fd.type
    if t == T.TYPE_STRING:
        base, default = "String", '""'
    elif t == T.TYPE_BYTES:
        base, default = "[UInt8]", "[]"
    elif t in (T.TYPE_INT32, T.TYPE_SINT32, T.TYPE_SFIXED32):
        base, default = "Int32", "0"
    elif t in (T.TYPE_INT64, T.TYPE_SINT64, T.TYPE_SFIXED64):
        base, default = "Int64", "0"
    elif t in (T.TYPE_UINT32, T.TYPE_FIXED32):
        base, default = "UInt32", "0"
    elif t in (T.TYPE_UINT64, T.TYPE_FIXED64):
        base, default = "UInt64", "0"
    elif t == T.TYPE_BOOL:
        base, default = "Bool", "false"
    elif t == T.TYPE_DOUBLE:
        base, default = "Double", "0"
    elif t == T.TYPE_FLOAT:
        base, default = "Float", "0"
    elif t == T.TYPE_ENUM:
        name = fd.type_name.split(".")[-1]
        base, default = f"SoukV1.{name}", ".unspecified"
    elif t == T.TYPE_MESSAGE:
        tn = fd.type_name
        if tn == ".google.protobuf.Timestamp":
            base = "Timestamp"
        elif tn == ".google.protobuf.Duration":
            base = "Duration"
        elif tn == ".google.protobuf.FieldMask":
            base = "GoogleProtobuf.FieldMask"
        elif tn.startswith(".souk.v1."):
            base = "SoukV1." + tn[len(".souk.v1."):]
        else:
            raise SystemExit(f"unsupported message type {tn}")
        if rep:
            return f"[{base}]", "[]"
        return f"{base}?", "nil"
    else:
        raise SystemExit(f"unsupported type {t}")
    if rep:
        return f"[{base}]", "[]"
    return base, default


for mi, m in enumerate(f.message_type):
    if ONLY is not None and m.name not in ONLY:
        continue
    assert not m.oneof_decl, m.name
    assert not m.nested_type, m.name
    doc = first_sentence(comments.get((4, mi), "")) or f"`souk.v1.{m.name}`."
    fields = []
    for fi, fd in enumerate(m.field):
        st, default = swift_type(fd)
        fields.append((fd, camel(fd.name), st, default, first_sentence(comments.get((4, mi, 2, fi), ""))))
    out.append("extension SoukV1 {")
    out.append(f"    /// {doc}")
    out.append(f"    public struct {m.name}: Sendable, Hashable {{")
    for fd, name, st, default, fdoc in fields:
        if fdoc:
            out.append(f"        /// {fdoc}")
        out.append(f"        public var {esc(name)}: {st}")
    if fields:
        out.append("")
        params = ", ".join(f"{name}: {st} = {default}" for fd, name, st, default, _ in fields)
        if len(params) > 100:
            out.append("        public init(")
            lines = [f"            {name}: {st} = {default}" for fd, name, st, default, _ in fields]
            out.append(",\n".join(lines))
            out.append("        ) {")
        else:
            out.append(f"        public init({params}) {{")
        for fd, name, st, default, _ in fields:
            out.append(f"            self.{name} = {name}")
        out.append("        }")
    else:
        out.append("        public init() {}")
    out.append("    }")
    out.append("}")
    out.append("")

    cname = f"Souk__V1__{m.name}"
    cinit = f"souk__v1__{c_snake(m.name)}__init"
    out.append(f"extension SoukV1.{m.name}: CProtoMessage {{")
    out.append(f"    public static var protoName: String {{ \"souk.v1.{m.name}\" }}")
    out.append(f"    static func cInit(_ c: UnsafeMutablePointer<{cname}>) {{ {cinit}(c) }}")
    out.append("")
    if not fields:
        out.append(f"    init(c: {cname}) throws {{}}")
        out.append(f"    func fill(_ c: inout {cname}, _ arena: inout EncodingArena) {{}}")
    else:
        out.append(f"    init(c: {cname}) throws {{")
        for fd, name, st, default, _ in fields:
            cf = fd.name
            rep = fd.label == T.LABEL_REPEATED
            t = fd.type
            if rep:
                if t == T.TYPE_STRING:
                    e = f"try Unpacked.strings(c.n_{cf}, c.{cf}, \"{cf}\")"
                elif t == T.TYPE_ENUM:
                    e = f"Unpacked.enumValues(c.n_{cf}, c.{cf})"
                elif t == T.TYPE_MESSAGE:
                    e = f"try Unpacked.messages(c.n_{cf}, c.{cf}, \"{cf}\")"
                elif t == T.TYPE_BYTES:
                    e = f"Unpacked.bytesList(c.n_{cf}, c.{cf})"
                else:
                    e = f"Unpacked.values(c.n_{cf}, c.{cf})"
            else:
                if t == T.TYPE_STRING:
                    e = f"try Unpacked.string(c.{cf}, \"{cf}\")"
                elif t == T.TYPE_BYTES:
                    e = f"Unpacked.bytes(c.{cf})"
                elif t == T.TYPE_BOOL:
                    e = f"c.{cf} != 0"
                elif t == T.TYPE_ENUM:
                    e = f".init(cValue: c.{cf})"
                elif t == T.TYPE_MESSAGE and fd.type_name == ".google.protobuf.Duration":
                    e = f"try Unpacked.duration(c.{cf}, \"{cf}\")"
                elif t == T.TYPE_MESSAGE:
                    e = f"try Unpacked.message(c.{cf}, \"{cf}\")"
                else:
                    e = f"c.{cf}"
            out.append(f"        {name} = {e}")
        out.append("    }")
        out.append("")
        out.append(f"    func fill(_ c: inout {cname}, _ arena: inout EncodingArena) {{")
        for fd, name, st, default, _ in fields:
            cf = fd.name
            rep = fd.label == T.LABEL_REPEATED
            t = fd.type
            if rep:
                out.append(f"        c.n_{cf} = {name}.count")
                if t == T.TYPE_STRING:
                    e = f"arena.strings({name})"
                elif t == T.TYPE_ENUM:
                    en = fd.type_name.split(".")[-1]
                    e = f"arena.enumValues({name}, as: Souk__V1__{en}.self)"
                elif t == T.TYPE_MESSAGE:
                    e = f"arena.messages({name})"
                elif t == T.TYPE_BYTES:
                    e = f"arena.bytesList({name})"
                else:
                    e = f"arena.values({name})"
            else:
                if t == T.TYPE_STRING:
                    e = f"arena.string({name})"
                elif t == T.TYPE_BYTES:
                    e = f"arena.bytes({name})"
                elif t == T.TYPE_BOOL:
                    e = f"{name} ? 1 : 0"
                elif t == T.TYPE_ENUM:
                    e = f"{name}.cValue()"
                elif t == T.TYPE_MESSAGE and fd.type_name == ".google.protobuf.Duration":
                    e = f"arena.duration({name})"
                elif t == T.TYPE_MESSAGE:
                    e = f"arena.message({name})"
                else:
                    e = name
            out.append(f"        c.{cf} = {e}")
        out.append("    }")
    out.append("}")
    out.append("")
    if m.field and m.field[0].name == "marketplace_id" and m.field[0].number == 1 and m.name.endswith("Request"):
        out.append(f"extension SoukV1.{m.name}: MarketplaceScopedRequest {{}}")
        out.append("")

print("\n".join(out))
