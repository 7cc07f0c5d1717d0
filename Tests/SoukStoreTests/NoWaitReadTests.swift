@testable import SoukStore
import SoukStoreFixtures
import SoukTesting
import Testing

/// `Transaction.getUnlessLocked`: a record another transaction holds is passed over at once,
/// not waited for; a free one is read and locked like `get`.
@Suite struct NoWaitReadTests {
    @Test func aRecordAnotherTransactionHoldsIsPassedOverAtOnce() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            let held = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 1)) }.id
            let free = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 2)) }.id
            let (_, (whileHeld, other, absent)) = try await whileWriteIsOpen(store) { transaction in
                _ = try transaction.update(SampleSchema.jobs, held) { $0.loads = 10 }
            } meanwhile: {
                try await store.write { transaction in
                    (try transaction.getUnlessLocked(SampleSchema.jobs, held), try transaction.getUnlessLocked(SampleSchema.jobs, free),
                     try transaction.getUnlessLocked(SampleSchema.jobs, RecordID.generate()))
                }
            }
            guard case .lockedByAnother = whileHeld else { Issue.record("a held record was read: \(whileHeld)"); return }
            guard case .read(let record?) = other else { Issue.record("a free record was not read"); return }
            #expect(record.value.loads == 2)
            guard case .read(nil) = absent else { Issue.record("a missing record was not read as absent"); return }
            // Once the holder committed, the record is read with its change.
            let after = try await store.write { try $0.getUnlessLocked(SampleSchema.jobs, held) }
            guard case .read(let changed?) = after else { Issue.record("the released record was not read"); return }
            #expect(changed.value.loads == 10)
        }
    }
}

/// `RocksTransaction.put(_:_:locking: false)`: the write takes no lock (another transaction locks the key at
/// once), is read back by its own transaction, and commits with the transaction's other writes.
@Suite struct UnlockedWriteTests {
    @Test func anUnlockedWriteLeavesTheKeyFreeAndCommitsWithTheTransaction() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            let (key, locked) = (Array("test-unlocked-key".utf8), Array("test-locked-key".utf8))
            let writer = RocksTransaction(store.database)
            try writer.put(key, [1], locking: false)
            try writer.put(locked, [2])
            #expect(try writer.get(key) { $0.map(Array.init) } == [1])

            let other = RocksTransaction(store.database)
            guard case .read(let seen) = try other.getForUpdateUnlessLocked(key, { $0.map(Array.init) }) else {
                Issue.record("an unlocked write locked its key"); return
            }
            #expect(seen == nil, "another transaction saw an uncommitted write")
            guard case .lockedByAnother = try other.getForUpdateUnlessLocked(locked, { _ in () }) else {
                Issue.record("a locked write left its key free"); return
            }
            other.rollback()

            try writer.commit()
            #expect(try store.database.get(key) { $0.map(Array.init) } == [1])
            #expect(try store.database.get(locked) { $0.map(Array.init) } == [2])

            let deleter = RocksTransaction(store.database)
            try deleter.delete(key, locking: false)
            try deleter.commit()
            #expect(try store.database.get(key) { $0.map(Array.init) } == nil)
        }
    }
}
