// Speed of the proto3 JSON mapping (SoukJSON) on a typical list answer: a ListProductsResponse
// of 20 wine products, each converted binary → JSON and JSON → binary; and on the web bench's
// echo, a grpc.testing.SimpleResponse carrying 1 KiB of bytes (base64 in JSON). `bench/json/run` builds
// it optimized, outside the package, and prints messages per second.
import Foundation

let repository = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
let descriptorSet = try Data(contentsOf: repository.appendingPathComponent("Generated/souk.desc"))
let loadStart = DispatchTime.now().uptimeNanoseconds
let mapping = ProtoJSON(registry: try DescriptorRegistry(serialized: Array(descriptorSet)))
print("registry of Generated/souk.desc (\(descriptorSet.count) bytes, \(mapping.registry.messageNames.count) message types) loaded in \((DispatchTime.now().uptimeNanoseconds - loadStart) / 1_000_000) ms")

let product = { (i: Int) in
    """
    {"id":"0191f5d2-7c1e-7a3b-9d4e-\(String(format: "%012d", i))","name":"Château Margaux \(2000 + i)",
     "description":"A deep garnet Bordeaux with layers of blackcurrant, cedar and violet; long, silky finish.",
     "tastingNotes":"Cassis, graphite, cedar","pairings":"Lamb, aged cheese","category":"PRODUCT_CATEGORY_RED",
     "grape":"Cabernet Sauvignon","region":"Margaux, Bordeaux","vintage":\(2000 + i),
     "imageMediaIds":["0191f5d2-7c1e-7a3b-9d4e-0000000000a\(i % 10)","0191f5d2-7c1e-7a3b-9d4e-0000000000b\(i % 10)"],
     "price":{"amountMinor":"\(129_00 + i * 100)","currencyCode":"USD"},"stock":\(12 + i),"available":true,
     "expertRating":94,"version":"\(i + 3)","createTime":"2026-03-01T10:15:30.123Z","updateTime":"2026-11-20T08:00:00Z",
     "featured":\(i % 3 == 0)}
    """
}
let responseJSON = #"{"products":["# + (0..<20).map(product).joined(separator: ",") + #"],"nextPageToken":"djE6MjA"}"#
let binary = try mapping.binary(fromJSON: responseJSON, messageType: "souk.v1.ListProductsResponse")
let json = try mapping.json(fromBinary: binary, messageType: "souk.v1.ListProductsResponse")
if CommandLine.arguments.count > 2 { try Data(binary).write(to: URL(fileURLWithPath: CommandLine.arguments[2])) }
print("ListProductsResponse of 20 products: \(binary.count) bytes protobuf, \(json.count) bytes JSON")

func measure(_ name: String, jsonBytes: Int = json.count, _ body: () throws -> Void) rethrows {
    for _ in 0..<200 { try body() }  // warm up
    var best = Double.infinity
    for _ in 0..<5 {
        let iterations = 2000
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        best = min(best, seconds / Double(iterations))
    }
    print("\(name): \(Int(1 / best)) messages/s (\(String(format: "%.1f", best * 1e6)) µs each, \(Int(Double(jsonBytes) / best / 1e6)) MB/s of JSON)")
}

let only = ProcessInfo.processInfo.environment["SOUK_JSON_BENCH_ONLY"]
if only != "decode" { try measure("binary → JSON") { _ = try mapping.json(fromBinary: binary, messageType: "souk.v1.ListProductsResponse") }
}
if only != "encode" { try measure("JSON → binary") { _ = try mapping.binary(fromJSON: json, messageType: "souk.v1.ListProductsResponse") } }

let echoJSON = #"{"payload":{"body":""# + Data(repeating: 0, count: 1024).base64EncodedString() + #""}}"#
let echoBinary = try mapping.binary(fromJSON: echoJSON, messageType: "grpc.testing.SimpleResponse")
print("SimpleResponse with 1 KiB of bytes: \(echoBinary.count) bytes protobuf, \(echoJSON.utf8.count) bytes JSON")
if only != "decode" { try measure("echo binary → JSON", jsonBytes: echoJSON.utf8.count) { _ = try mapping.json(fromBinary: echoBinary, messageType: "grpc.testing.SimpleResponse") } }
if only != "encode" { try measure("echo JSON → binary", jsonBytes: echoJSON.utf8.count) { _ = try mapping.binary(fromJSON: echoJSON, messageType: "grpc.testing.SimpleResponse") } }
