import SoukStore

/// The timers armed on one resource, stored under the resource's id: each by its key (the
/// machine's name and the timer's, `Food delivery/offer lapse`) with the time it falls due.
package struct ArmedTimers: Sendable, Equatable {
    package var marketplaceID: String
    package var timers: [ArmedTimer]
}

/// One armed timer.
package struct ArmedTimer: Sendable, Equatable {
    package var key: String
    package var due: StoreTime
}

/// The due timers of every lifecycle, indexed by the time they fall due: what the scheduler
/// reads, so a timer that fell due while the server was down fires at its next start.
package enum TimerTable {
    package static let byDue = Index<ArmedTimers>.nonUnique("lifecycle_timers.due", keys: { record in
        record.timers.map { [.time($0.due), .string($0.key)] }
    })

    package static let table = Table(
        "lifecycle_timers",
        codec: FieldCodec<ArmedTimers>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.list(value.timers) { writer, timer in
                    writer.string(timer.key)
                    writer.time(timer.due)
                }
            },
            read: { reader in
                ArmedTimers(
                    marketplaceID: try reader.string(),
                    timers: try reader.list { reader in ArmedTimer(key: try reader.string(), due: try reader.time()) })
            }),
        indexes: [byDue])
}

extension Transaction {
    /// Arms the timers of resource `id` that `wanted` gives a time for (re-arming one whose time
    /// changed) and cancels those it gives none for; timers of other keys stay as they are.
    /// Writes nothing when nothing changes.
    package func setTimers(of id: RecordID, marketplaceID: String, _ wanted: [(key: String, due: StoreTime?)]) throws {
        let stored = try get(TimerTable.table, id)
        let keys = Set(wanted.map(\.key))
        var timers = (stored?.value.timers ?? []).filter { !keys.contains($0.key) }
        timers += wanted.compactMap { timer in timer.due.map { ArmedTimer(key: timer.key, due: $0) } }
        timers.sort { ($0.due, $0.key) < ($1.due, $1.key) }
        switch (stored, timers.isEmpty) {
        case (nil, true): return
        case (let stored?, true): _ = try delete(TimerTable.table, stored.id)
        case (nil, false): _ = try insert(TimerTable.table, ArmedTimers(marketplaceID: marketplaceID, timers: timers), id: id)
        case (let stored?, false):
            guard stored.value.timers != timers else { return }
            _ = try update(TimerTable.table, id) { $0.timers = timers }
        }
    }
}
