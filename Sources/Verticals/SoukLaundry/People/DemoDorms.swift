import SoukKit
import SoukMessages
import SoukStore

/// Drip 'n Dash demo data: the Rutgers campuses and some of their residence halls, and the
/// Dasher quiz. The dorms the demo accounts live in keep the ids `SoukDemo.DemoDorm` gives them.
struct LaundryDemo {
    let store: Store

    /// Campus, dorm name and, for the demo accounts' dorms, their fixed id.
    static let dorms: [(campus: String, name: String, id: String?)] = [
        ("Busch", "Mattia Hall", "01900000-0000-7000-8000-00000000d001"),
        ("Busch", "Barr Hall", nil), ("Busch", "Thomas Hall", nil), ("Busch", "Silvers Apartments", nil),
        ("College Avenue", "Hardenbergh Hall", "01900000-0000-7000-8000-00000000d002"),
        ("College Avenue", "Frelinghuysen Hall", nil), ("College Avenue", "Demarest Hall", nil), ("College Avenue", "Brett Hall", nil),
        ("Livingston", "Livingston Quads", "01900000-0000-7000-8000-00000000d003"),
        ("Livingston", "Livingston Apartments", nil), ("Livingston", "Lynton Towers", nil),
        ("Cook/Douglass", "Newell Apartments", nil), ("Cook/Douglass", "Jameson Hall", nil), ("Cook/Douglass", "Starkey Apartments", nil),
    ]

    /// Question, choices, index of the right one.
    static let quiz: [(String, [String], Int32)] = [
        ("Which water temperature keeps dark colours from fading?", ["Cold", "Warm", "Hot"], 0),
        ("What should you do with a garment labelled \"dry clean only\"?", ["Wash it on delicate", "Leave it out and tell the customer", "Wash it cold"], 1),
        ("Where does detergent go in a front-loading washer?", ["Straight onto the clothes", "In the dispenser drawer", "In the dryer"], 1),
        ("What do you clean before every dryer load?", ["The lint trap", "The drum", "Nothing"], 0),
        ("A red sock in a load of whites will most likely…", ["Do nothing", "Turn the whites pink", "Shrink"], 1),
    ]

    func load(_ demo: DemoContext) async throws {
        guard let marketplace = demo.marketplaces["drip-n-dash"] else { return }
        let market = marketplace.id
        try await store.write { transaction in
            for dorm in Self.dorms {
                let value = DormRecord(marketplaceID: market, SoukStoreV1.Dorm(campus: dorm.campus, name: dorm.name))
                let key: [KeyPart] = [.string(market), .string(dorm.campus.lowercased()), .string(dorm.name.lowercased())]
                guard try transaction.get(DormTable.table, unique: DormTable.byName, key) == nil else { continue }
                try transaction.insert(DormTable.table, value, id: dorm.id.flatMap(RecordID.init))
            }
            let existing = try transaction.list(
                QuizQuestionTable.table, QuizQuestionTable.byCreation, .starting(with: [.string(market), .bool(false)]),
                limit: 1)
            guard existing.isEmpty else { return }
            for (text, choices, correct) in Self.quiz {
                try transaction.insert(
                    QuizQuestionTable.table,
                    QuizQuestionRecord(marketplaceID: market, SoukStoreV1.QuizQuestion(text: text, choices: choices, optionalCorrectChoice: .correctChoice(correct))))
            }
        }
    }
}
