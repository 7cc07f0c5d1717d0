import SoukGRPC
import SoukStore

extension StateMachine {
    /// The scheduler's key of timer `name` of this machine (`Food delivery/offer lapse`).
    public func timerKey(_ name: String) -> String { "\(self.name)/\(name)" }

    /// Arms, re-arms or cancels this machine's timers of resource `id` as `subject` now says.
    func syncTimers(_ id: RecordID, marketplaceID: String, _ subject: Subject, transaction: Transaction) throws {
        guard !timers.isEmpty else { return }
        try transaction.setTimers(of: id, marketplaceID: marketplaceID, timers.map { (timerKey($0.name), $0.due(subject)) })
    }

    /// What the scheduler runs when timer `name` of a record of `table` falls due. A record that
    /// is gone, or whose timer no longer says it is due (changed by a path that did not re-arm
    /// it), is left alone (re-armed when it is due later). Then `run` makes the timer's change,
    /// given the record; a delayed transition (`fires`) without `run` is fired as the server.
    public func timerHandler<Record: LifecycleRecord>(
        _ name: String, in table: Table<Record>,
        run: (@Sendable (StoredRecord<Record>, Transaction) throws -> Void)? = nil
    ) -> TimerHandler where Record.Subject == Subject {
        guard let timer = timers.first(where: { $0.name == name }) else {
            preconditionFailure("\(name) is not a timer of the \(self.name) lifecycle")
        }
        let machine = self
        return TimerHandler(key: timerKey(name)) { id, transaction in
            guard let record = try transaction.get(table, id) else { return }
            guard let due = timer.due(record.value.subject), due <= transaction.now else {
                try machine.syncTimers(id, marketplaceID: record.value.marketplaceID, record.value.subject, transaction: transaction)
                return
            }
            if let run {
                try run(record, transaction)
            } else if let fires = timer.fires {
                try machine.fire(
                    fires, on: id, in: table, marketplaceID: record.value.marketplaceID, by: .system(machine.timerAction(name)),
                    reason: timer.name, transaction: transaction)
            }
        }
    }

    /// The audit action of a timer's firing: `Timer/offer lapse`.
    public func timerAction(_ name: String) -> String { "Timer/\(name)" }
}
