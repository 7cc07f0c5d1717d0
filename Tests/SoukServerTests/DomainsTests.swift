import Foundation
import SoukCommerce
import SoukLaundry
import SoukRentals
import SoukIdentity
import SoukKit
import SoukMedia
import SoukNotifications
import SoukPayments
import SoukStore
import SoukTesting
import Testing
@testable import SoukServer

/// The server's one list of domains: every table declared anywhere in Sources is in the schema,
/// and the domains it makes are exactly the listed types.
@Suite struct DomainsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The names of the tables the sources declare (`Table(\n "name", …`).
    static func declaredTableNames() throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"\bTable\(\s*"([a-z0-9_.]+)""#)
        var names = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", !file.path.contains("/SoukStore/") else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    @Test func everyDeclaredTableIsInTheSchema() throws {
        let declared = try Self.declaredTableNames()
        #expect(declared.count >= 8, "the scan found \(declared.sorted())")  // identity's tables and the kit's at least
        let inSchema = Set(SoukSchema.schema.tables.map(\.name))
        #expect(declared.subtracting(inSchema).isEmpty, "tables missing from a domain's `tables`: \(declared.subtracting(inSchema).sorted())")
    }

    @Test func theServerMakesExactlyTheListedDomains() throws {
        let harness = try DomainHarness()
        let media = try Media(store: harness.store)
        let made = Domains.make(
            identity: harness.identity, media: media, payments: Payments(store: harness.store), notifications: Notifications(store: harness.store), commerce: Commerce(store: harness.store), laundry: Laundry(store: harness.store), rentals: Rentals(store: harness.store)).map { ObjectIdentifier(type(of: $0)) }
        #expect(Set(made) == Set(Domains.types.map { ObjectIdentifier($0) }))
        #expect(made.count == Domains.types.count)
    }
}
