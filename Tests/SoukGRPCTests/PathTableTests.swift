import Testing

@testable import SoukGRPC

/// The path table finds exactly the paths it was built with.
@Suite struct PathTableTests {
    /// Paths that share their first and last eight bytes and their length, so that they meet in one slot.
    static let colliding = ["/a.ServiceA/GetItemOrder", "/a.ServiceB/GetItemOrder", "/a.ServiceC/GetItemOrder", "/a.ServiceD/GetItemOrder"]

    @Test func everyPathFindsItsOwnValue() {
        var entries: [String: Int] = [:]
        for (index, path) in Self.colliding.enumerated() { entries[path] = index }
        for service in ["souk.v1.Orders", "souk.v1.Stores", "grpc.testing.TestService", "x"] {
            for method in ["Get", "List", "Create", "UnaryCall", "EmptyCall", "A", "AB"] {
                entries["/\(service)/\(method)"] = entries.count
            }
        }
        let table = PathTable(entries)
        for (path, value) in entries {
            #expect(table[path] == value, "\(path)")
        }
        #expect(table.values.sorted() == entries.values.sorted())
    }

    @Test func pathsNotInTheTableFindNothing() {
        let table = PathTable(Dictionary(uniqueKeysWithValues: Self.colliding.enumerated().map { ($1, $0) }))
        for path in ["", "/", "/a.ServiceE/GetItemOrder", "/a.ServiceA/GetItemOrde", "/a.ServiceA/GetItemOrderX",
                     "/a.ServiceA/GetItemOrdes", "/a.ServiceA/getItemOrder", "a.ServiceA/GetItemOrder/", "/a.ServiceA/GetItemOrder\u{0}"] {
            #expect(table[path] == nil, "\(path)")
        }
    }

    @Test func agreesWithADictionaryOnEveryShortPath() {
        // Every string of up to five bytes over a small alphabet; the table holds every third one.
        var paths = [""]
        var last = [""]
        for _ in 1 ... 5 {
            last = last.flatMap { prefix in ["/", ".", "a", "B"].map { prefix + $0 } }
            paths += last
        }
        var entries: [String: Int] = [:]
        for (index, path) in paths.enumerated() where index % 3 == 0 { entries[path] = index }
        let table = PathTable(entries)
        for path in paths {
            #expect(table[path] == entries[path], "\(path)")
        }
    }
}
