import SoukGRPC
import SoukKit

/// Text of product names as searching and sorting compare it.
package enum ProductText {
    /// The words of a text, normalized (`SearchText`).
    package static func words(_ text: String) -> [String] { SearchText.words(text) }

    /// The food pairings of a product ("Lamb, hard cheese" → ["hard cheese", "lamb"]): each
    /// comma-separated phrase normalized, without repeats.
    package static func pairings(_ text: String) -> [String] {
        Set(text.split(separator: ",").map { sortKey(String($0)) }.filter { !$0.isEmpty }).sorted()
    }

    /// The name as it sorts.
    package static func sortKey(_ name: String) -> String { words(name).joined(separator: " ") }

    /// Every prefix of every word (`SearchText.prefixes`), without repeats.
    package static func wordPrefixes(_ name: String) -> [String] { SearchText.prefixes(of: words(name)) }
}

/// The words of a search query.
package struct SearchWords: Sendable {
    package var words: [String]

    package init(_ query: String, required: Bool, field: String = "query") throws {
        words = ProductText.words(query)
        if required, words.isEmpty { throw RPCError.invalidField(field, "must have at least one word") }
        guard words.count <= 10 else { throw RPCError.invalidField(field, "must have at most 10 words") }
    }

    /// Whether each query word starts a word of `name` (no words match every name).
    package static func match(_ words: [String], in name: String) -> Bool {
        SearchText.everyWordBegins(words, oneOf: ProductText.words(name))
    }
}
