import Foundation
import Testing
@testable import SoukMessages

/// The generated souk.v1 and souk.store.v1 wrappers against the Python protobuf library: every
/// message and enum of the contract and of the stored records has its wrapper, and random values
/// of every message (every field set, each oneof member in turn), packed by Python, unpack and
/// pack back to the same bytes.
@Suite struct ContractWireTests {
    /// The message types of both packages by full name.
    static let messageTypes = SoukV1.messageTypes.merging(SoukStoreV1.messageTypes) { first, _ in first }
    /// The enums of both packages by full name.
    static let enumValueNames = SoukV1.enumValueNames.merging(SoukStoreV1.enumValueNames) { first, _ in first }

    /// The lines of Tests/SoukMessagesTests/Vectors/souk_v1.vectors (see its header).
    static let vectors: (enums: [String: [String]], messages: [(name: String, bytes: [UInt8])]) = {
        let url = Protoc.repository.appendingPathComponent("Tests/SoukMessagesTests/Vectors/souk_v1.vectors")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var enums: [String: [String]] = [:]
        var messages: [(String, [UInt8])] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "enum" {
                enums[words[1]] = Array(words.dropFirst(2))
            } else if words.count == 2 {
                messages.append((words[0], words[1] == "-" ? [] : hexBytes(words[1])))
            }
        }
        return (enums, messages)
    }()

    @Test func vectorsCoverTheContract() {
        // Guards against an empty or unreadable vectors file making the other tests vacuous.
        #expect(Self.vectors.messages.count > 1_000)
        #expect(Set(Self.vectors.messages.map(\.name)).count == Self.messageTypes.count)
        #expect(Self.vectors.enums.count == Self.enumValueNames.count)
        #expect(!SoukStoreV1.messageTypes.isEmpty)
    }

    @Test func everyMessageHasItsWrapper() {
        let missing = Set(Self.vectors.messages.map(\.name)).filter { Self.messageTypes[$0] == nil }
        #expect(missing.isEmpty, "no wrapper for \(missing.sorted())")
        for (name, type) in Self.messageTypes {
            #expect(type.protoName == name)
        }
    }

    @Test func everyEnumValueHasItsCase() {
        for (name, values) in Self.vectors.enums {
            #expect(Self.enumValueNames[name] == values, "\(name)")
        }
    }

    @Test func randomMessagesPackedByPythonRoundTripByteForByte() throws {
        var failures: [String] = []
        for (name, bytes) in Self.vectors.messages {
            guard let type = Self.messageTypes[name] else { continue }
            if let problem = try Self.roundTrip(type, bytes) { failures.append("\(name): \(problem)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
    }

    /// nil when `bytes` unpack into `M`, pack back to the same bytes, and unpack again equal.
    static func roundTrip<M: ProtoMessage>(_ type: M.Type, _ bytes: [UInt8]) throws -> String? {
        let value = try M(decoding: bytes)
        let packed = value.encoded()
        guard packed == bytes else {
            let same = zip(packed, bytes).prefix { $0 == $1 }.count
            return "packed \(packed.count) bytes, Python \(bytes.count); they differ from byte \(same)"
        }
        guard try M(decoding: packed) == value else { return "unpacked value differs after a round trip" }
        return nil
    }

    static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
