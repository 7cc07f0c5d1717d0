import SoukStore

/// A laundry job, shaped like the domain's records: marketplace, owner, status, an optional
/// courier, and the fields a dorm queue needs.
public struct SampleJob: Sendable, Equatable {
    /// Job states, with protobuf-style raw values.
    public enum Status: Int32, Sendable, CaseIterable {
        case pending = 1
        case accepted = 2
        case done = 3
        case cancelled = 4
    }

    public var marketplace: String
    public var dorm: String
    public var owner: String
    public var courier: String?
    public var status: Status
    public var loads: Int64
    public var note: String

    public init(marketplace: String, dorm: String, owner: String, courier: String? = nil, status: Status = .pending,
                loads: Int64 = 1, note: String = "") {
        self.marketplace = marketplace
        self.dorm = dorm
        self.owner = owner
        self.courier = courier
        self.status = status
        self.loads = loads
        self.note = note
    }
}

/// An account with an e-mail address that is unique per marketplace (compared case-insensitively).
public struct SampleAccount: Sendable, Equatable {
    public var marketplace: String
    public var email: String
    public var name: String

    public init(marketplace: String, email: String, name: String) {
        self.marketplace = marketplace
        self.email = email
        self.name = name
    }
}

/// The sample tables and their indexes, declared the way domain modules declare theirs.
public enum SampleSchema {
    public static let jobsByStatus = Index<SampleJob>.nonUnique("jobs.marketplace_status") {
        [.string($0.marketplace), .enumCase($0.status)]
    }
    public static let jobsByOwner = Index<SampleJob>.nonUnique("jobs.marketplace_owner") {
        [.string($0.marketplace), .string($0.owner)]
    }
    /// The dorm queue: oldest pending job first (entries end with the time-ordered identifier).
    public static let jobsByDormStatus = Index<SampleJob>.nonUnique("jobs.marketplace_dorm_status") {
        [.string($0.marketplace), .string($0.dorm), .enumCase($0.status)]
    }
    /// Sparse: only jobs with a courier.
    public static let jobsByCourier = Index<SampleJob>.nonUnique("jobs.marketplace_courier") { job in
        job.courier.map { [.string(job.marketplace), .string($0)] }
    }
    public static let jobsByCreated = Index<SampleJob>.nonUnique("jobs.marketplace_created", recordKey: {
        [.string($0.value.marketplace), .time($0.createdAt)]
    })
    public static let jobsByLoads = Index<SampleJob>.nonUnique("jobs.marketplace_loads") {
        [.string($0.marketplace), .int($0.loads)]
    }

    public static let jobs = Table(
        "jobs", codec: SampleJobCodec(),
        indexes: [jobsByStatus, jobsByOwner, jobsByDormStatus, jobsByCourier, jobsByCreated, jobsByLoads])

    public static let accountsByEmail = Index<SampleAccount>.unique("accounts.marketplace_email") {
        [.string($0.marketplace), .string($0.email.lowercased())]
    }
    public static let accountsByName = Index<SampleAccount>.nonUnique("accounts.marketplace_name") {
        [.string($0.marketplace), .string($0.name)]
    }

    public static let accounts = Table("accounts", codec: SampleAccountCodec(), indexes: [accountsByEmail, accountsByName])

    public static let schema = Schema(jobs, accounts)

    static let benchJobsByStatus = Index<SampleJob>.nonUnique("bench.marketplace_status") { [.string($0.marketplace), .enumCase($0.status)] }
    public static let benchJobsByOwner = Index<SampleJob>.nonUnique("bench.marketplace_owner") { [.string($0.marketplace), .string($0.owner)] }
    static let benchJobsByDorm = Index<SampleJob>.nonUnique("bench.marketplace_dorm_status") {
        [.string($0.marketplace), .string($0.dorm), .enumCase($0.status)]
    }
    /// The benchmarks' record: a job with three secondary indexes, so a durable create writes a
    /// record and three index entries (`bench/store`, and `bench/commerce` beside checkouts).
    public static let benchJobs = Table("bench_jobs", codec: SampleJobCodec(), indexes: [benchJobsByStatus, benchJobsByOwner, benchJobsByDorm])
}

/// Length-prefixed fields; decoding refuses anything that does not parse exactly.
public struct SampleJobCodec: RecordCodec {
    public init() {}

    public func encode(_ job: SampleJob, into bytes: inout [UInt8]) throws {
        var writer = FieldWriter(bytes: bytes)
        writer.string(job.marketplace)
        writer.string(job.dorm)
        writer.string(job.owner)
        writer.string(job.courier ?? "")
        writer.byte(job.courier == nil ? 0 : 1)
        writer.int(Int64(job.status.rawValue))
        writer.int(job.loads)
        writer.string(job.note)
        bytes = writer.bytes
    }

    public func decode(_ bytes: UnsafeRawBufferPointer) throws -> SampleJob {
        var reader = FieldReader(bytes: bytes)
        let marketplace = try reader.string()
        let dorm = try reader.string()
        let owner = try reader.string()
        let courier = try reader.string()
        let hasCourier = try reader.byte()
        guard let status = SampleJob.Status(rawValue: Int32(truncatingIfNeeded: try reader.int())) else {
            throw SampleCodecError(reason: "unknown status")
        }
        let loads = try reader.int()
        let note = try reader.string()
        try reader.finish()
        return SampleJob(marketplace: marketplace, dorm: dorm, owner: owner, courier: hasCourier == 1 ? courier : nil,
                         status: status, loads: loads, note: note)
    }
}

/// Codec of `SampleAccount`.
public struct SampleAccountCodec: RecordCodec {
    public init() {}

    public func encode(_ account: SampleAccount, into bytes: inout [UInt8]) throws {
        var writer = FieldWriter(bytes: bytes)
        writer.string(account.marketplace)
        writer.string(account.email)
        writer.string(account.name)
        bytes = writer.bytes
    }

    public func decode(_ bytes: UnsafeRawBufferPointer) throws -> SampleAccount {
        var reader = FieldReader(bytes: bytes)
        let account = SampleAccount(marketplace: try reader.string(), email: try reader.string(), name: try reader.string())
        try reader.finish()
        return account
    }
}

/// Codec for plain byte responses (idempotent writes in tests).
public struct BytesCodec: RecordCodec {
    public init() {}
    public func encode(_ value: [UInt8], into bytes: inout [UInt8]) throws { bytes.append(contentsOf: value) }
    public func decode(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8] { Array(bytes) }
}

/// Why sample bytes did not decode.
public struct SampleCodecError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

struct FieldWriter {
    var bytes: [UInt8]

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func int(_ value: Int64) {
        let u = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: u >> UInt64(shift))) }
    }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        int(Int64(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

struct FieldReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw SampleCodecError(reason: "truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int() throws -> Int64 {
        guard offset + 8 <= bytes.count else { throw SampleCodecError(reason: "truncated") }
        var u: UInt64 = 0
        for i in 0..<8 { u = u << 8 | UInt64(bytes[offset + i]) }
        offset += 8
        return Int64(bitPattern: u)
    }

    mutating func string() throws -> String {
        let count = try int()
        guard count >= 0, offset + Int(count) <= bytes.count else { throw SampleCodecError(reason: "bad string length \(count)") }
        defer { offset += Int(count) }
        guard let text = String(validating: bytes[offset..<offset + Int(count)], as: UTF8.self) else {
            throw SampleCodecError(reason: "invalid UTF-8")
        }
        return text
    }

    func finish() throws {
        guard offset == bytes.count else { throw SampleCodecError(reason: "\(bytes.count - offset) trailing bytes") }
    }
}
