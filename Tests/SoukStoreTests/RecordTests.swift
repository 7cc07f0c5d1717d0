import Foundation
import Testing
@_spi(Testing) @testable import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct RecordTests {
    /// The canonical text form, either case, and nothing else: as Foundation's UUID reads it.
    @Test func idsAreReadFromTheirCanonicalTextOnly() {
        let text = RecordID.generate().description
        for form in [text, text.uppercased(), String(text.prefix(35)) + "g", String(text.prefix(35)), text + "0", text.replacingOccurrences(of: "-", with: "_"),
                     "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                     "0000000/-0000-0000-0000-000000000000", "0000000:-0000-0000-0000-000000000000", "0000000@-0000-0000-0000-00000000000G", "`"] {
            let expected = UUID(uuidString: form).map { $0.uuidString.lowercased() }
            #expect(RecordID(form)?.description == expected, "\(form)")
            var copy = form
            #expect(copy.withUTF8 { RecordID(utf8: $0) }?.description == expected, "\(form)")
        }
    }

    let jobs = SampleSchema.jobs
    let accounts = SampleSchema.accounts

    @Test(arguments: StoreEngineKind.allCases) func insertGetUpdateDelete(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let created = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 2)) }
            #expect(created.version == 1)
            #expect(created.createdAt == created.updatedAt)
            #expect(try store.get(jobs, created.id) == created)

            let updated = try await store.write { tx in
                try tx.update(SampleSchema.jobs, created.id, expectedVersion: 1) { $0.status = .accepted; $0.courier = "bob" }
            }
            #expect(updated.version == 2)
            #expect(updated.createdAt == created.createdAt)
            #expect(try store.get(jobs, created.id)?.value.status == .accepted)

            let deleted = try await store.write { try $0.delete(SampleSchema.jobs, created.id, expectedVersion: 2) }
            #expect(deleted.id == created.id)
            #expect(try store.get(jobs, created.id) == nil)
            #expect(try store.list(jobs, SampleSchema.jobsByCourier, IndexRange(prefix: ["m1"])).items.isEmpty)
            #expect(try await store.verify().isConsistent)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func staleVersionIsRefused(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let created = try await store.write { try $0.insert(SampleSchema.jobs, job()) }
            _ = try await store.write { try $0.save(SampleSchema.jobs, created) }  // version 1 → 2
            await #expect(throws: StoreError.versionMismatch(table: "jobs", id: created.id, expected: 1, actual: 2)) {
                _ = try await store.write { try $0.save(SampleSchema.jobs, created) }
            }
            await #expect(throws: StoreError.versionMismatch(table: "jobs", id: created.id, expected: 1, actual: 2)) {
                _ = try await store.write { try $0.delete(SampleSchema.jobs, created.id, expectedVersion: 1) }
            }
            let missing = RecordID.generate()
            await #expect(throws: StoreError.notFound(table: "jobs", id: missing)) {
                _ = try await store.write { try $0.update(SampleSchema.jobs, missing) { _ in } }
            }
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func maintainedFieldsKeepTheVersionAClientEditsWith(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let created = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 2)) }
            // The server moves a maintained field (here the courier, standing in for a rating or a
            // location) twice; its index follows, the version a client read stays valid.
            for courier in ["ann", "bob"] {
                let kept = try await store.write { try $0.updateMaintainedFields(SampleSchema.jobs, created.id) { $0.courier = courier } }
                #expect(kept.version == 1)
                #expect(kept.updatedAt == created.updatedAt)
            }
            #expect(try store.list(jobs, SampleSchema.jobsByCourier, IndexRange(prefix: ["m1", "bob"])).items.map(\.id) == [created.id])
            // The client's edit, made with the version it read, passes and keeps the server's field.
            let edited = try await store.write { tx in
                try tx.update(SampleSchema.jobs, created.id, expectedVersion: 1) { $0.status = .accepted }
            }
            #expect(edited.version == 2)
            #expect(edited.value.courier == "bob")
            #expect(try await store.verify().isConsistent)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func explicitIdentifierMustBeFree(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let id = RecordID.generate()
            _ = try await store.write { try $0.insert(SampleSchema.jobs, job(), id: id) }
            await #expect(throws: StoreError.alreadyExists(table: "jobs", id: id)) {
                _ = try await store.write { try $0.insert(SampleSchema.jobs, job(), id: id) }
            }
        }
    }

    /// A failing step rolls back everything the transaction wrote, index entries included.
    @Test(arguments: StoreEngineKind.allCases) func transactionIsAllOrNothing(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            struct Refused: Error {}
            let before = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "carol")) }
            await #expect(throws: Refused.self) {
                _ = try await store.write { tx in
                    try tx.insert(SampleSchema.jobs, job(owner: "carol"))
                    try tx.update(SampleSchema.jobs, before.id) { $0.owner = "dave" }
                    try tx.appendEvent(to: "orders", [1])
                    throw Refused()
                }
            }
            let carol = try store.list(jobs, SampleSchema.jobsByOwner, IndexRange(prefix: ["m1", "carol"]))
            #expect(carol.items.map(\.id) == [before.id])
            #expect(try store.list(jobs, SampleSchema.jobsByOwner, IndexRange(prefix: ["m1", "dave"])).items.isEmpty)
            #expect(try store.lastSequence(of: "orders") == 0)
        }
    }

    /// Several tables in one transaction: an order, its stock, its payment and the emptied cart.
    @Test(arguments: StoreEngineKind.allCases) func severalRecordsCommitTogether(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let account = try await store.write { try $0.insert(SampleSchema.accounts, SampleAccount(marketplace: "m1", email: "a@x.io", name: "A")) }
            let (first, second) = try await store.write { tx in
                let a = try tx.insert(SampleSchema.jobs, job(owner: "multi"))
                let b = try tx.insert(SampleSchema.jobs, job(owner: "multi", status: .accepted))
                try tx.update(SampleSchema.accounts, account.id) { $0.name = "A2" }
                try tx.appendEvent(to: "account/\(account.id)", [7])
                return (a, b)
            }
            #expect(try store.get(jobs, ids: [first.id, RecordID.generate(), second.id]).map { $0?.id } == [first.id, nil, second.id])
            #expect(try store.get(accounts, account.id)?.value.name == "A2")
            #expect(try store.events(in: "account/\(account.id)", after: 0).map(\.payload) == [[7]])
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func uniqueIndexIsCaseInsensitiveAndPerMarketplace(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let ann = try await store.write {
                try $0.insert(SampleSchema.accounts, SampleAccount(marketplace: "m1", email: "Ann@Example.com", name: "Ann"))
            }
            await #expect(throws: StoreError.uniqueViolation(index: "accounts.marketplace_email", existing: ann.id)) {
                _ = try await store.write {
                    try $0.insert(SampleSchema.accounts, SampleAccount(marketplace: "m1", email: "ann@example.COM", name: "Other"))
                }
            }
            // Another marketplace may use the same address.
            _ = try await store.write {
                try $0.insert(SampleSchema.accounts, SampleAccount(marketplace: "m2", email: "ann@example.com", name: "Ann2"))
            }
            // Keeping one's own address is not a conflict; changing it frees the old one.
            _ = try await store.write { try $0.update(SampleSchema.accounts, ann.id) { $0.name = "Ann B" } }
            _ = try await store.write { try $0.update(SampleSchema.accounts, ann.id) { $0.email = "ann@new.example" } }
            #expect(try store.get(accounts, unique: SampleSchema.accountsByEmail, ["m1", "ann@example.com"]) == nil)
            #expect(try store.get(accounts, unique: SampleSchema.accountsByEmail, ["m1", "ann@new.example"])?.id == ann.id)
            _ = try await store.write {
                try $0.insert(SampleSchema.accounts, SampleAccount(marketplace: "m1", email: "ann@example.com", name: "New Ann"))
            }
            #expect(try await store.verify().isConsistent)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func damagedValueGivesAClearErrorForThatRecordOnly(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let good = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "x")) }
            let bad = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "x")) }
            let truncated = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "x")) }
            let valid = try #require(try store.rawRecordValue(jobs, bad.id))
            var flipped = valid
            flipped[flipped.count - 3] ^= 0x01
            try await store.setRawRecordValue(jobs, bad.id, flipped)
            try await store.setRawRecordValue(jobs, truncated.id, Array(valid.prefix(12)))

            #expect(try store.get(jobs, good.id)?.id == good.id)
            do {
                _ = try store.get(jobs, bad.id)
                Issue.record("a damaged record was read")
            } catch StoreError.corruptRecord(let table, let id, let reason) {
                #expect(table == "jobs" && id == bad.id)
                #expect(reason.contains("checksum"))
            }
            do {
                _ = try store.get(jobs, truncated.id)
                Issue.record("a truncated record was read")
            } catch StoreError.corruptRecord(_, let id, let reason) {
                #expect(id == truncated.id)
                #expect(reason.contains("truncated"))
            }
            // Inside a transaction too.
            await #expect(throws: StoreError.self) { _ = try await store.write { try $0.get(SampleSchema.jobs, bad.id) } }

            // A value with a valid envelope but a payload the codec rejects.
            let envelope = Envelope(version: 1, createdAt: good.createdAt, updatedAt: good.updatedAt)
            var garbage = envelope.beginValue()
            garbage += [9, 9, 9]
            Envelope.seal(&garbage)
            try await store.setRawRecordValue(jobs, good.id, garbage)
            #expect(throws: StoreError.self) { _ = try store.get(jobs, good.id) }

            let report = try await store.verify()
            #expect(!report.isConsistent)
            let undecodable = report.problems.compactMap { problem -> RecordID? in
                if case .undecodableRecord(_, let id, _) = problem { return id }
                return nil
            }
            #expect(Set(undecodable) == [good.id, bad.id, truncated.id])
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func verificationFindsMissingAndDanglingEntries(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let a = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "a")) }
            let b = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "b")) }
            #expect(try await store.verify().isConsistent)

            try await store.setRawIndexEntries(SampleSchema.jobsByOwner, of: a, present: false)
            var moved = b
            moved.value.owner = "ghost"
            try await store.setRawIndexEntries(SampleSchema.jobsByOwner, of: moved, present: true)

            let report = try await store.verify()
            #expect(report.problemCount == 2)
            #expect(report.problems.contains(.missingIndexEntry(index: "jobs.marketplace_owner", id: a.id)))
            #expect(report.problems.contains(.danglingIndexEntry(index: "jobs.marketplace_owner", id: b.id)))
        }
    }

    /// Verification reads entries and records in batches: problems in any batch, the last partial
    /// one included, are found, and every record and entry is counted once.
    @Test(arguments: StoreEngineKind.allCases) func verificationFindsProblemsPastOneBatch(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            var jobs: [StoredRecord<SampleJob>] = []
            for start in stride(from: 0, to: 300, by: 50) {
                jobs += try await store.write { t in try (start..<start + 50).map { try t.insert(SampleSchema.jobs, job(owner: "owner \($0)")) } }
            }
            let clean = try await store.verify()
            #expect(clean.isConsistent && clean.recordsChecked == 300, "\(clean)")

            try await store.setRawIndexEntries(SampleSchema.jobsByOwner, of: jobs[150], present: false)
            try await store.setRawIndexEntries(SampleSchema.jobsByOwner, of: jobs[299], present: false)
            var moved = jobs[7]
            moved.value.owner = "ghost"
            try await store.setRawIndexEntries(SampleSchema.jobsByOwner, of: moved, present: true)

            let report = try await store.verify()
            #expect(report.recordsChecked == 300 && report.indexEntriesChecked == clean.indexEntriesChecked - 1, "\(report)")
            #expect(report.problemCount == 3, "\(report)")
            #expect(report.problems.contains(.missingIndexEntry(index: "jobs.marketplace_owner", id: jobs[150].id)))
            #expect(report.problems.contains(.missingIndexEntry(index: "jobs.marketplace_owner", id: jobs[299].id)))
            #expect(report.problems.contains(.danglingIndexEntry(index: "jobs.marketplace_owner", id: jobs[7].id)))
        }
    }

    @Test func schemaMustNotRepeatNames() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: StoreError.invalidSchema("table jobs declared twice")) {
            _ = try Store(StoreConfiguration.forTests(directory.path), schema: Schema(SampleSchema.jobs, SampleSchema.jobs))
        }
    }

    @Test func rocksDBErrorsCarryRocksDBsMessage() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store(StoreConfiguration.forTests(directory.path), schema: SampleSchema.schema)
        defer { _ = store }
        do {
            _ = try Store(StoreConfiguration.forTests(directory.path), schema: SampleSchema.schema)
            Issue.record("a second instance opened the same database")
        } catch StoreError.rocksDB(let operation, let message) {
            #expect(operation.contains(directory.path))
            #expect(message.contains("lock"))
        }
    }
}

/// A table whose one index reads the loads only as "any or none", and says so.
private enum LoadedJobs {
    static let withLoads = Index<SampleJob>.nonUnique("loaded_jobs.with_loads") { $0.loads > 0 ? [.string($0.marketplace)] : nil }

    static func table(sameIndexEntries: @escaping @Sendable (SampleJob, SampleJob) -> Bool) -> Table<SampleJob> {
        Table("loaded_jobs", codec: SampleJobCodec(), indexes: [withLoads], sameIndexEntries: sameIndexEntries)
    }

    static func anyOrNone(_ job: SampleJob) -> SampleJob {
        var job = job
        job.loads = job.loads > 0 ? 1 : 0
        return job
    }
}

@Suite struct SameIndexEntriesTests {
    /// Updates 2 → 1 → 0 → 3 → 0 loads and reads the index after each.
    func listedAfterEachUpdate(_ table: Table<SampleJob>) async throws -> (listed: [Bool], consistent: Bool) {
        try await withTemporaryStore(schema: Schema([table.erased])) { store, _ in
            let created = try await store.write { try $0.insert(table, job(loads: 2)) }
            var listed: [Bool] = []
            for loads: Int64 in [1, 0, 3, 0] {
                _ = try await store.write { try $0.updateMaintainedFields(table, created.id) { $0.loads = loads } }
                listed.append(try store.list(table, LoadedJobs.withLoads, IndexRange(prefix: ["m1"])).items.map(\.id) == [created.id])
            }
            return (listed, try await store.verify().isConsistent)
        }
    }

    @Test func aTableThatTellsEqualEntriesKeepsItsIndexesExact() async throws {
        let table = LoadedJobs.table { LoadedJobs.anyOrNone($0) == LoadedJobs.anyOrNone($1) }
        let result = try await listedAfterEachUpdate(table)
        #expect(result.listed == [true, false, true, false])
        #expect(result.consistent)
    }

    @Test func anUpdateTheTableCallsEqualWritesNoIndexEntry() async throws {
        // A table that wrongly calls every pair equal: its entries stay as the insert wrote them,
        // which shows the maintainer skipped the index, and verification finds the damage.
        let result = try await listedAfterEachUpdate(LoadedJobs.table { _, _ in true })
        #expect(result.listed == [true, true, true, true])
        #expect(!result.consistent)
    }
}
