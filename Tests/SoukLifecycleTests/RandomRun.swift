import PropertyBased
import SoukKit
import SoukMessages
import SoukStore
import Testing

/// What the model expects of one firing.
enum Outcome<State: LifecycleState>: Equatable {
    case moved(State)
    case refused(Refusal)
}

/// One recorded move as the audit log and the event stream show it.
struct Move: Equatable, CustomStringConvertible {
    var from: String
    var to: String
    var accountID: String
    var role: SoukV1.Role
    var reason: String
    var version: Int64

    init(from: String, to: String, actor: AuditActor, reason: String, version: UInt64) {
        (self.from, self.to, accountID, role, self.reason, self.version) = (from, to, actor.accountID, actor.role, reason, Int64(version))
    }

    init(_ entry: SoukV1.AuditEntry) {
        (from, to, accountID, role, reason, version) =
            (entry.fromState, entry.toState, entry.actorAccountID, entry.actorRole, entry.reason, entry.resourceVersion)
    }

    var description: String { "\(from) → \(to) by \(role.protoName) \(accountID) (\(reason)) v\(version)" }
}

/// A random sequence of transitions by random callers against a real store, compared with a
/// model computed from the declaration's table.
struct RandomRun<Subject: ProtoMessage, State: LifecycleState, Name: TransitionName> {
    let machineCase: MachineCase<Subject, State, Name>
    var machine: StateMachine<Subject, State, Name> { machineCase.machine }

    /// The model: which transition of the table applies, from the same facts the server sees.
    func expected(_ name: Name, on subject: Subject, by actor: AuditActor, to target: State?) -> Outcome<State> {
        let named = machine.transitions.filter { $0.name == name }
        let mayFire = { (transition: Transition<Subject, State, Name>) in Self.admitted(transition.roles, actor) }
        let denied = Outcome<State>.refused(Refusal(code: .permissionDenied, reason: .notAllowed))
        guard named.contains(where: mayFire) else { return denied }
        let current = subject[keyPath: machine.state]
        let here = named.filter { $0.from.contains(current) && (target == nil || $0.to == target) }
        guard !here.isEmpty else { return .refused(Refusal(code: .failedPrecondition, reason: named[0].refusal)) }
        guard let transition = here.first(where: mayFire) else { return denied }
        guard transition.guards.allSatisfy({ $0.allows(subject, actor) }) else {
            return .refused(Refusal(code: .failedPrecondition, reason: .invalidTransition))
        }
        return .moved(transition.to)
    }

    /// Roles as the model reads them: the server is `system`, an operator counts as an admin.
    static func admitted(_ roles: [TransitionRole], _ actor: AuditActor) -> Bool {
        roles.contains(actor.isServer ? .system : .role(actor.role == .operator ? .admin : actor.role))
    }

    static func randomActor(_ dice: inout Dice) -> AuditActor {
        if dice.roll(7) == 0 { return .system("Test") }
        let role = dice.pick([SoukV1.Role.customer, .provider, .courier, .admin, .operator, .unspecified])
        return Accounts.actor(role, role == .unspecified ? "" : dice.pick(Accounts.all))
    }

    func run(_ store: Store, _ operations: [Int]) async throws {
        var dice = Dice(operations.first ?? 1)
        let start = dice.pick(machine.initial)
        let value = machineCase.record(start, &dice)
        let creator = Accounts.actor(.customer, Accounts.all[0])
        let (machine, table) = (machine, machineCase.table)
        var current = try await store.write { transaction in
            try machine.create(value, in: table, by: creator, transaction: transaction)
        }
        var moves = [Move(from: "", to: start.protoName, actor: creator, reason: "", version: 1)]
        let names = machine.transitions.map(\.name).reduce(into: [Name]()) { if !$0.contains($1) { $0.append($1) } }

        for operation in operations.dropFirst() {
            var dice = Dice(operation)
            let name = dice.pick(names)
            let targets = machine.transitions.filter { $0.name == name }.map(\.to)
            let target: State? = targets.count > 1 && dice.roll(2) == 0 ? dice.pick(targets) : nil
            let actor = Self.randomActor(&dice)
            let reason = dice.pick(["", "changed my mind"])
            let stale = dice.roll(8) == 0
            let expectedVersion: UInt64? = stale ? current.version + 1 : dice.roll(2) == 0 ? current.version : nil
            let outcome = stale
                ? .refused(Refusal(code: .aborted, reason: .staleVersion)) : expected(name, on: current.value.subject, by: actor, to: target)
            let id = current.id
            do {
                let record = try await store.write { transaction in
                    try machine.fire(
                        name, on: id, in: table, marketplaceID: Accounts.marketplace, by: actor, to: target,
                        expectedVersion: expectedVersion, reason: reason, transaction: transaction)
                }
                guard case .moved(let state) = outcome else {
                    Issue.record("\(name) by \(actor.role.protoName) from \(current.value.subject[keyPath: machine.state].protoName) moved to \(record.value.subject[keyPath: machine.state].protoName); expected \(outcome)")
                    return
                }
                #expect(record.value.subject[keyPath: machine.state] == state && record.version == current.version + 1)
                moves.append(Move(from: current.value.subject[keyPath: machine.state].protoName, to: state.protoName, actor: actor, reason: reason, version: record.version))
                current = record
            } catch {
                guard case .refused(let refusal) = outcome else {
                    Issue.record("\(name) by \(actor.role.protoName) from \(current.value.subject[keyPath: machine.state].protoName) failed: \(error); expected \(outcome)")
                    return
                }
                #expect(Refusal(error) == refusal, "\(name) by \(actor.role.protoName): \(error)")
            }
        }

        // The audit log's history, read in small pages, and the event stream of a streamed
        // machine hold exactly the moves; other machines' moves make no events.
        var page = PageRequest(size: 1 + dice.roll(4))
        var listed = [Move]()
        while true {
            let result = try store.transitions(of: current.id, marketplaceID: Accounts.marketplace, page: page)
            listed += result.entries.map(Move.init)
            guard let token = result.nextPageToken else { break }
            page.token = token
        }
        #expect(listed == moves)
        let events = try store.events(in: lifecycleStream(machine.resource, current.id), after: 0, limit: 1000)
        guard machine.streamed else {
            #expect(events.isEmpty)
            return
        }
        #expect(events.map(\.sequence) == Array(1 ... UInt64(moves.count)))
        #expect(try events.map { Move(try LifecycleEvent(decoding: $0.payload).entry) } == moves)
    }
}

@Suite struct LifecyclePropertyTests {
    /// Every declared machine, random sequences of firings by random callers.
    @Test(arguments: AnyMachineCase.all)
    func firingsAgreeWithTheDeclaredTable(_ machineCase: AnyMachineCase) async throws {
        try await withLifecycleStore { store in
            await propertyCheck(count: 30, input: Gen.int(in: 0 ... Int.max).array(of: 1 ... 40)) { operations in
                do {
                    try await machineCase.randomRun(store, operations)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }
    }

    /// No name leads two ways from one state, every transition has roles and from-states, and
    /// every state in the table is reachable from a starting state.
    @Test(arguments: AnyMachineCase.all)
    func declarationsAreWellFormed(_ machineCase: AnyMachineCase) {
        #expect(machineCase.declarationProblems() == [])
    }
}
