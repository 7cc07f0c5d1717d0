import ArgumentParser
import Foundation

// Drip 'n Dash: `souk jobs` (alias `souk laundry`), the laundry job from both sides.

let jobColumns = [Column("ID", "id"), Column("STAGE", "stage", missing: "WAITING_FOR_DASHER_TO_ACCEPT"), Column("STATE", "state"), Column("DORM", "dormId"), Column("DASHER", "dasher"), Column("ESTIMATE", "estimate.total")]
let jobFields = [
    Column("id", "id"), Column("stage", "stage", missing: "WAITING_FOR_DASHER_TO_ACCEPT"), Column("state", "state"), Column("customer", "customer"), Column("dasher", "dasher"),
    Column("dorm", "dormId"), Column("room", "room"), Column("estimate", "estimate.total"), Column("final price", "finalPrice.total"),
    Column("payment", "paymentStatus"), Column("created", "createTime"),
]

struct Jobs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drip 'n Dash laundry jobs (souk.v1.Laundry): the customer's steps, the Dasher's, and following a job.",
        discussion: """
            A student estimates and submits a job, watches it, confirms the final price when asked, and rates it; \
            a Dasher switches accepting on, asks for work (the dorm's oldest waiting job), accepts or denies it, \
            and moves it one stage at a time to DROPPED_OFF_LAUNDRY (the loads and the machines' cost at FINISHED_DRYING).

              souk jobs estimate --loads 2 --add-on folding
              JOB=$(souk jobs submit --loads 2 --add-on folding --instructions 'Delicates on cold' --json | jq -r .id)
              souk jobs watch "$JOB" &
              souk jobs work --profile dasher          # the job offered
              souk jobs accept "$JOB" --profile dasher
              souk jobs advance "$JOB" --profile dasher  # to the next stage
              souk jobs advance "$JOB" --to finished-drying --loads 2 --machine-cost 7.00 --profile dasher
            """,
        subcommands: [
            JobsList.self, JobsShow.self, JobsWatch.self, JobsEstimate.self, JobsSubmit.self, JobsConfirmPrice.self, JobsRejectDasher.self,
            JobsCancel.self, JobsRate.self, JobsAccepting.self, JobsWork.self, JobsAccept.self, JobsDeny.self, JobsAdvance.self,
        ],
        defaultSubcommand: JobsList.self, aliases: ["laundry"])
}

struct JobsList: ListCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List jobs (own, or the marketplace's for admins): Laundry.ListJobs.")
    static let rpc = "souk.v1.Laundry/ListJobs"
    static let key = "jobs"
    static var columns: [Column] { jobColumns }
    static let sortable = true
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var page: PageOptions
    @Option(name: .long, help: "Only these states (repeatable), e.g. open, completed.") var state: [String] = []
    var filters: [String: Any] {
        state.isEmpty ? [:] : ["states": state.map { enumName($0, prefix: "JOB_STATE_") }]
    }
}

struct JobsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one job: Laundry.GetJob.")
    @Argument(help: "The job's id.") var jobId: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Laundry/GetJob", ["jobId": jobId], output, jobFields)
        }
    }
}

struct JobsWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow a job through its stages: Laundry.WatchJob (ends once the job is final).")
    @Argument(help: "The job's id.") var jobId: String
    @Option(name: .long, help: "Stop after this many events.") var count: Int?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true, stream: true) { client in
            try await client.watch(
                "souk.v1.Laundry/WatchJob", ["jobId": jobId], output, count: count,
                [Column("SEQ", "sequence"), Column("TIME", "eventTime")] + nested([jobFields[1], jobFields[2], jobFields[4]], under: "job"))
        }
    }
}

/// The stages of a job in their order (JobStage's numbers).
let jobStages = [
    "WAITING_FOR_DASHER_TO_ACCEPT", "DASHER_ACCEPTED_REQUEST", "DASHER_ON_WAY_FOR_PICKUP", "PICKED_UP_LAUNDRY", "LAUNDRY_IN_WASHER",
    "FINISHED_WASHING", "LAUNDRY_IN_DRYER", "FINISHED_DRYING", "DASHER_ON_WAY_FOR_DROP_OFF", "DROPPED_OFF_LAUNDRY",
]

let priceFields = [Column("subtotal", "subtotal"), Column("tax", "tax"), Column("fees", "feesTotal"), Column("total", "total")]

/// The options of a job's size and extras, shared by estimate and submit.
struct JobSizeOptions: ParsableArguments {
    @Option(name: .long, help: "How many loads (washer loads) you expect.") var loads: Int
    @Option(name: .customLong("add-on"), help: "An extra (repeatable): folding, ironing.") var addOns: [String] = []

    var request: [String: Any] {
        ["loadsEstimate": loads, "addOns": addOns.map { enumName($0, prefix: "LAUNDRY_ADD_ON_") }]
    }
}

struct JobsEstimate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimate", abstract: "The price of a job before submitting it: Laundry.EstimateJobPrice.")
    @OptionGroup var size: JobSizeOptions
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output) { client in
            try await client.show("souk.v1.Laundry/EstimateJobPrice", size.request, output, priceFields)
        }
    }
}

struct JobsSubmit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Submit a laundry job to your dorm's queue (customer): Laundry.SubmitJob.",
        discussion: "Times are RFC 3339 (2026-12-01T15:00:00Z); the dorm and room are your account's.")
    @OptionGroup var size: JobSizeOptions
    @Option(name: .long, help: "Instructions for the Dasher.") var instructions: String?
    @Option(name: .long, help: "When the laundry may be picked up (RFC 3339).") var pickup: String?
    @Option(name: .long, help: "When it should be back (RFC 3339).") var dropoff: String?
    @Option(name: .long, help: "Offer the job to this Dasher (account id) first.") var dasher: String?
    @Flag(name: .long, help: "Only a Dasher of your gender.") var sameGenderOnly = false
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request = size.request
            request["requestId"] = newRequestId()
            request["sameGenderOnly"] = sameGenderOnly
            if let instructions { request["instructions"] = instructions }
            if let pickup { request["pickupTime"] = pickup }
            if let dropoff { request["dropoffTime"] = dropoff }
            if let dasher { request["preferredDasherAccountId"] = dasher }
            try await client.show("souk.v1.Laundry/SubmitJob", request, output, jobFields)
        }
    }
}

/// One job step, answering the job.
protocol JobStep: RecordStep {}

extension JobStep {
    static var idField: String { "jobId" }
    static var fields: [Column] { jobFields }
}

struct JobsConfirmPrice: JobStep {
    static let configuration = CommandConfiguration(
        commandName: "confirm-price", abstract: "Accept a final price above the estimate (customer): Laundry.ConfirmFinalPrice.")
    static let rpc = "souk.v1.Laundry/ConfirmFinalPrice"
    @Argument(help: "The job's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct JobsRejectDasher: JobStep {
    static let configuration = CommandConfiguration(
        commandName: "reject-dasher", abstract: "Send the job back to the queue, never to be offered to this Dasher again (customer): Laundry.RejectDasher.")
    static let rpc = "souk.v1.Laundry/RejectDasher"
    @Argument(help: "The job's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct JobsCancel: JobStep, ReasonStep {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a job (customer, admin): Laundry.CancelJob.")
    static let rpc = "souk.v1.Laundry/CancelJob"
    @Argument(help: "The job's id.") var id: String
    @Option(name: .long, help: "Why (the Dasher is told).") var reason: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct JobsRate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate", abstract: "Rate the other side of a finished job (the customer its Dasher, the Dasher its customer): Laundry.RateJob.")
    @Argument(help: "The job's id.") var jobId: String
    @Option(name: .long, help: "1 to 5.") var stars: Int
    @Option(name: .long, help: "A comment.") var comment: String = ""
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            try await client.show(
                "souk.v1.Laundry/RateJob", ["requestId": newRequestId(), "jobId": jobId, "stars": stars, "comment": comment], output, jobFields)
        }
    }
}

struct JobsAccepting: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accepting", abstract: "Switch whether you take jobs (Dasher): Laundry.SetAcceptingRequests.",
        discussion: "  souk jobs accepting on\n  souk jobs accepting off")
    @Argument(help: "on or off.") var state: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        guard state == "on" || state == "off" else { throw ValidationError("say on or off") }
        try await withClient(connection, output, profile: true) { client in
            try await client.show("souk.v1.Laundry/SetAcceptingRequests", ["acceptingRequests": state == "on"], output, accountFields)
        }
    }
}

struct JobsWork: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "work", abstract: "Ask for work (Dasher): the dorm's oldest waiting job, or one that named you, offered to you (Laundry.RequestWork).",
        discussion: "Accept the job offered with `souk jobs accept JOB`, or let another Dasher have it with `souk jobs deny JOB`.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            guard let answer = try await client.answer("souk.v1.Laundry/RequestWork", [:], output) else { return }
            guard let job = answer["job"] as? [String: Any] else { return emit("no job waiting for you") }
            printRecord(jobFields.map { ($0.header, $0.cell(job)) })
        }
    }
}

struct JobsAccept: JobStep {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept the job offered to you (Dasher): Laundry.AcceptJob.")
    static let rpc = "souk.v1.Laundry/AcceptJob"
    @Argument(help: "The job's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct JobsDeny: JobStep {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Turn down the job offered to you (Dasher); it keeps its place in the queue: Laundry.DenyJob.")
    static let rpc = "souk.v1.Laundry/DenyJob"
    @Argument(help: "The job's id.") var id: String
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
}

struct JobsAdvance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advance", abstract: "Move your job one stage forward (Dasher): pick up, wash, dry, deliver (Laundry.AdvanceJobStage).",
        discussion: """
            Without --to, the job goes to the stage after its current one. At FINISHED_DRYING give the loads \
            washed and what the machines cost (in the marketplace's currency).

            Stages: \(jobStages.joined(separator: ", ")).

              souk jobs advance JOB
              souk jobs advance JOB --to finished-drying --loads 2 --machine-cost 7.00
            """)
    @Argument(help: "The job's id.") var jobId: String
    @Option(name: .long, help: "The stage to move to (the next one only), e.g. picked-up-laundry.") var to: String?
    @Option(name: .long, help: "The loads washed (at FINISHED_DRYING).") var loads: Int?
    @Option(name: .long, help: "What the machines cost, e.g. 7.00 (at FINISHED_DRYING).") var machineCost: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    func run() async throws {
        try await withClient(connection, output, profile: true) { client in
            var request: [String: Any] = ["jobId": jobId]
            var target = to.map { enumName($0, prefix: "JOB_STAGE_") }
            if target == nil || machineCost != nil {
                let job = try await client.object("souk.v1.Laundry/GetJob", ["jobId": jobId])
                if target == nil {
                    let current = jobStages.firstIndex(of: shortEnum(job["stage"] ?? "WAITING_FOR_DASHER_TO_ACCEPT")) ?? 0
                    guard current + 1 < jobStages.count else { throw CLIError("the job is at its last stage already") }
                    target = "JOB_STAGE_" + jobStages[current + 1]
                }
                if let machineCost {
                    request["machineCostTotal"] = try money(machineCost, currency: value(job, "estimate.total.currencyCode") as? String ?? "USD")
                }
            }
            request["targetStage"] = target
            if let loads { request["actualLoads"] = loads }
            try await client.show("souk.v1.Laundry/AdvanceJobStage", request, output, jobFields)
        }
    }
}
