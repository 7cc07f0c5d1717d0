"""The same conversions through Python's google.protobuf.json_format (upb), for reference."""
import sys
import time

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open("Generated/souk.desc", "rb").read())
pool = descriptor_pool.DescriptorPool()
for f in fds.file:
    pool.Add(f)
cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("souk.v1.ListProductsResponse"))
binary = open(sys.argv[1], "rb").read()


def measure(name, body):
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(200):
            body()
        best = min(best, (time.perf_counter() - start) / 200)
    print(f"python json_format {name}: {int(1 / best)} messages/s ({best * 1e6:.1f} µs each)")


text = json_format.MessageToJson(cls.FromString(binary), indent=None)
measure("binary → JSON", lambda: json_format.MessageToJson(cls.FromString(binary), indent=None))
measure("JSON → binary", lambda: json_format.Parse(text, cls()).SerializeToString())
