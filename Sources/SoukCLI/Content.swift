import ArgumentParser
import Foundation

// What admins publish in a marketplace (souk.v1.Admin): announcements, policies and
// advertisements, each listed, shown, created, published, archived and restored the same way.

/// One kind of admin content: its names in the contract and its columns.
protocol ContentKind {
    /// The message and RPC suffix: `Announcement` (CreateAnnouncement, GetAnnouncement).
    static var singular: String { get }
    /// The List RPC's suffix: `Announcements`.
    static var plural: String { get }
    /// The command: `announcements`.
    static var command: String { get }
    /// The JSON name of the time it goes live (unset: a draft).
    static var publishField: String { get }
    /// The JSON name of the time it ends.
    static var endField: String { get }
    /// Columns of its own, after ID and TITLE.
    static var columns: [Column] { get }
    /// Create options it takes (`--kind`, `--placement`, `--target-url`).
    static var options: Set<String> { get }
}

extension ContentKind {
    static var key: String { singular.prefix(1).lowercased() + singular.dropFirst() }
    static var listKey: String { plural.prefix(1).lowercased() + plural.dropFirst() }
    static var rpcPrefix: String { "souk.v1.Admin/" }
    static var tableColumns: [Column] {
        [Column("ID", "id"), Column("TITLE", "title")] + columns
            + [Column("STATE", "state"), Column("AUDIENCE", "audienceRoles", missing: "everyone"), Column("LIVE FROM", publishField)]
    }
    static var fields: [Column] { tableColumns.map { Column($0.header.lowercased(), $0.path, missing: $0.missing) } + [Column("body", "body"), Column("ends", endField)] }
}

enum AnnouncementContent: ContentKind {
    static let singular = "Announcement", plural = "Announcements", command = "announcements"
    static let publishField = "publishTime", endField = "expireTime"
    static let columns: [Column] = []
    static let options: Set<String> = []
}

enum PolicyContent: ContentKind {
    static let singular = "Policy", plural = "Policies", command = "policies"
    static let publishField = "effectiveTime", endField = "expireTime"
    static let columns = [Column("KIND", "kind")]
    static let options: Set<String> = ["kind"]
}

enum AdvertisementContent: ContentKind {
    static let singular = "Advertisement", plural = "Advertisements", command = "ads"
    static let publishField = "startTime", endField = "endTime"
    static let columns = [Column("PLACEMENT", "placement")]
    static let options: Set<String> = ["placement", "target-url"]
}

struct ContentCommands<Kind: ContentKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Kind.command,
            abstract: "\(Kind.plural) (souk.v1.Admin): list, show, create (a draft), publish, archive, restore (admins; anyone lists what is live).",
            discussion: """
                  ID=$(souk \(Kind.command) create --title 'Ramadan hours' --body 'We deliver until 2 am' --json | jq -r .id)
                  souk \(Kind.command) publish "$ID"
                  souk \(Kind.command) list --state published
                  souk \(Kind.command) archive "$ID"
                """,
            subcommands: [
                ContentList<Kind>.self, ContentStep<Kind, GetContent>.self, ContentCreate<Kind>.self, ContentPublish<Kind>.self,
                ContentStep<Kind, ArchiveContent>.self, ContentStep<Kind, RestoreContent>.self,
            ],
            defaultSubcommand: ContentList<Kind>.self)
    }
}

struct ContentList<Kind: ContentKind>: ListCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "list", abstract: "List \(Kind.listKey), live ones only unless --state (admins): Admin.List\(Kind.plural).")
    }
    static var rpc: String { Kind.rpcPrefix + "List" + Kind.plural }
    static var key: String { Kind.listKey }
    static var columns: [Column] { Kind.tableColumns }
    static var signedIn: Bool { false }
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these states (repeatable): draft, scheduled, published, expired, archived.") var state: [String] = []
    var filters: [String: Any] {
        state.isEmpty ? [:] : ["states": state.map { enumName($0, prefix: "CONTENT_STATE_") }]
    }
}

/// What `ContentStep` does to one item: its RPC's verb and its help.
protocol ContentVerb {
    static var verb: String { get }
    static var command: String { get }
    static func abstract(_ singular: String) -> String
}

enum GetContent: ContentVerb {
    static let verb = "Get", command = "show"
    static func abstract(_ singular: String) -> String { "Show one: Admin.Get\(singular)." }
}

enum ArchiveContent: ContentVerb {
    static let verb = "Archive", command = "archive"
    static func abstract(_ singular: String) -> String { "Withdraw it (admin): Admin.Archive\(singular)." }
}

enum RestoreContent: ContentVerb {
    static let verb = "Restore", command = "restore"
    static func abstract(_ singular: String) -> String {
        "Bring back an archived one, in the state its times say (admin): Admin.Restore\(singular)."
    }
}

/// Show, archive or restore one item of `Kind` named by its id.
struct ContentStep<Kind: ContentKind, Verb: ContentVerb>: RecordStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Verb.command, abstract: Verb.abstract(Kind.singular))
    }
    static var rpc: String { Kind.rpcPrefix + Verb.verb + Kind.singular }
    static var idField: String { Kind.key + "Id" }
    static var fields: [Column] { Kind.fields }
    @Argument(help: "Its id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct ContentPublish<Kind: ContentKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "publish", abstract: "Make a draft live now, or at --at (admin): Admin.Update\(Kind.singular) of its \(Kind.publishField).")
    }
    @Argument(help: "Its id.") var id: String
    @Option(name: .long, help: "When it goes live (RFC 3339; default now).") var at: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            let item: [String: Any] = ["id": id, Kind.publishField: at ?? timestampNow()]
            try await client.show(Kind.rpcPrefix + "Update" + Kind.singular, [Kind.key: item, "updateMask": Kind.publishField], output, Kind.fields)
        }
    }
}

struct ContentCreate<Kind: ContentKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "create", abstract: "Create one, a draft unless --publish (admin): Admin.Create\(Kind.singular).",
            discussion: "--kind is for policies only; --placement and --target-url for ads only.")
    }
    @Option(name: .long, help: "Its title.") var title: String
    @Option(name: .long, help: "Its text.") var body: String
    @Option(name: .long, help: "A role that sees it (repeatable): customer, provider, courier, admin (default: everyone).") var audience: [String] = []
    @Flag(name: .long, help: "Live at once instead of a draft.") var publish = false
    @Option(name: .long, help: "When it ends (RFC 3339).") var until: String?
    @Option(name: .long, help: "Policies: terms-of-service, privacy, rental, refund, community, fees.") var kind: String?
    @Option(name: .long, help: "Ads: where it shows (e.g. home_banner).") var placement: String?
    @Option(name: .long, help: "Ads: the link it opens.") var targetUrl: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        for (name, given) in [("kind", kind != nil), ("placement", placement != nil), ("target-url", targetUrl != nil)]
        where given && !Kind.options.contains(name) {
            throw ValidationError("--\(name) is not an option of \(Kind.command)")
        }
    }

    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var item: [String: Any] = ["title": title, "body": body, "audienceRoles": audience.map { enumName($0, prefix: "ROLE_") }]
            if publish { item[Kind.publishField] = timestampNow() }
            if let until { item[Kind.endField] = until }
            if let kind { item["kind"] = enumName(kind, prefix: "POLICY_KIND_") }
            if let placement { item["placement"] = placement }
            if let targetUrl { item["targetUrl"] = targetUrl }
            try await client.show(Kind.rpcPrefix + "Create" + Kind.singular, ["requestId": newRequestId(), Kind.key: item], output, Kind.fields)
        }
    }
}
