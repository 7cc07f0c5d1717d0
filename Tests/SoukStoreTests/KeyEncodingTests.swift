import PropertyBased
import SoukTesting
import Testing
@testable import SoukStore

@Suite struct KeyEncodingTests {
    private func encoded(_ parts: [KeyPart]) -> [UInt8] {
        var key = [UInt8]()
        parts.encoded(into: &key)
        return key
    }

    @Test func integersKeepTheirOrder() async {
        await propertyCheck(input: Gen.int64(in: .min ... .max), Gen.int64(in: .min ... .max)) { a, b in
            #expect(encoded([.int(a)]).lexicographicallyPrecedes(encoded([.int(b)])) == (a < b))
            #expect(encoded([.time(StoreTime(microsecondsSinceEpoch: a))]).lexicographicallyPrecedes(
                encoded([.time(StoreTime(microsecondsSinceEpoch: b))])) == (a < b))
        }
    }

    @Test func unsignedAndEnumValuesKeepTheirOrder() async {
        await propertyCheck(input: Gen.uint64(in: 0 ... .max), Gen.uint64(in: 0 ... .max), Gen.int32(in: .min ... .max), Gen.int32(in: .min ... .max)) { a, b, c, d in
            #expect(encoded([.uint(a)]).lexicographicallyPrecedes(encoded([.uint(b)])) == (a < b))
            #expect(encoded([.enumCase(c)]).lexicographicallyPrecedes(encoded([.enumCase(d)])) == (c < d))
        }
    }

    /// Strings (including NUL bytes and prefixes of each other) compare like their UTF-8 bytes,
    /// and a tuple compares field by field: ("a", 9) < ("ab", 0).
    @Test func stringTuplesKeepTheirOrder() async {
        let texts = ["", "a", "ab", "a\u{0}", "a\u{0}b", "b", "\u{0}", "é", "z\u{0}\u{0}"]
        let text = Gen.int(in: 0..<texts.count).map { texts[$0] }
        await propertyCheck(input: text, Gen.int64(in: -3...3), text, Gen.int64(in: -3...3)) { s1, i1, s2, i2 in
            let lhs = encoded([.string(s1), .int(i1)])
            let rhs = encoded([.string(s2), .int(i2)])
            let expected = Array(s1.utf8).lexicographicallyPrecedes(Array(s2.utf8)) || (s1 == s2 && i1 < i2)
            #expect(lhs.lexicographicallyPrecedes(rhs) == expected)
            #expect((lhs == rhs) == (s1 == s2 && i1 == i2))
        }
    }

    /// A query prefix of one string never matches a longer string: ("ab") is not a prefix of ("abc").
    @Test func stringFieldsAreSelfDelimiting() {
        #expect(!encoded([.string("abc")]).starts(with: encoded([.string("ab")])))
        #expect(encoded([.string("ab"), .int(1)]).starts(with: encoded([.string("ab")])))
    }

    @Test func recordIDTextRoundTrips() async {
        await propertyCheck(input: Gen.uint64(in: 0 ... .max), Gen.uint64(in: 0 ... .max)) { high, low in
            let id = RecordID(high: high, low: low)
            #expect(RecordID(id.description) == id)
            #expect(id.compactHex == id.description.filter { $0 != "-" })
            #expect(RecordID(id.description.uppercased()) == id)
            #expect(RecordID(id.description.dropFirst(0)) == id)
            #expect(RecordID(bytes: id.bytes) == id)
        }
        #expect(RecordID("not-a-uuid") == nil)
        #expect(RecordID("0190c0de-0000-7000-8000-00000000000g") == nil)
    }

    @Test func generatedIDsAreVersion7AndIncreasing() {
        var previous = RecordID.generate()
        for _ in 0..<10_000 {
            let next = RecordID.generate()
            #expect(next.version == 7)
            #expect(previous < next)
            previous = next
        }
        let now = StoreTime.now().millisecondsSinceEpoch
        #expect(abs(previous.unixMilliseconds - now) < 5_000)
    }

    @Test func identifiersMadeOnManyThreadsAreDistinctAndIncreasingOnEach() async {
        let perTask = 20_000
        let made = await withTaskGroup(of: [RecordID].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<perTask).map { _ in RecordID.generate() } }
            }
            return await group.reduce(into: [[RecordID]]()) { $0.append($1) }
        }
        for ids in made { #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }) }
        #expect(Set(made.joined()).count == 8 * perTask)
        #expect(Set(made.joined().map(\.low)).count == 8 * perTask, "the random bits repeat")
    }

    @Test func base64URLRoundTrips() async {
        await propertyCheck(input: Gen.uint8(in: 0 ... 255).array(of: 0...40)) { bytes in
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab$c") == nil)
    }

    @Test func envelopeRejectsDamage() throws {
        let envelope = Envelope(version: 3, createdAt: StoreTime(microsecondsSinceEpoch: 10), updatedAt: StoreTime(microsecondsSinceEpoch: 20))
        var value = envelope.beginValue()
        value += [1, 2, 3]
        Envelope.seal(&value)
        let (opened, payload) = try value.withUnsafeBytes { raw in
            let (e, p) = try Envelope.open(raw)
            return (e, Array(p))
        }
        #expect(opened == envelope)
        #expect(payload == [1, 2, 3])
        for cut in [0, 5, 28, value.count - 1] {
            #expect(throws: EnvelopeError.self) { try Array(value.prefix(cut)).withUnsafeBytes { _ = try Envelope.open($0) } }
        }
        var flipped = value
        flipped[30] ^= 0x40
        #expect(throws: EnvelopeError.self) { try flipped.withUnsafeBytes { _ = try Envelope.open($0) } }
    }
}
