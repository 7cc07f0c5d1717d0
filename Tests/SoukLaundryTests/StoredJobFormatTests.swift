import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukLaundry

/// The laundry_jobs table stored `souk.v1.Job` before jobs had a record of their own
/// (`souk.store.v1.Job`, which keeps its field numbers): such records still read, and the
/// projection sends what the contract has and nothing the server keeps for itself.
@Suite struct StoredJobFormatTests {
    /// A paid job at stage 9 as the previous format wrote it (its codec: format byte 1, the
    /// marketplace id, then the souk.v1.Job's bytes), with a customer summary, a field the store
    /// no longer keeps, and an excluded Dasher.
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064e60212243031393066336134
        2d303030302d373030302d383030302d3030303030303030303030631a2b0a2430313930663361342d303030302d37303030
        2d383030302d30303030303030303030306312034d6169222430313930663361342d303030302d373030302d383030302d30
        30303030303030303064302a05422d32313430023a0d6f776e20646574657267656e74520101600968027224303139306633
        61342d303030302d373030302d383030302d30303030303030303030646192012430313930663361342d303030302d373030
        302d383030302d3030303030303030303065319a010a32080884071203555344a00103aa010808d8041203555344b2010a32
        0808fe081203555344ba012430313930663361342d303030302d373030302d383030302d303030303030303030306661c001
        03e2010812060880f7c4d506e2010a0809120608a8bdc5d506900201aa020608a8bdc5d506b2020808fe081203555344
        """)

    static func decoded() throws -> JobRecord {
        try Self.previousFormat.withUnsafeBytes { try JobTable.table.codec.decode($0) }
    }

    @Test func aJobWrittenByThePreviousFormatReads() throws {
        let record = try Self.decoded()
        #expect(record.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let job = record.subject
        #expect(job.customerAccountID == "0190f3a4-0000-7000-8000-00000000000c")
        #expect(job.room == "B-214" && job.loadsEstimate == 2 && job.instructions == "own detergent" && job.addOns == [.folding])
        #expect(job.stage == .droppedOffLaundry && job.state == .droppedOff)
        #expect(job.excludedDasherAccountIDs == ["0190f3a4-0000-7000-8000-0000000000e1"])
        #expect(job.finalPrice?.total == SoukV1.Money(amountMinor: 1150, currencyCode: "USD"))
        #expect(job.paymentStatus == .successful && job.paidAmount?.amountMinor == 1150)
        #expect(job.stageTimes.map(\.stage) == [.waitingForDasherToAccept, .droppedOffLaundry])
        #expect(job.sameGenderOnly && job.completeTime?.seconds == 1_790_009_000)
        // Written back, it keeps every field it declares and drops the old summary ("Mai").
        let rewritten = try encoded(record)
        #expect(try rewritten.withUnsafeBytes { try JobTable.table.codec.decode($0) } == record)
        #expect(!rewritten.containsBytes(Array("Mai".utf8)) && Self.previousFormat.containsBytes(Array("Mai".utf8)))
    }

    @Test func theProjectionNamesWhatEachCallerSees() throws {
        let id = RecordID.generate()
        let time = StoreTime(microsecondsSinceEpoch: 1_790_009_000_000_000)
        let stored = StoredRecord(id: id, version: 12, createdAt: time, updatedAt: time, value: try Self.decoded())
        let customer = JobProjection.job(stored, for: .customerOrAdmin)
        #expect(customer.id == id.description && customer.version == 12 && customer.updateTime == Timestamp(time))
        #expect(customer.room == "B-214" && customer.paymentID == "0190f3a4-0000-7000-8000-0000000000fa")
        #expect(customer.customer == nil, "summaries come from the accounts, not the stored job")
        // The job is over: its Dasher no longer sees the room.
        #expect(JobProjection.job(stored, for: .other).room == "")
        // Nothing of the excluded Dashers reaches the wire.
        let wire = customer.encoded()
        #expect(!wire.containsBytes(Array("0190f3a4-0000-7000-8000-0000000000e1".utf8)))
    }

    private func encoded(_ record: JobRecord) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try JobTable.table.codec.encode(record, into: &bytes)
        return bytes
    }
}

extension Array where Element == UInt8 {
    fileprivate func containsBytes(_ part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        return (0...(count - part.count)).contains { Array(self[$0..<$0 + part.count]) == part }
    }
}
