import Logging

extension Store {
    /// Opens the store over a replicated key-value engine (etcd; `MemoryKeyValueEngine` in tests)
    /// for the tables of `schema`, with the same key layout and the same layers as on RocksDB;
    /// transactions are optimistic (see `OptimisticEngine` and this module's README).
    ///
    /// `configuration.path` is only where the schema's file folders live (for `verify`); the
    /// RocksDB settings do not apply. Backups, checkpoints, restore, `compact`, `flush` and
    /// `statistics` are RocksDB's and throw `.engine` here: the engine has its own tools.
    ///
    /// Events that another store (another server node) appends on the same engine reach this
    /// store's followers through a watch of the event logs, from the revision the store opened at.
    public convenience init(engine keyValues: some KeyValueEngine, configuration: StoreConfiguration, schema: Schema) throws {
        let engine = OptimisticEngine(keyValues)
        // The revision the store opens at: the watch starts right after it.
        let opened = try engine.latestRevision()
        try self.init(opened: engine, configuration: configuration, schema: schema)
        engine.startRememberingEventCommits()
        try watchEvents(of: engine, after: opened)
    }

    /// Watches the event logs (`E | stream | sequence` keys) after `revision` and hands the events
    /// other stores commit to the notifier; this store's own commits told it already.
    private func watchEvents(of engine: OptimisticEngine, after revision: EngineRevision) throws {
        let watch = try engine.keyValues.watch(
            prefix: [KeySpace.event], after: revision,
            onChanges: { [weak self] changes in self?.announce(changes, of: engine) },
            onFailure: { [weak self] error in self?.rewatchEvents(of: engine, after: error) })
        let stale = eventWatch.withLock { current -> (any EngineWatch)? in
            defer { current = watch }
            return current
        }
        stale?.cancel()
        if isClosed { watch.cancel() }
    }

    /// The watch ended (its revision was compacted, or the engine dropped it): watch again from
    /// now. Followers woken later read the log, so a missed wake costs latency, not events.
    private func rewatchEvents(of engine: OptimisticEngine, after error: StoreError) {
        guard !isClosed else { return }
        logger.warning("event watch ended; watching again from the latest revision", metadata: ["error": "\(error)"])
        do {
            let latest = try engine.latestRevision()
            try watchEvents(of: engine, after: latest)
        } catch {
            logger.error("cannot watch the event logs; events of other nodes wake no follower here", metadata: ["error": "\(error)"])
        }
    }

    private func announce(_ changes: [EngineChange], of engine: OptimisticEngine) {
        var events = [StoredEvent]()
        var skipped = Set<EngineRevision>()
        var taken = Set<EngineRevision>()
        for change in changes {
            guard let value = change.value else { continue }  // retention deleting events
            if skipped.contains(change.modRevision) { continue }
            if !taken.contains(change.modRevision) {
                if engine.takeOwnCommit(change.modRevision) {
                    skipped.insert(change.modRevision)
                    continue
                }
                taken.insert(change.modRevision)
            }
            guard let stream = EventKeys.stream(ofEventKey: change.key) else { continue }
            do {
                let event = try change.key.withUnsafeBytes { key in
                    try value.withUnsafeBytes { try EventKeys.decode(stream: stream, key: key, value: $0) }
                }
                events.append(event)
            } catch {
                logger.warning("unreadable event in the watch", metadata: ["stream": "\(stream)", "error": "\(error)"])
            }
        }
        if !events.isEmpty { notifier.notify(events) }
    }
}

extension EventKeys {
    /// The stream an event key (`E | stream | sequence(8)`) belongs to.
    static func stream(ofEventKey key: [UInt8]) -> String? {
        guard key.first == KeySpace.event, key.count >= 11 else { return nil }
        var name = [UInt8]()
        var index = 1
        let end = key.count - 8
        while index < end {
            let byte = key[index]
            if byte == 0 {
                guard index + 1 < end else { return nil }
                if key[index + 1] == 1 { return index + 2 == end ? String(decoding: name, as: UTF8.self) : nil }
                guard key[index + 1] == 0xFF else { return nil }
                name.append(0)
                index += 2
            } else {
                name.append(byte)
                index += 1
            }
        }
        return nil
    }
}

extension Store {
    /// Watches the records of one table from now on and tells the table's commit observers which
    /// records other stores (other nodes) changed; this store's own commits told them already.
    func watchRecords(of table: String, prefix: [UInt8], on engine: OptimisticEngine) {
        engine.startRememberingCommits()
        do {
            let latest = try engine.latestRevision()
            let watch = try engine.keyValues.watch(
                prefix: prefix, after: latest,
                onChanges: { [weak self] changes in
                    guard let self else { return }
                    let ids = changes.filter { !engine.isOwnCommit($0.modRevision) }.compactMap { change in
                        change.key.withUnsafeBytes { KeySpace.trailingID(of: $0) }
                    }
                    guard !ids.isEmpty else { return }
                    for observer in self.commitObservers.withLock({ $0[table] ?? [] }) { observer(.records(ids)) }
                },
                onFailure: { [weak self] error in
                    guard let self, !self.isClosed else { return }
                    self.logger.warning("record watch ended; watching again from the latest revision",
                                        metadata: ["table": "\(table)", "error": "\(error)"])
                    // Watching again first: a change made after the observers forget is then told too.
                    self.watchRecords(of: table, prefix: prefix, on: engine)
                    for observer in self.commitObservers.withLock({ $0[table] ?? [] }) { observer(.unknown) }
                })
            recordWatches.withLock { $0.append(watch) }
            if isClosed { watch.cancel() }
        } catch {
            logger.error("cannot watch records; other nodes' changes do not reach this node's caches",
                         metadata: ["table": "\(table)", "error": "\(error)"])
        }
    }
}
