#!/usr/bin/env python3
"""Writes conformance.jsonl: seeded random messages of every message type of Generated/souk.desc
and of conformance.proto (every field kind, oneofs, maps, well-known types), each as protobuf
bytes with the JSON that Python's google.protobuf.json_format writes for them, and the bytes
json_format reads back from that JSON when they differ; half the conformance.proto samples also
carry the JSON with proto field names and enum numbers (the other spelling readers accept). SoukJSONTests checks SoukJSON against
them both ways.

Regenerate (from the repository root) after a .proto change:

    protoc -I Tests/SoukJSONTests/Fixtures -I /usr/include --include_imports \
        --descriptor_set_out=Tests/SoukJSONTests/Fixtures/conformance.desc \
        Tests/SoukJSONTests/Fixtures/conformance.proto
    .venv/bin/python Tests/SoukJSONTests/Fixtures/generate.py

The output is deterministic for a given protobuf release and descriptor set.
"""

import base64
import json
import math
import os
import random
import struct
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.descriptor import FieldDescriptor as FD

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SEED = 28
# Samples per message type: one for each contract type, more for the types made to cover every kind.
CONTRACT_SAMPLES = 1
KIND_SAMPLES = 40
MAX_DEPTH = 2

rng = random.Random(SEED)
pool = descriptor_pool.DescriptorPool()
added = set()


def load(path):
    fds = descriptor_pb2.FileDescriptorSet()
    with open(path, "rb") as f:
        fds.ParseFromString(f.read())
    names = []
    for file in fds.file:
        if file.name in added:
            continue
        added.add(file.name)
        file.ClearField("source_code_info")
        pool.Add(file)
        for m in file.message_type:
            names.extend(all_names((file.package + ".") if file.package else "", m))
    return names


def all_names(scope, m):
    name = scope + m.name
    result = [] if m.options.map_entry else [name]
    for nested in m.nested_type:
        result.extend(all_names(name + ".", nested))
    return result


INT_RANGES = {
    FD.TYPE_INT32: (-2**31, 2**31 - 1), FD.TYPE_SINT32: (-2**31, 2**31 - 1), FD.TYPE_SFIXED32: (-2**31, 2**31 - 1),
    FD.TYPE_UINT32: (0, 2**32 - 1), FD.TYPE_FIXED32: (0, 2**32 - 1),
    FD.TYPE_INT64: (-2**63, 2**63 - 1), FD.TYPE_SINT64: (-2**63, 2**63 - 1), FD.TYPE_SFIXED64: (-2**63, 2**63 - 1),
    FD.TYPE_UINT64: (0, 2**64 - 1), FD.TYPE_FIXED64: (0, 2**64 - 1),
}
ALPHABET = 'abcXYZ 019_-"\\/\n\t\u00e9\u0645\u1ec7\u4e2d\U0001F600\u2028\x01'
WORDS = ["id", "name", "price", "display", "order", "by", "x"]


def rand_string():
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))


def rand_int(kind):
    lo, hi = INT_RANGES[kind]
    return rng.choice([lo, hi, 0, 1, -1 if lo < 0 else 2, rng.randint(lo, hi), rng.randint(-1000 if lo < 0 else 0, 1000)])


def rand_double(finite=False):
    choices = [0.0, -1.5, 1e-7, 3.141592653589793, 1e300, -2.5e-300, 123456789.125, rng.uniform(-1e6, 1e6)]
    if not finite:
        choices += [math.nan, math.inf, -math.inf]
    return rng.choice(choices)


def to_float32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    x = max(min(x, 3.4e38), -3.4e38)
    return struct.unpack("<f", struct.pack("<f", x))[0]


def rand_scalar(field):
    t = field.type
    if t in INT_RANGES:
        return rand_int(t)
    if t == FD.TYPE_DOUBLE:
        return rand_double()
    if t == FD.TYPE_FLOAT:
        return to_float32(rand_double())
    if t == FD.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FD.TYPE_STRING:
        return rand_string()
    if t == FD.TYPE_BYTES:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 7)))
    if t == FD.TYPE_ENUM:
        values = [v.number for v in field.enum_type.values]
        if field.enum_type.full_name == "google.protobuf.NullValue":
            return 0  # JSON writes any NullValue as null
        return rng.choice(values + [values[-1] + 17])  # now and then a number the enum does not name
    raise ValueError(t)


def rand_json_value(depth):
    kinds = ["null", "number", "string", "bool"] + (["struct", "list"] if depth < MAX_DEPTH else [])
    return rng.choice(kinds)


def fill_value(v, depth):
    kind = rand_json_value(depth)
    if kind == "null":
        v.null_value = 0
    elif kind == "number":
        v.number_value = rand_double(finite=True)
    elif kind == "string":
        v.string_value = rand_string()
    elif kind == "bool":
        v.bool_value = rng.random() < 0.5
    elif kind == "struct":
        v.struct_value.SetInParent()
        fill_struct(v.struct_value, depth + 1)
    else:
        v.list_value.SetInParent()
        for _ in range(rng.randint(0, 3)):
            fill_value(v.list_value.values.add(), depth + 1)


def fill_struct(s, depth):
    for _ in range(rng.randint(0, 3)):
        fill_value(s.fields[rand_string()], depth + 1)


ANY_TYPES = ["souk.jsontest.AllKinds", "google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.Struct",
             "google.protobuf.Value", "google.protobuf.Int64Value", "google.protobuf.Empty", "google.protobuf.FieldMask",
             "google.protobuf.Any", "google.protobuf.BytesValue"]


def fill_well_known(msg, name, depth):
    if name == "google.protobuf.Timestamp":
        msg.seconds = rng.randint(-62135596800, 253402300799)
        msg.nanos = rng.choice([0, rng.randint(0, 999) * 1000000, rng.randint(0, 999999) * 1000, rng.randint(0, 999999999)])
    elif name == "google.protobuf.Duration":
        seconds = rng.choice([0, rng.randint(-315576000000, 315576000000), rng.randint(-100, 100)])
        nanos = rng.choice([0, rng.randint(0, 999) * 1000000, rng.randint(0, 999999999)])
        if seconds < 0 or (seconds == 0 and rng.random() < 0.5):
            nanos = -nanos
        msg.seconds, msg.nanos = seconds, nanos
    elif name == "google.protobuf.FieldMask":
        for _ in range(rng.randint(0, 3)):
            msg.paths.append(".".join("_".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 2))))
    elif name == "google.protobuf.Struct":
        fill_struct(msg, depth)
    elif name == "google.protobuf.Value":
        fill_value(msg, depth)
    elif name == "google.protobuf.ListValue":
        for _ in range(rng.randint(0, 3)):
            fill_value(msg.values.add(), depth + 1)
    elif name == "google.protobuf.Any":
        if depth >= MAX_DEPTH or rng.random() < 0.1:
            return True
        inner_name = rng.choice(ANY_TYPES)
        inner = message_factory.GetMessageClass(pool.FindMessageTypeByName(inner_name))()
        fill(inner, depth + 1)
        msg.type_url = "type.googleapis.com/" + inner_name
        msg.value = inner.SerializeToString(deterministic=True)
    elif name.startswith("google.protobuf.") and name.endswith("Value") and "value" in msg.DESCRIPTOR.fields_by_name:
        f = msg.DESCRIPTOR.fields_by_name["value"]
        v = rand_scalar(f)
        if f.type == FD.TYPE_FLOAT:
            v = to_float32(v)
        msg.value = v
    elif name == "google.protobuf.Empty":
        pass
    else:
        return False
    return True


def fill(msg, depth):
    desc = msg.DESCRIPTOR
    if fill_well_known(msg, desc.full_name, depth):
        return
    for field in desc.fields:
        # Fewer fields deeper down, so a recursive type stays small.
        if rng.random() < (0.4 if depth == 0 else 0.8):
            continue
        oneof = field.containing_oneof
        if oneof is not None and len(oneof.fields) > 1 and msg.WhichOneof(oneof.name):
            continue
        is_message = field.type == FD.TYPE_MESSAGE
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            key_f = field.message_type.fields_by_name["key"]
            val_f = field.message_type.fields_by_name["value"]
            container = getattr(msg, field.name)
            for _ in range(rng.randint(0, 2)):
                key = rand_scalar(key_f)
                if val_f.type == FD.TYPE_MESSAGE:
                    if depth >= MAX_DEPTH:
                        continue
                    fill(container[key], depth + 1)
                else:
                    container[key] = rand_scalar(val_f)
        elif field.is_repeated:
            container = getattr(msg, field.name)
            for _ in range(rng.randint(0, 3)):
                if is_message:
                    if depth >= MAX_DEPTH:
                        break
                    fill(container.add(), depth + 1)
                else:
                    container.append(rand_scalar(field))
        elif is_message:
            if depth >= MAX_DEPTH:
                continue
            sub = getattr(msg, field.name)
            sub.SetInParent()
            fill(sub, depth + 1)
        else:
            setattr(msg, field.name, rand_scalar(field))


def deterministic_any(msg):
    """Packs every Any inside `msg` again with deterministic serialization (json_format packs
    with map entries in hash order), so the fixture is the same on every run."""
    desc = msg.DESCRIPTOR
    if desc.full_name == "google.protobuf.Any":
        if msg.type_url:
            inner = message_factory.GetMessageClass(pool.FindMessageTypeByName(msg.type_url.split("/")[-1]))()
            inner.ParseFromString(msg.value)
            deterministic_any(inner)
            msg.value = inner.SerializeToString(deterministic=True)
        return
    for field, value in msg.ListFields():
        if field.type != FD.TYPE_MESSAGE:
            continue
        if field.message_type.GetOptions().map_entry:
            if field.message_type.fields_by_name["value"].type == FD.TYPE_MESSAGE:
                for key in value:
                    deterministic_any(value[key])
        elif field.is_repeated:
            for element in value:
                deterministic_any(element)
        else:
            deterministic_any(value)


def sample(name, variant=False):
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
    for _ in range(20):
        msg = cls()
        fill(msg, 0)
        try:
            text = json.dumps(json_format.MessageToDict(msg, descriptor_pool=pool), separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        except ValueError:
            continue  # e.g. a FieldMask path with no JSON form
        binary = msg.SerializeToString(deterministic=True)
        back = json_format.Parse(text, cls(), descriptor_pool=pool)
        deterministic_any(back)
        reparsed = back.SerializeToString(deterministic=True)
        line = {"type": name, "binary": base64.b64encode(binary).decode(), "json": text}
        if variant:
            # The same message as the other accepted spelling: proto field names, enums as numbers.
            line["variant"] = json.dumps(
                json_format.MessageToDict(msg, descriptor_pool=pool, preserving_proto_field_name=True, use_integers_for_enums=True),
                separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        if reparsed != binary:
            line["reparsed"] = base64.b64encode(reparsed).decode()
        return line
    raise RuntimeError("no sample of " + name)


def main():
    contract = load(os.path.join(ROOT, "Generated", "souk.desc"))
    kinds = load(os.path.join(HERE, "conformance.desc"))
    lines = []
    for name in contract:
        lines += [sample(name) for _ in range(CONTRACT_SAMPLES)]
    for name in kinds:
        count = KIND_SAMPLES if name.startswith("souk.jsontest.") else 2
        lines += [sample(name, variant=i % 2 == 0) for i in range(count)]
    with open(os.path.join(HERE, "conformance.jsonl"), "w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(lines)} samples", file=sys.stderr)


if __name__ == "__main__":
    main()
