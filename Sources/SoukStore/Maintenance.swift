extension Store {
    /// Background housekeeping until the calling task is cancelled or the store closes: every
    /// `interval`, removes expired idempotency records and events past retention.
    public func runMaintenance(every interval: Duration = .seconds(300)) async {
        while !Task.isCancelled {
            do {
                let keys = try await purgeExpiredIdempotencyRecords()
                let events = try await purgeExpiredEvents()
                if keys + events > 0 {
                    logger.info("expired data removed", metadata: ["idempotency": "\(keys)", "events": "\(events)"])
                }
            } catch StoreError.closed {
                return
            } catch {
                logger.error("maintenance failed", metadata: ["error": "\(error)"])
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }
}
