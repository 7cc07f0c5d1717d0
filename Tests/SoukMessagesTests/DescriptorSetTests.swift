import Foundation
import Testing
@testable import SoukMessages

@Suite struct DescriptorSetTests {
    let set = DescriptorSet.embedded

    @Test func embeddedBytesAreTheGeneratedDescriptorSet() throws {
        let onDisk = try Data(contentsOf: Protoc.repository.appendingPathComponent("Generated/souk.desc"))
        let parsed = try DescriptorSet(serialized: Array(onDisk))
        #expect(parsed.fileNames == set.fileNames)
        #expect(set.fileNames.contains("grpc/health/v1/health.proto"))
        #expect(set.fileNames.contains("google/protobuf/any.proto"))
    }

    @Test func storedRecordsAreNotReflected() {
        #expect(set.fileNames.contains("souk/v1/laundry.proto"))
        #expect(!set.fileNames.contains { $0.hasPrefix("souk/store/") })
        #expect(set.fileName(containingSymbol: "souk.store.v1.Job") == nil)
    }

    @Test func listsEveryService() {
        for service in ["grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
                        "grpc.testing.TestService", "grpc.testing.UnimplementedService"] {
            #expect(set.serviceNames.contains(service))
        }
    }

    @Test(arguments: [
        ("grpc.health.v1.Health", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.Health.Watch", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.HealthCheckResponse", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.HealthCheckResponse.ServingStatus", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.HealthCheckResponse.SERVICE_UNKNOWN", "grpc/health/v1/health.proto"),
        ("grpc.health.v1.HealthCheckRequest.service", "grpc/health/v1/health.proto"),
        ("grpc.testing.PayloadType", "grpc/testing/messages.proto"),
        ("grpc.testing.COMPRESSABLE", "grpc/testing/messages.proto"),
        ("google.rpc.BadRequest.FieldViolation", "google/rpc/error_details.proto"),
        ("google.protobuf.Any", "google/protobuf/any.proto"),
    ])
    func findsTheFileDeclaringASymbol(symbol: String, file: String) {
        #expect(set.fileName(containingSymbol: symbol) == file)
    }

    @Test func unknownSymbolsAndFiles() {
        #expect(set.fileName(containingSymbol: "grpc.health.v1.Nope") == nil)
        #expect(set.fileName(containingSymbol: "Health") == nil)
        #expect(set.serializedFile(named: "nope.proto") == nil)
        #expect(set.serializedFileWithDependencies(named: "nope.proto") == nil)
    }

    @Test func filesComeWithTheirTransitiveDependencies() throws {
        let files = try #require(set.serializedFileWithDependencies(named: "grpc/testing/test.proto"))
        let names = try files.map { bytes in
            try bytes.withUnsafeBytes { try unpackMessage(FileSummary.self, named: "FileDescriptorProto", $0).name }
        }
        #expect(names == ["grpc/testing/test.proto", "grpc/testing/empty.proto", "grpc/testing/messages.proto"])
        #expect(files[0] == set.serializedFile(named: "grpc/testing/test.proto"))
        #expect(try #require(set.serializedFileWithDependencies(named: "google/protobuf/any.proto")).count == 1)
    }

    @Test func extensionsAreIndexed() throws {
        #expect(set.extensionNumbers(of: "grpc.testing.Empty") == [])
        #expect(set.extensionNumbers(of: "grpc.testing.Nope") == nil)
        #expect(set.fileName(containingExtension: 100, of: "grpc.testing.Empty") == nil)

        // A proto2 file with extensions, compiled by protoc.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("souk-ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            syntax = "proto2";
            package ext;
            message Base { extensions 100 to 200; }
            message Holder { extend Base { optional string nested = 150; } }
            """.write(to: directory.appendingPathComponent("base.proto"), atomically: true, encoding: .utf8)
        try """
            syntax = "proto2";
            package ext;
            import "base.proto";
            extend Base { optional int32 top = 100; }
            """.write(to: directory.appendingPathComponent("more.proto"), atomically: true, encoding: .utf8)
        let custom = try DescriptorSet(serialized: Protoc.descriptorSet(directory: directory.path, files: ["more.proto"]))
        #expect(custom.fileNames == ["base.proto", "more.proto"])
        #expect(custom.extensionNumbers(of: "ext.Base") == [100, 150])
        #expect(custom.fileName(containingExtension: 100, of: "ext.Base") == "more.proto")
        #expect(custom.fileName(containingExtension: 150, of: "ext.Base") == "base.proto")
        #expect(custom.fileName(containingSymbol: "ext.Holder.nested") == "base.proto")
        #expect(custom.fileName(containingSymbol: "ext.top") == "more.proto")
        #expect(custom.serviceNames.isEmpty)
    }

    @Test func corruptSetsAreRefused() {
        #expect(throws: ProtoDecodingError.self) { try DescriptorSet(serialized: [0x0a, 0x05, 0x0a]) }
        #expect(throws: ProtoDecodingError.self) { try DescriptorSet(serialized: [0x0a, 0x02, 0xff, 0xff]) }
    }
}
