import Foundation
import SoukDemo
import SoukIdentity
import SoukKit
import SoukMessages
import SoukReports
import SoukStore
import SoukTesting
import Testing

@testable import SoukServer

/// The server's one list of domains: the schema it mounts is every listed domain's tables, each
/// table with one owner; every domain is listed after the domains it builds on; and everything
/// the domains write at start and with their demo data goes to tables of that schema (the store
/// refuses a write to any other).
@Suite struct DomainsTests {
    @Test func everyDomainIsListedAfterTheDomainsItBuildsOn() throws {
        try Domains.all.checkMountOrder()
        #expect(throws: DomainListError.self) { try [any SoukDomain.Type](Domains.all.reversed()).checkMountOrder() }
    }

    @Test func everyTableHasOneOwner() {
        var owners: [String: String] = [:]
        for domain in Domains.all {
            for table in domain.tables {
                #expect(owners[table.name] == nil, "\(table.name) is declared by \(owners[table.name] ?? "") and \(domain)")
                owners[table.name] = "\(domain)"
            }
        }
        let kit = Set(KitTables.all.map(\.name))
        #expect(kit.isDisjoint(with: owners.keys), "a domain declares a table of the kit")
        #expect(Set(SoukSchema.schema.tables.map(\.name)) == kit.union(owners.keys))
    }

    /// Mounts every listed domain over a store opened with the server's schema, as `serve` does,
    /// and loads the demo data: a domain writing to a table it did not declare (or that a domain
    /// it builds on did not) fails here.
    @Test func theListedDomainsWriteOnlyToTheSchemasTables() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var configuration = StoreConfiguration.forTests(directory.sub("db"))
        configuration.logger = DomainHarness.quietLogger
        let store = try Store(configuration, schema: SoukSchema.schema)
        let (domains, demo) = try await mountEveryDomainWithDemoAccounts(store)
        #expect(domains.map { ObjectIdentifier(type(of: $0)) } == Domains.all.map { ObjectIdentifier($0) })
        #expect(demo.marketplaces.count == 5)
        for domain in domains { try await domain.loadDemo(demo) }
        await store.close()
    }

    /// The dashboards' totals the demo data added as it was made equal a recount of its records
    /// (the rebuild a store without totals gets at start, which replays every owner's records).
    /// Sign-ins are not records: the active accounts are left out. (Orders, payments and bills
    /// are recounted end to end: Tests/e2e/test_dashboards.py restarts its server with
    /// `--rebuild-report-totals`.)
    @Test func theDashboardTotalsEqualARecountOfTheDemoData() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var configuration = StoreConfiguration.forTests(directory.sub("db"))
        configuration.logger = DomainHarness.quietLogger
        let store = try Store(configuration, schema: SoukSchema.schema)
        let (context, domains) = try mountEveryDomain(store)
        let reports = try context.require(Reports.self)
        #expect(try await reports.rebuildIfNeeded() == 0)
        #expect(try await reports.rebuildIfNeeded() == nil)
        let demo = try await demoAccounts(context)
        for domain in domains { try await domain.loadDemo(demo) }
        func comparable(_ totals: [String: SoukStoreV1.ReportDay]) -> [String: SoukStoreV1.ReportDay] {
            totals.mapValues { day in
                var day = day
                day.activeAccounts = 0
                day.ordersByStatus = day.ordersByStatus.filter { $0.count != 0 }.sorted { $0.status.rawValue < $1.status.rawValue }
                day.payments = day.payments.filter { $0.count != 0 }.sorted { ($0.method.rawValue, $0.status.rawValue) < ($1.method.rawValue, $1.status.rawValue) }
                day.methods = day.methods.sorted { $0.method.rawValue < $1.method.rawValue }
                return day
            }.filter { $0.value != SoukStoreV1.ReportDay(kind: $0.value.kind, day: $0.value.day) }
        }
        let live = comparable(try reports.totals())
        #expect(live.values.contains { $0.newAccounts > 0 })
        #expect(try await reports.rebuild() > 0)
        let recounted = comparable(try reports.totals())
        #expect(Set(recounted.keys) == Set(live.keys))
        for (key, day) in live where recounted[key] != day {
            Issue.record("\(key): kept \(day), recounted \(String(describing: recounted[key]))")
        }
        await store.close()
    }
}

/// Mounts every listed domain over `store`, as `serve` does.
func mountEveryDomain(_ store: Store) throws -> (context: DomainContext, domains: [any SoukDomain]) {
    let context = DomainContext(store: store)
    var identityConfiguration = IdentityConfiguration()
    identityConfiguration.passwordHashMemoryKiB = 64
    identityConfiguration.logger = DomainHarness.quietLogger
    context.provide(identityConfiguration)
    return (context, try context.mount(Domains.all))
}

/// Loads the demo marketplaces and accounts; the domains' own demo data is the caller's to load.
func demoAccounts(_ context: DomainContext) async throws -> DemoContext {
    let loader = DemoLoader(identity: try context.require(Identity.self), logger: DomainHarness.quietLogger)
    return try loader.context(try await loader.load())
}

/// `mountEveryDomain`, then `demoAccounts`.
func mountEveryDomainWithDemoAccounts(_ store: Store) async throws -> (domains: [any SoukDomain], demo: DemoContext) {
    let (context, domains) = try mountEveryDomain(store)
    return (domains, try await demoAccounts(context))
}
