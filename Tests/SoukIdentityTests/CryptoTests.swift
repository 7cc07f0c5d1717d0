import SoukTesting
import SoukStore
import Testing
@testable import SoukIdentity

@Suite struct CryptoTests {
    @Test func blake2bMatchesTheReferenceVectors() {
        // BLAKE2b-256 of the empty input and of "abc" (RFC 7693 parameters, 32-byte output).
        #expect(hex(Sodium.blake2b256([])) == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
        #expect(hex(Sodium.blake2b256(Array("abc".utf8))) == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
    }

    @Test func keyedBlake2bMatchesPythonsHashlib() {
        // hashlib.blake2b(b"abc", digest_size=32, key=bytes(range(16))).hexdigest()
        let key = (0..<16).map(UInt8.init)
        #expect(hex(Sodium.blake2b256(Array("abc".utf8), key: key)) == "3fd8fd31501cdbe942607b204368e3dc4ebce5744de1a955a6025f5c9848bb20")
    }

    @Test func sealedTokenPairsOpenOnlyWithTheirTokenAndSession() {
        let (access, refresh, retired) = (SecretToken.generate(), SecretToken.generate(), SecretToken.generate())
        let session = RecordID.generate()
        let sealed = SealedTokenPair(access: access, refresh: refresh, key: retired, sessionID: session)
        let opened = sealed.open(key: retired, sessionID: session)
        #expect(opened?.access == access && opened?.refresh == refresh)
        // Neither token appears in what the store keeps, and two seals of one pair differ (random nonce).
        for secret in [access, refresh, retired] {
            #expect(!sealed.bytes.contains(Array(secret.text.utf8)))
        }
        #expect(SealedTokenPair(access: access, refresh: refresh, key: retired, sessionID: session) != sealed)
        // The stored hash of the retired token is no key; nor is another token or another session.
        #expect(sealed.open(key: SecretToken(text: hex(retired.hash.bytes)), sessionID: session) == nil)
        #expect(sealed.open(key: refresh, sessionID: session) == nil)
        #expect(sealed.open(key: retired, sessionID: RecordID.generate()) == nil)
        var altered = sealed.bytes
        altered[altered.count - 1] ^= 1
        #expect(SealedTokenPair(bytes: altered).open(key: retired, sessionID: session) == nil)
        #expect(SealedTokenPair(bytes: Array(sealed.bytes.prefix(10))).open(key: retired, sessionID: session) == nil)
    }

    @Test func base64URLWithoutPadding() {
        #expect(SecretToken.base64URL([]) == "")
        #expect(SecretToken.base64URL(Array("f".utf8)) == "Zg")
        #expect(SecretToken.base64URL(Array("fo".utf8)) == "Zm8")
        #expect(SecretToken.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(SecretToken.base64URL([0xFB, 0xFF]) == "-_8")
    }

    @Test func tokensAre256RandomBitsStoredAsHashes() {
        let tokens = (0..<100).map { _ in SecretToken.generate() }
        #expect(Set(tokens).count == 100)
        for token in tokens {
            #expect(token.text.utf8.count == 43)
            #expect(token.text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F })
        }
        let token = tokens[0]
        #expect(token.hash == TokenHash(of: token.text))
        #expect(token.hash.bytes.count == 32)
        #expect(token.hash != tokens[1].hash)
        #expect(token.hash.bytes == Sodium.blake2b256(Array(token.text.utf8)))
    }

    @Test func argon2idHashesVerifyAndCarryTheirCost() async throws {
        let hasher = try PasswordHasher(memoryKiB: 64, threads: 1)
        let hash = try await hasher.hash("Abcdef1!")
        #expect(hash.hasPrefix("$argon2id$v=19$m=64,"))
        #expect(try await hasher.hash("Abcdef1!") != hash)  // salted
        #expect(try await hasher.verify("Abcdef1!", against: hash))
        #expect(try await !hasher.verify("abcdef1!", against: hash))
        #expect(try await !hasher.verify("", against: hash))
        #expect(try await !hasher.verify("Abcdef1!", against: nil))
        #expect(try await !hasher.verify("Abcdef1!", against: "not a hash"))
    }

    @Test func theDecoyIsAWellFormedHashOfTheSameCostThatMatchesNothing() async throws {
        let hasher = try PasswordHasher(memoryKiB: 64, threads: 1)
        let decoy = PasswordHasher.decoy(operations: hasher.operations, memoryKiB: 64)
        #expect(PasswordHasher.isHash(decoy, operations: hasher.operations, memoryKiB: 64))
        #expect(PasswordHasher.isHash(try await hasher.hash("Abcdef1!"), operations: hasher.operations, memoryKiB: 64))
        #expect(!PasswordHasher.isHash(decoy, operations: hasher.operations, memoryKiB: 128))
        #expect(!PasswordHasher.isHash("not a hash", operations: hasher.operations, memoryKiB: 64))
        #expect(decoy != PasswordHasher.decoy(operations: hasher.operations, memoryKiB: 64))
        #expect(!PasswordHasher.verify("", decoy))
    }

    @Test func hashingCostOutsideLibsodiumsRangeIsRefused() {
        #expect(throws: PasswordHashError.self) { try PasswordHasher(memoryKiB: 1) }
        #expect(PasswordHasher.defaultMemoryKiB == 65536)
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
