import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A menu item's customization: its option groups as the restaurant defines them, and the
/// choices a customer makes on a cart line.
enum MenuOptions {
    static let maxGroups = 20
    static let maxChoices = 50

    /// Checks the groups of an item, naming the first problem of each group (all groups at
    /// once); assigns missing group and choice ids.
    static func checked(_ groups: [SoukV1.MenuOptionGroup], currency: String, field: String) throws -> [SoukV1.MenuOptionGroup] {
        guard groups.count <= maxGroups else { throw RPCError.invalidField(field, "must hold at most \(maxGroups) groups") }
        var groupIDs = Set<String>()
        var result = groups
        var checks = FieldChecks()
        for (g, group) in groups.enumerated() {
            if let checked = try checks.run({ try Self.group(group, at: "\(field)[\(g)]", currency: currency, ids: &groupIDs) }) {
                result[g] = checked
            }
        }
        try checks.finish()
        return result
    }

    /// One group, trimmed and with ids.
    private static func group(_ group: SoukV1.MenuOptionGroup, at: String, currency: String, ids: inout Set<String>) throws
        -> SoukV1.MenuOptionGroup
    {
        try FoodValidation.name(group.name, field: "\(at).name", limit: 100)
        guard !group.choices.isEmpty else { throw RPCError.invalidField("\(at).choices", "must hold at least one choice") }
        guard group.choices.count <= maxChoices else { throw RPCError.invalidField("\(at).choices", "must hold at most \(maxChoices) choices") }
        let most = group.maxChoices == 0 ? Int32(group.choices.count) : group.maxChoices
        guard group.minChoices >= 0 else { throw RPCError.invalidField("\(at).min_choices", "must not be negative") }
        guard group.maxChoices >= 0, most <= group.choices.count else {
            throw RPCError.invalidField("\(at).max_choices", "must be 0 (all) to the number of choices, \(group.choices.count)")
        }
        guard group.minChoices <= most else { throw RPCError.invalidField("\(at).min_choices", "must not exceed max_choices (\(most))") }
        if group.required, group.minChoices < 1 { throw RPCError.invalidField("\(at).min_choices", "must be at least 1 in a required group") }
        var result = group
        result.name = group.name.trimmingCharacters(in: .whitespaces)
        result.id = try uniqueID(group.id, in: &ids, field: "\(at).id")
        var choiceIDs = Set<String>()
        for (c, choice) in group.choices.enumerated() {
            let choiceAt = "\(at).choices[\(c)]"
            try FoodValidation.name(choice.name, field: "\(choiceAt).name", limit: 100)
            try MenuValidation.price(choice.price, currency: currency, field: "\(choiceAt).price")
            result.choices[c].name = choice.name.trimmingCharacters(in: .whitespaces)
            result.choices[c].id = try uniqueID(choice.id, in: &choiceIDs, field: "\(choiceAt).id")
        }
        return result
    }

    /// `id`, or a new one when empty; INVALID_ARGUMENT when repeated.
    private static func uniqueID(_ id: String, in seen: inout Set<String>, field: String) throws -> String {
        let id = id.isEmpty ? RecordID.generate().description : id
        guard id.count <= 64 else { throw RPCError.invalidField(field, "must be at most 64 characters") }
        guard seen.insert(id).inserted else { throw RPCError.invalidField(field, "is used twice") }
        return id
    }

    /// A choice made on a cart line, resolved against the item's groups.
    struct Chosen: Sendable, Equatable {
        var group: SoukV1.MenuOptionGroup
        var choice: SoukV1.MenuOptionChoice
    }

    /// A problem with the choices of a line: the field (`options[i]`, `options`) and what is wrong.
    struct Problem: Error, Equatable {
        var field: String
        var message: String

        var rpcError: RPCError { RPCError.invalidField(field, message) }
    }

    /// Resolves `chosen` (group and choice ids) against `item`'s groups: every id known, a choice
    /// once, each group between its fewest and most choices (a required group at least one).
    static func resolve(_ chosen: [SoukV1.CartLineOption], of item: SoukStoreV1.MenuItem) -> Result<[Chosen], Problem> {
        var resolved: [Chosen] = []
        var seen = Set<String>()
        for (index, option) in chosen.enumerated() {
            guard let group = item.optionGroups.first(where: { $0.id == option.groupID }) else {
                return .failure(Problem(field: "options[\(index)].group_id", message: "\(item.name) has no option group \(option.groupID)"))
            }
            guard let choice = group.choices.first(where: { $0.id == option.choiceID }) else {
                return .failure(Problem(field: "options[\(index)].choice_id", message: "\(group.name) has no choice \(option.choiceID)"))
            }
            guard seen.insert("\(group.id)/\(choice.id)").inserted else {
                return .failure(Problem(field: "options[\(index)]", message: "\(choice.name) is chosen twice"))
            }
            resolved.append(Chosen(group: group, choice: choice))
        }
        for group in item.optionGroups {
            let count = resolved.count { $0.group.id == group.id }
            let fewest = max(Int(group.minChoices), group.required ? 1 : 0)
            let most = group.maxChoices == 0 ? group.choices.count : Int(group.maxChoices)
            if count < fewest {
                return .failure(Problem(field: "options", message: "choose at least \(fewest) of \(group.name)"))
            }
            if count > most {
                return .failure(Problem(field: "options", message: "choose at most \(most) of \(group.name)"))
            }
        }
        // Group order, then choice order, as the menu shows them.
        return .success(resolved.sorted { a, b in
            let (ga, gb) = (item.optionGroups.firstIndex { $0.id == a.group.id }!, item.optionGroups.firstIndex { $0.id == b.group.id }!)
            if ga != gb { return ga < gb }
            return a.group.choices.firstIndex { $0.id == a.choice.id }! < b.group.choices.firstIndex { $0.id == b.choice.id }!
        })
    }
}
