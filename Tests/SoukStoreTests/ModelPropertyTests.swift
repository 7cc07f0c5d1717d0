import PropertyBased
import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

/// Random sequences of creates, updates, deletes and queries, run against the store and against
/// a plain in-memory model: every answer must agree, and verification must find every index in
/// step with its records at the end.
@Suite struct ModelPropertyTests {
    /// A model field value; compared the way the index encoding promises to order it.
    enum Field: Comparable, Sendable, CustomStringConvertible {
        case s(String), i(Int64), e(Int32)

        var keyPart: KeyPart {
            switch self {
            case .s(let v): .string(v)
            case .i(let v): .int(v)
            case .e(let v): .enumCase(v)
            }
        }

        static func < (a: Field, b: Field) -> Bool {
            switch (a, b) {
            case (.s(let x), .s(let y)): Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
            case (.i(let x), .i(let y)): x < y
            case (.e(let x), .e(let y)): x < y
            default: fatalError("mixed field types at one index position")
            }
        }

        var description: String {
            switch self {
            case .s(let v): v
            case .i(let v): "\(v)"
            case .e(let v): "e\(v)"
            }
        }
    }

    struct ModelIndex: Sendable {
        let index: Index<SampleJob>
        let fields: @Sendable (SampleJob) -> [Field]?
    }

    static let indexes = [
        ModelIndex(index: SampleSchema.jobsByStatus) { [.s($0.marketplace), .e($0.status.rawValue)] },
        ModelIndex(index: SampleSchema.jobsByOwner) { [.s($0.marketplace), .s($0.owner)] },
        ModelIndex(index: SampleSchema.jobsByDormStatus) { [.s($0.marketplace), .s($0.dorm), .e($0.status.rawValue)] },
        ModelIndex(index: SampleSchema.jobsByCourier) { job in job.courier.map { [.s(job.marketplace), .s($0)] } },
        ModelIndex(index: SampleSchema.jobsByLoads) { [.s($0.marketplace), .i($0.loads)] },
    ]

    /// Deterministic choices drawn from one generated integer.
    struct Dice {
        var value: UInt64
        init(_ seed: Int) { value = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func roll(_ n: Int) -> Int {
            value ^= value << 13; value ^= value >> 7; value ^= value << 17
            return Int(value % UInt64(n))
        }
        mutating func pick<T>(_ options: [T]) -> T { options[roll(options.count)] }
    }

    static func randomJob(_ dice: inout Dice) -> SampleJob {
        SampleJob(
            marketplace: dice.pick(["m1", "m2"]), dorm: dice.pick(["d0", "d1", "d2"]), owner: dice.pick(["o0", "o1", "o2", "o"]),
            courier: dice.pick([nil, "c0", "c1"]), status: dice.pick(SampleJob.Status.allCases),
            loads: Int64(dice.roll(9) - 3), note: dice.pick(["", "x", "note\u{0}with nul"]))
    }

    @Test(.timeLimit(.minutes(3)), arguments: StoreEngineKind.allCases)
    func storeAgreesWithModel(engine: StoreEngineKind) async {
        await propertyCheck(count: 25, input: Gen.int(in: 0 ... Int.max).array(of: 10...90)) { operations in
            do {
                try await run(operations, on: engine)
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    private func run(_ operations: [Int], on engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            var jobs = [RecordID: StoredRecord<SampleJob>]()
            var accounts = [RecordID: SampleAccount]()
            var order = [RecordID]()  // creation order, to pick existing records deterministically

            for operation in operations {
                var dice = Dice(operation)
                switch dice.roll(10) {
                case 0, 1, 2:
                    let value = Self.randomJob(&dice)
                    let record = try await store.write { try $0.insert(SampleSchema.jobs, value) }
                    #expect(record.version == 1 && record.value == value)
                    jobs[record.id] = record
                    order.append(record.id)
                case 3, 4:
                    guard !order.isEmpty else { continue }
                    let id = dice.pick(order)
                    let value = Self.randomJob(&dice)
                    guard let current = jobs[id] else {
                        await #expect(throws: StoreError.notFound(table: "jobs", id: id)) {
                            _ = try await store.write { try $0.update(SampleSchema.jobs, id) { $0 = value } }
                        }
                        continue
                    }
                    if dice.roll(4) == 0 {
                        let stale = current.version + 1
                        await #expect(throws: StoreError.versionMismatch(table: "jobs", id: id, expected: stale, actual: current.version)) {
                            _ = try await store.write { try $0.update(SampleSchema.jobs, id, expectedVersion: stale) { $0 = value } }
                        }
                    } else {
                        let updated = try await store.write {
                            try $0.update(SampleSchema.jobs, id, expectedVersion: current.version) { $0 = value }
                        }
                        #expect(updated.version == current.version + 1 && updated.value == value)
                        jobs[id] = updated
                    }
                case 5:
                    guard !order.isEmpty else { continue }
                    let id = dice.pick(order)
                    if jobs[id] != nil {
                        _ = try await store.write { try $0.delete(SampleSchema.jobs, id) }
                        jobs[id] = nil
                    } else {
                        await #expect(throws: StoreError.notFound(table: "jobs", id: id)) {
                            _ = try await store.write { try $0.delete(SampleSchema.jobs, id) }
                        }
                    }
                case 6, 7:
                    try checkQuery(store, jobs: jobs, dice: &dice)
                case 8:
                    let account = SampleAccount(
                        marketplace: dice.pick(["m1", "m2"]), email: dice.pick(["a@x.io", "A@X.io", "b@x.io", "c@x.io"]), name: "n")
                    let owner = accounts.first {
                        $0.value.marketplace == account.marketplace && $0.value.email.lowercased() == account.email.lowercased()
                    }
                    if dice.roll(2) == 0, let target = accounts.keys.sorted().first {
                        // Change the e-mail of an existing account.
                        if let owner, owner.key != target {
                            await #expect(throws: StoreError.uniqueViolation(index: "accounts.marketplace_email", existing: owner.key)) {
                                _ = try await store.write { try $0.update(SampleSchema.accounts, target) { $0 = account } }
                            }
                        } else {
                            _ = try await store.write { try $0.update(SampleSchema.accounts, target) { $0 = account } }
                            accounts[target] = account
                        }
                    } else if let owner {
                        await #expect(throws: StoreError.uniqueViolation(index: "accounts.marketplace_email", existing: owner.key)) {
                            _ = try await store.write { try $0.insert(SampleSchema.accounts, account) }
                        }
                    } else {
                        let record = try await store.write { try $0.insert(SampleSchema.accounts, account) }
                        accounts[record.id] = account
                    }
                default:
                    let id = order.isEmpty || dice.roll(4) == 0 ? RecordID.generate() : dice.pick(order)
                    #expect(try store.get(SampleSchema.jobs, id) == jobs[id])
                }
            }

            // Every index, in full, in both directions.
            for modelIndex in Self.indexes {
                for direction in [ScanDirection.ascending, .descending] {
                    let listed = try listAll(store, SampleSchema.jobs, modelIndex.index, IndexRange(), direction: direction, pageSize: 7)
                    let expected = Self.expected(jobs, modelIndex, prefix: [], lower: nil, upper: nil, direction: direction)
                    #expect(listed.map(\.id) == expected, "\(modelIndex.index.name) \(direction)")
                }
            }
            for (id, account) in accounts {
                let key: [KeyPart] = [.string(account.marketplace), .string(account.email.lowercased())]
                #expect(try store.get(SampleSchema.accounts, unique: SampleSchema.accountsByEmail, key)?.id == id)
            }
            let report = try await store.verify()
            #expect(report.isConsistent, "\(report)")
            #expect(report.recordsChecked == jobs.count + accounts.count)
        }
    }

    /// One random list query, all pages, compared with the model.
    private func checkQuery(_ store: Store, jobs: [RecordID: StoredRecord<SampleJob>], dice: inout Dice) throws {
        let modelIndex = dice.pick(Self.indexes)
        // A prefix taken from a random job's entry (or a made-up one), cut to a random length.
        let sample = jobs.values.sorted { $0.id < $1.id }.compactMap { modelIndex.fields($0.value) }
        var fields = sample.isEmpty || dice.roll(5) == 0 ? [.s(dice.pick(["m1", "m2", "m3"]))] : dice.pick(sample)
        fields = Array(fields.prefix(dice.roll(fields.count + 1)))
        let fullLength = modelIndex.fields(Self.randomJob(&dice)) ?? [.s("m1"), .s("c0")]
        var lower: (Field, Bool)? = nil
        var upper: (Field, Bool)? = nil
        if fields.count < fullLength.count, dice.roll(2) == 0 {
            // Bounds on the field after the prefix, of that field's type, from other jobs' values.
            let values = sample.filter { $0.starts(with: fields) }.map { $0[fields.count] }
            if let a = values.isEmpty ? nil : dice.pick(values) { lower = (a, dice.roll(2) == 0) }
            if let b = values.isEmpty ? nil : dice.pick(values), dice.roll(2) == 0 { upper = (b, dice.roll(2) == 0) }
        }
        let direction: ScanDirection = dice.roll(2) == 0 ? .ascending : .descending
        let range = IndexRange(
            prefix: fields.map(\.keyPart),
            lower: lower.map { RangeBound([$0.0.keyPart], inclusive: $0.1) },
            upper: upper.map { RangeBound([$0.0.keyPart], inclusive: $0.1) })
        let listed = try listAll(store, SampleSchema.jobs, modelIndex.index, range, direction: direction, pageSize: 1 + dice.roll(6))
        let expected = Self.expected(jobs, modelIndex, prefix: fields, lower: lower, upper: upper, direction: direction)
        #expect(listed.map(\.id) == expected, "\(modelIndex.index.name) \(fields) \(String(describing: lower)) \(String(describing: upper))")
        #expect(listed.allSatisfy { jobs[$0.id] == $0 })
    }

    static func expected(
        _ jobs: [RecordID: StoredRecord<SampleJob>], _ modelIndex: ModelIndex, prefix: [Field],
        lower: (Field, Bool)?, upper: (Field, Bool)?, direction: ScanDirection
    ) -> [RecordID] {
        let matching = jobs.values.compactMap { record -> ([Field], RecordID)? in
            guard let fields = modelIndex.fields(record.value), fields.starts(with: prefix) else { return nil }
            if let (bound, inclusive) = lower, fields.count > prefix.count {
                let value = fields[prefix.count]
                if value < bound || (!inclusive && value == bound) { return nil }
            }
            if let (bound, inclusive) = upper, fields.count > prefix.count {
                let value = fields[prefix.count]
                if bound < value || (!inclusive && value == bound) { return nil }
            }
            return (fields, record.id)
        }
        let sorted = matching.sorted { a, b in
            a.0 == b.0 ? a.1 < b.1 : a.0.lexicographicallyPrecedes(b.0)
        }.map(\.1)
        return direction == .ascending ? sorted : sorted.reversed()
    }
}
