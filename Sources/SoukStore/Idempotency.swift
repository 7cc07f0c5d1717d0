/// The client-chosen key that makes a create safe to retry, scoped to one account in one marketplace.
public struct IdempotencyKey: Sendable, Hashable {
    public var marketplace: String
    public var account: String
    public var key: String

    public init(marketplace: String, account: String, key: String) {
        self.marketplace = marketplace
        self.account = account
        self.key = key
    }

    /// `K | marketplace | account | key`.
    var storageKey: [UInt8] {
        var bytes = [KeySpace.idempotency]
        for part in [marketplace, account, key] { KeyPart.string(part).encode(into: &bytes) }
        return bytes
    }
}

/// A 128-bit FNV-1a hash of a request's bytes, stored with an idempotency record so that the
/// same key sent with a different request is recognised and refused.
public struct RequestFingerprint: Sendable, Hashable {
    public let value: UInt128

    public init(_ bytes: UnsafeRawBufferPointer) {
        var hash: UInt128 = 0x6C62_272E_07BB_0142_62B8_2175_6295_C58D
        let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B
        for byte in bytes {
            hash ^= UInt128(byte)
            hash &*= prime
        }
        value = hash
    }

    public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { RequestFingerprint($0) }
    }

    init(value: UInt128) { self.value = value }

    func append(to bytes: inout [UInt8]) {
        KeySpace.appendUInt64(UInt64(truncatingIfNeeded: value >> 64), to: &bytes)
        KeySpace.appendUInt64(UInt64(truncatingIfNeeded: value), to: &bytes)
    }
}

/// The result of an idempotent write: the value, and whether it is a stored earlier result.
public struct IdempotentResult<Value> {
    public var value: Value
    /// True when an earlier request with the same key and the same fingerprint produced `value`.
    public var replayed: Bool
}

extension IdempotentResult: Sendable where Value: Sendable {}

/// Stored idempotency record: format(1) = 1, expiry µs(8), fingerprint(16), response bytes.
private struct IdempotencyRecord {
    var expiry: StoreTime
    var fingerprint: RequestFingerprint
    var response: UnsafeRawBufferPointer

    static func encode(expiry: StoreTime, fingerprint: RequestFingerprint, response: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [1]
        bytes.reserveCapacity(25 + response.count)
        KeySpace.appendUInt64(UInt64(bitPattern: expiry.microsecondsSinceEpoch), to: &bytes)
        fingerprint.append(to: &bytes)
        bytes.append(contentsOf: response)
        return bytes
    }

    init(_ bytes: UnsafeRawBufferPointer, key: String) throws {
        guard bytes.count >= 25, bytes[0] == 1 else {
            throw StoreError.corruptValue(what: "idempotency record \(key)", reason: "malformed (\(bytes.count) bytes)")
        }
        expiry = StoreTime(microsecondsSinceEpoch: Int64(bitPattern: KeySpace.readUInt64(bytes, at: 1)))
        fingerprint = RequestFingerprint(
            value: UInt128(KeySpace.readUInt64(bytes, at: 9)) << 64 | UInt128(KeySpace.readUInt64(bytes, at: 17)))
        response = UnsafeRawBufferPointer(rebasing: bytes[25...])
    }
}

/// `X | expiry | K-key`: lets cleanup find expired records without visiting live ones.
private func expiryKey(_ expiry: StoreTime, _ storageKey: [UInt8]) -> [UInt8] {
    var key = [KeySpace.idempotencyExpiry]
    KeyPart.time(expiry).encode(into: &key)
    key.append(contentsOf: storageKey)
    return key
}

extension Store {
    /// A create that is safe to retry: the first request with `key` runs `body` and stores its
    /// result (encoded by `responseCodec`) in the same transaction; a later request with the same
    /// key and the same fingerprint gets that stored result back without running `body`; the same
    /// key with a different fingerprint throws `.idempotencyKeyReused`. Records expire after
    /// `configuration.idempotencyRetention` (24 h by default). With no key this is a plain `write`.
    ///
    /// Two concurrent requests with the same key are serialized on the key's lock: the second
    /// waits and then replays the first's result.
    public func write<Codec: RecordCodec>(
        idempotencyKey key: IdempotencyKey?, fingerprint: RequestFingerprint, responseCodec: Codec,
        _ body: @escaping @Sendable (Transaction) throws -> Codec.Value
    ) async throws -> IdempotentResult<Codec.Value> where Codec.Value: Sendable {
        guard let key else {
            return IdempotentResult(value: try await write(body), replayed: false)
        }
        let retention = configuration.idempotencyRetention
        return try await write { transaction in
            let storageKey = key.storageKey
            let stored: IdempotentResult<Codec.Value>? = try transaction.engine.getForUpdate(storageKey) { bytes in
                guard let bytes else { return nil }
                let record = try IdempotencyRecord(bytes, key: key.key)
                guard record.expiry > transaction.now else {
                    // Expired but not yet cleaned up: forget it; cleanup drops its expiry entry.
                    return nil
                }
                guard record.fingerprint == fingerprint else { throw StoreError.idempotencyKeyReused(key: key.key) }
                do {
                    return IdempotentResult(value: try responseCodec.decode(record.response), replayed: true)
                } catch {
                    throw StoreError.corruptValue(what: "idempotency record \(key.key)", reason: "\(error)")
                }
            }
            if let stored { return stored }
            let value = try body(transaction)
            var response = [UInt8]()
            do {
                try responseCodec.encode(value, into: &response)
            } catch {
                throw StoreError.encodingFailed(table: "idempotency", reason: "\(error)")
            }
            let expiry = transaction.now.adding(retention)
            try transaction.engine.put(storageKey, IdempotencyRecord.encode(expiry: expiry, fingerprint: fingerprint, response: response))
            try transaction.engine.put(expiryKey(expiry, storageKey), [])
            return IdempotentResult(value: value, replayed: false)
        }
    }

    /// Deletes idempotency records whose expiry has passed; returns how many expiry entries were removed.
    @discardableResult
    public func purgeExpiredIdempotencyRecords(batchSize: Int = 1_000) async throws -> Int {
        var upper = [KeySpace.idempotencyExpiry]
        KeyPart.time(now).encode(into: &upper)
        let now = self.now
        return try await purgeInBatches(lower: [KeySpace.idempotencyExpiry], upper: upper, batchSize: batchSize) {
            transaction, key, _ in
            let storageKey = Array(key[9...])  // after `X | expiry`
            try transaction.delete(Array(key))
            // Delete the record only if it is still the expired one (a reused key may have replaced it).
            let expired = try transaction.getForUpdate(storageKey) { bytes in
                // An unreadable record under an expired entry is dropped as well.
                bytes.map { (try? IdempotencyRecord($0, key: ""))?.expiry ?? now <= now } ?? false
            }
            if expired { try transaction.delete(storageKey) }
        }
    }
}
