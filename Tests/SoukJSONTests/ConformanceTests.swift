import Foundation
import Testing
@testable import SoukJSON

/// SoukJSON against Python's google.protobuf.json_format, an independent implementation: the
/// samples of Fixtures/conformance.jsonl (every message type of the contract and of
/// conformance.proto, random values; Fixtures/generate.py writes them and says how).
@Suite struct ConformanceTests {
    struct Sample: Sendable {
        var type: String
        var binary: [UInt8]
        var json: String
        /// What Python reads back from `json`, when that differs from `binary`.
        var reparsed: [UInt8]?
        /// `json` with proto field names and enum numbers, for some samples.
        var variant: String?
    }

    static let samples: [Sample] = {
        let text = try! String(contentsOf: Support.fixtures.appendingPathComponent("conformance.jsonl"), encoding: .utf8)
        return text.split(separator: "\n").map { line in
            guard case .object(let members) = try! Support.parse(String(line)) else { fatalError("bad fixture line") }
            var fields: [String: String] = [:]
            for member in members { if case .string(let s) = member.value { fields[member.key] = s } }
            return Sample(
                type: fields["type"]!, binary: Base64.decode(fields["binary"]!)!, json: fields["json"]!,
                reparsed: fields["reparsed"].map { Base64.decode($0)! }, variant: fields["variant"])
        }
    }()

    @Test func everyContractTypeHasSamples() {
        let sampled = Set(Self.samples.map(\.type))
        let contract = Support.registry.messageNames.filter { $0.hasPrefix("souk.v1.") && !$0.hasSuffix("Entry") }
        #expect(contract.count > 400)
        #expect(contract.filter { !sampled.contains($0) }.isEmpty)
        #expect(Self.samples.filter { $0.type == "souk.jsontest.AllKinds" }.count >= 40)
    }

    @Test func binaryToJSONMatchesPython() throws {
        var failures: [String] = []
        for sample in Self.samples {
            do {
                let ours = try Support.mapping.jsonString(fromBinary: sample.binary, messageType: sample.type)
                if !Support.jsonEqual(try Support.parse(ours), try Support.parse(sample.json)) {
                    failures.append("\(sample.type):\n  ours:   \(ours)\n  python: \(sample.json)")
                }
            } catch {
                failures.append("\(sample.type): \(error)\n  python: \(sample.json)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.samples.count) differ:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func jsonToBinaryMatchesPython() throws {
        var failures: [String] = []
        for sample in Self.samples {
            do {
                let ours = try Support.mapping.binary(fromJSON: sample.json, messageType: sample.type)
                let expected = sample.reparsed ?? sample.binary
                if try Support.canonical(sample.type, ours) != Support.canonical(sample.type, expected) {
                    failures.append("\(sample.type): \(sample.json)\n  ours:   \(Data(ours).base64EncodedString())\n  python: \(Data(expected).base64EncodedString())")
                }
            } catch {
                failures.append("\(sample.type): \(error)\n  json: \(sample.json)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.samples.count) differ:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func protoNamesAndEnumNumbersReadTheSame() throws {
        let variants = Self.samples.filter { $0.variant != nil }
        #expect(variants.count >= 40)
        var failures: [String] = []
        for sample in variants {
            do {
                let ours = try Support.mapping.binary(fromJSON: sample.variant!, messageType: sample.type)
                let expected = sample.reparsed ?? sample.binary
                if try Support.canonical(sample.type, ours) != Support.canonical(sample.type, expected) {
                    failures.append("\(sample.type): \(sample.variant!)")
                }
                // And written back with proto names, the same JSON as Python's (enums aside, by name).
                let protoNames = try Support.mapping.jsonString(fromBinary: sample.binary, messageType: sample.type, options: .init(useProtoNames: true))
                let python = try Support.mapping.jsonString(fromBinary: Support.mapping.binary(fromJSON: sample.variant!, messageType: sample.type), messageType: sample.type, options: .init(useProtoNames: true))
                if !Support.jsonEqual(try Support.parse(protoNames), try Support.parse(python)) {
                    failures.append("\(sample.type) with proto names: \(protoNames)")
                }
            } catch {
                failures.append("\(sample.type): \(error)\n  json: \(sample.variant!)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(variants.count) differ:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func prettyOutputIsTheSameJSON() throws {
        for sample in Self.samples.prefix(200) {
            let compact = try Support.mapping.jsonString(fromBinary: sample.binary, messageType: sample.type)
            let pretty = try Support.mapping.jsonString(fromBinary: sample.binary, messageType: sample.type, options: .init(pretty: true))
            #expect(try Support.parse(compact) == Support.parse(pretty))
        }
    }
}
