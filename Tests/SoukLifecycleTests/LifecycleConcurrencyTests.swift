import SoukFood
import SoukOrders
import SoukShops
import SoukKit
import SoukMessages
import SoukStore
import Testing

/// Two callers fire the same transition from the same state at the same time.
@Suite struct LifecycleConcurrencyTests {
    /// Fires `approve` twice at once on each of many pending orders, with and without the version
    /// the callers read: exactly one wins, the other gets FAILED_PRECONDITION (it saw the new
    /// state) or ABORTED (its version went stale), and only the winner is recorded.
    @Test(arguments: [false, true])
    func exactlyOneOfTwoConcurrentFiringsWins(withVersion: Bool) async throws {
        try await withLifecycleStore { store in
            let machine = OrderLifecycles.waterServices
            for _ in 0 ..< 25 {
                let value = TestRecord(marketplaceID: Accounts.marketplace, subject: SoukStoreV1.Order(status: .pending))
                let order = try await store.write { try machine.create(value, in: TestTables.orders, by: .system("Test"), transaction: $0) }
                let admins = [Accounts.actor(.admin, Accounts.all[1]), Accounts.actor(.operator, Accounts.all[2])]
                let results = await withTaskGroup(of: Result<UInt64, any Error>.self) { group in
                    for admin in admins {
                        group.addTask {
                            do {
                                let record = try await store.write { transaction in
                                    try machine.fire(
                                        .approve, on: order.id, in: TestTables.orders, marketplaceID: Accounts.marketplace, by: admin,
                                        expectedVersion: withVersion ? order.version : nil, transaction: transaction)
                                }
                                return .success(record.version)
                            } catch {
                                return .failure(error)
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let winners = results.compactMap { try? $0.get() }
                let losers = results.compactMap { result -> Refusal? in
                    if case .failure(let error) = result { return Refusal(error) }
                    return nil
                }
                #expect(winners == [2])
                #expect(losers.count == 1)
                #expect(losers.allSatisfy { $0 == Refusal(code: .failedPrecondition, reason: .invalidTransition) || $0.code == .aborted })
                let history = try store.transitions(of: order.id, marketplaceID: Accounts.marketplace, page: PageRequest())
                #expect(history.entries.map(\.toState) == ["ORDER_STATUS_PENDING", "ORDER_STATUS_APPROVED"])
                #expect(try store.lastSequence(of: lifecycleStream(.order, order.id)) == 2)
            }
        }
    }
}
