import ArgumentParser

/// `souk`: a command-line client of souk-server.
@main
struct Souk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "souk",
        abstract: "A command-line client of souk-server: sign in, call any RPC with JSON, and the everyday tasks of the five apps.",
        discussion: """
            Start with `souk login`; the session is kept in a profile file (0600) that later commands use. \
            `souk call` reaches every RPC of the contract (`souk list`, `souk describe`); the other commands \
            print tables, or the server's JSON with --json.

            Exit codes: 0 success; 1 a local error (bad JSON, no profile); 64 bad usage; a failed call \
            10 + its gRPC status code (13 INVALID_ARGUMENT, 15 NOT_FOUND, 17 PERMISSION_DENIED, \
            19 FAILED_PRECONDITION, 24 UNAVAILABLE, 26 UNAUTHENTICATED, ...).

            Store maintenance (backups, restore, verify, build-index, compact) is not an RPC: it runs on \
            the server's host as `souk-server store ...`.
            """,
        subcommands: [
            Login.self, Logout.self, WhoAmI.self, Call.self, List.self, Describe.self,
            Marketplaces.self, Products.self, Services.self, Restaurants.self, Menu.self, Listings.self,
            CartCommand.self, Checkout.self, Orders.self, Jobs.self, Leases.self, Deliveries.self, Payments.self,
            Tickets.self, Messages.self, Notifications.self,
            ContentCommands<AnnouncementContent>.self, ContentCommands<PolicyContent>.self, ContentCommands<AdvertisementContent>.self,
            Approvals.self, Block.self, Unblock.self, Settings.self,
        ])
}
