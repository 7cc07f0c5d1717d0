/// One inconsistency found by `Store.verify`.
public enum VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The stored value is truncated, damaged, or rejected by the codec.
    case undecodableRecord(table: String, id: RecordID, reason: String)
    /// The record should have this index entry but it is absent (or a unique entry names another record).
    case missingIndexEntry(index: String, id: RecordID)
    /// An index entry points to a record that does not exist or no longer produces that entry.
    case danglingIndexEntry(index: String, id: RecordID)
    /// A key inside an index or table range that cannot be parsed.
    case malformedKey(area: String, bytes: Int)
    /// A record names a file (of a file folder) that is not there.
    case missingFile(table: String, id: RecordID, path: String)
    /// A file of a file folder does not hold the content its name says.
    case damagedFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .undecodableRecord(let table, let id, let reason): "\(table)/\(id): undecodable record: \(reason)"
        case .missingIndexEntry(let index, let id): "\(index): missing entry for record \(id)"
        case .danglingIndexEntry(let index, let id): "\(index): entry for record \(id), which does not exist or no longer has it"
        case .malformedKey(let area, let bytes): "\(area): malformed key of \(bytes) bytes"
        case .missingFile(let table, let id, let path): "\(table)/\(id): its file \(path) is missing"
        case .damagedFile(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// What `Store.verify` found.
public struct VerificationReport: Sendable, Equatable, CustomStringConvertible {
    public var recordsChecked = 0
    public var indexEntriesChecked = 0
    /// Files of the schema's file folders whose content was checked against their names.
    public var filesChecked = 0
    /// Indexes not checked because they are not built yet: the store is not consistent until
    /// `build-index` has built them.
    public var skippedIndexes: [String] = []
    /// The first `problemLimit` problems found.
    public var problems: [VerificationProblem] = []
    /// How many problems there were in total.
    public var problemCount = 0

    public var isConsistent: Bool { problemCount == 0 && skippedIndexes.isEmpty }

    mutating func report(_ problem: VerificationProblem, limit: Int) {
        problemCount += 1
        if problems.count < limit { problems.append(problem) }
    }

    public var description: String {
        var verdict = [String]()
        if problemCount > 0 { verdict.append("\(problemCount) problem(s)") }
        if !skippedIndexes.isEmpty { verdict.append("\(skippedIndexes.count) index(es) not built") }
        var lines = ["checked \(recordsChecked) records, \(indexEntriesChecked) index entries and \(filesChecked) files: "
            + (verdict.isEmpty ? "consistent" : "NOT consistent: " + verdict.joined(separator: ", "))]
        if !skippedIndexes.isEmpty {
            lines.append("not built, so not checked (run store build-index): " + skippedIndexes.joined(separator: ", "))
        }
        lines += problems.map { "  " + $0.description }
        if problemCount > problems.count { lines.append("  … and \(problemCount - problems.count) more") }
        return lines.joined(separator: "\n")
    }
}

extension Store {
    /// Walks every table and index of the schema in one consistent snapshot and reports index
    /// entries without a record, records without an index entry, undecodable records, records
    /// whose file is missing, and files of the file folders whose content does not match their
    /// name. Indexes not built yet make the store inconsistent (they are listed, not checked).
    ///
    /// Reads everything once (plus one point read per record and per entry): run it from the
    /// maintenance command, not on a request path.
    public func verify(problemLimit: Int = 1_000) async throws -> VerificationReport {
        try await runOnWriter { try self.guarded { try self.verifySnapshot(problemLimit: problemLimit) } }
    }

    /// Point reads of verification sent to the engine at once: a replicated engine answers a
    /// batch in one request instead of one round trip per key (etcd: one Txn of ranges), RocksDB
    /// in one MultiGet. Small enough that a batch of records stays far below a response's size limit.
    static let verificationBatch = 128

    private func verifySnapshot(problemLimit: Int) throws -> VerificationReport {
        let snapshot = engine.snapshot()
        var report = VerificationReport()

        /// Reads the keys of `batch` at the snapshot and hands each key's value (nil: absent) to `check`.
        func readBatch<Item>(_ batch: inout [Item], key: (Item) -> [UInt8], _ check: (Item, UnsafeRawBufferPointer?) throws -> Void) throws {
            guard !batch.isEmpty else { return }
            var flat = [UInt8]()
            var sizes = [Int]()
            sizes.reserveCapacity(batch.count)
            for item in batch {
                let bytes = key(item)
                flat += bytes
                sizes.append(bytes.count)
            }
            let items = batch
            try engine.readMany(flat: flat, sizes: sizes, in: snapshot) { i, bytes in try check(items[i], bytes) }
            batch.removeAll(keepingCapacity: true)
        }

        for table in schema.tables {
            let checked = table.indexes.map { indexStatus[$0.name]?.isReady ?? false }
            report.skippedIndexes += zip(table.indexes, checked).filter { !$0.1 }.map(\.0.name)

            // Records → their entries: each entry a record produces must be stored with its value.
            var expected: [(key: [UInt8], value: [UInt8], index: String, id: RecordID)] = []
            func checkExpected() throws {
                try readBatch(&expected, key: \.key) { entry, bytes in
                    if !(bytes.map { $0.elementsEqual(entry.value) } ?? false) {
                        report.report(.missingIndexEntry(index: entry.index, id: entry.id), limit: problemLimit)
                    }
                }
            }
            let records = engine.iterator(lower: table.recordPrefix, upper: KeySpace.upperBound(ofPrefix: table.recordPrefix), in: snapshot)
            records.seekToFirst()
            while records.isValid {
                let key = records.keyBuffer
                report.recordsChecked += 1
                if key.count != table.recordPrefix.count + 16 {
                    report.report(.malformedKey(area: "table \(table.name)", bytes: key.count), limit: problemLimit)
                } else if let id = KeySpace.trailingID(of: key) {
                    do {
                        let entries = try table.entriesForValue(id, records.valueBuffer)
                        for path in try table.filesForValue?(id, records.valueBuffer) ?? []
                        where !FileSystem.exists(configuration.path + "/" + path) {
                            report.report(.missingFile(table: table.name, id: id, path: path), limit: problemLimit)
                        }
                        for (position, indexEntries) in entries.enumerated() where checked[position] {
                            for entry in indexEntries {
                                expected.append((Array(entry.key), Array(entry.value), table.indexes[position].name, id))
                            }
                        }
                    } catch let error as StoreError {
                        guard case .corruptRecord(_, _, let reason) = error else { throw error }
                        report.report(.undecodableRecord(table: table.name, id: id, reason: reason), limit: problemLimit)
                    }
                }
                if expected.count >= Self.verificationBatch { try checkExpected() }
                records.next()
            }
            try records.checkError()
            try checkExpected()

            // Entries → their records: the record an entry names must exist and still produce it.
            for (position, index) in table.indexes.enumerated() where checked[position] {
                var found: [(key: [UInt8], id: RecordID)] = []
                func checkFound() throws {
                    try readBatch(&found, key: { table.recordKey($0.id) }) { entry, bytes in
                        let stillProduced: Bool
                        if let bytes {
                            // An undecodable record was reported above; do not report its entries twice.
                            if let entries = try? table.entriesForValueInIndex(position, entry.id, bytes) {
                                stillProduced = entries.contains { $0.key == entry.key }
                            } else {
                                stillProduced = true
                            }
                        } else {
                            stillProduced = false
                        }
                        if !stillProduced { report.report(.danglingIndexEntry(index: index.name, id: entry.id), limit: problemLimit) }
                    }
                }
                let prefix = table.indexPrefixes[position]
                let entries = engine.iterator(lower: prefix, upper: KeySpace.upperBound(ofPrefix: prefix), in: snapshot)
                entries.seekToFirst()
                while entries.isValid {
                    report.indexEntriesChecked += 1
                    let key = Array(entries.keyBuffer)
                    let id = index.kind == .unique ? RecordID(bytes: entries.valueBuffer)
                        : KeySpace.trailingID(of: entries.keyBuffer)
                    if let id {
                        found.append((key, id))
                        if found.count >= Self.verificationBatch { try checkFound() }
                    } else {
                        report.report(.malformedKey(area: "index \(index.name)", bytes: key.count), limit: problemLimit)
                    }
                    entries.next()
                }
                try entries.checkError()
                try checkFound()
            }
        }

        // Files → their names.
        for folder in schema.fileFolders {
            for file in try FileSystem.files(under: configuration.path + "/" + folder) {
                report.filesChecked += 1
                let path = configuration.path + "/" + folder + "/" + file.path
                if let reason = try ContentAddress.mismatch(file: path, pathInFolder: file.path) {
                    report.report(.damagedFile(path: folder + "/" + file.path, reason: reason), limit: problemLimit)
                }
            }
        }
        return report
    }
}
