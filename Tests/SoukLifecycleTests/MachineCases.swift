import SoukFood
import SoukOrders
import SoukShops
import SoukKit
import SoukLaundry
import SoukMessages
import SoukPayments
import SoukRentals
import SoukStore
import SoukSupport
import Testing

/// A declared machine with its test table and a way to make records for it.
struct MachineCase<Subject: ProtoMessage, State: LifecycleState, Name: TransitionName>: Sendable {
    let machine: StateMachine<Subject, State, Name>
    let table: Table<TestRecord<Subject>>
    /// A record in `state` whose owner fields (courier, Dasher, customer, bill kind) are drawn with `dice`.
    let subject: @Sendable (State, inout Dice) -> Subject

    func record(_ state: State, _ dice: inout Dice) -> TestRecord<Subject> {
        TestRecord(marketplaceID: Accounts.marketplace, subject: subject(state, &dice))
    }
}

/// A machine case with its types hidden, so that one parameterized test runs them all.
struct AnyMachineCase: Sendable, CustomTestStringConvertible {
    let name: String
    let randomRun: @Sendable (Store, [Int]) async throws -> Void
    let declarationProblems: @Sendable () -> [String]

    init<Subject, State, Name>(_ machineCase: MachineCase<Subject, State, Name>) {
        name = machineCase.machine.name
        randomRun = { store, operations in try await RandomRun(machineCase: machineCase).run(store, operations) }
        declarationProblems = { DeclarationCheck.problems(machineCase.machine) }
    }

    var testDescription: String { name }

    /// Every declared lifecycle.
    static let all: [AnyMachineCase] = [
        AnyMachineCase(MachineCase(machine: OrderLifecycles.waterServices, table: TestTables.orders, subject: order)),
        AnyMachineCase(MachineCase(machine: OrderLifecycles.retail, table: TestTables.orders, subject: order)),
        AnyMachineCase(MachineCase(machine: OrderLifecycles.foodDelivery, table: TestTables.orders, subject: order)),
        AnyMachineCase(MachineCase(machine: DeliveryLifecycles.waterServices, table: TestTables.deliveries, subject: delivery)),
        AnyMachineCase(MachineCase(machine: DeliveryLifecycles.foodDelivery, table: TestTables.deliveries, subject: delivery)),
        AnyMachineCase(
            MachineCase(machine: PaymentLifecycle.machine, table: TestTables.payments) { state, dice in
                SoukStoreV1.Payment(payerAccountID: dice.pick(Accounts.all), status: state)
            }),
        AnyMachineCase(
            MachineCase(machine: JobLifecycle.machine, table: TestTables.jobs) { state, dice in
                var job = SoukStoreV1.Job(
                    customerAccountID: dice.pick(Accounts.all), dasherAccountID: dice.pick(Accounts.all),
                    offeredToAccountID: dice.pick(Accounts.all))
                job.lifecycleState = state
                return job
            }),
        AnyMachineCase(
            MachineCase(machine: RentalLifecycles.booking, table: TestTables.bookings) { state, dice in
                SoukStoreV1.Booking(lesseeAccountID: dice.pick(Accounts.all), lessorAccountID: dice.pick(Accounts.all), status: state)
            }),
        AnyMachineCase(
            MachineCase(machine: RentalLifecycles.bill, table: TestTables.bills) { state, dice in
                SoukStoreV1.Bill(lesseeAccountID: dice.pick(Accounts.all), kind: dice.pick([.deposit, .monthly]), status: state)
            }),
        AnyMachineCase(
            MachineCase(machine: TicketLifecycle.machine, table: TestTables.tickets) { state, dice in
                SoukStoreV1.Ticket(authorAccountID: dice.pick(Accounts.all), status: state)
            }),
    ]

    private static func order(_ state: SoukV1.OrderStatus, _ dice: inout Dice) -> SoukStoreV1.Order {
        SoukStoreV1.Order(customerAccountID: dice.pick(Accounts.all), status: state, courierAccountID: dice.pick(["", Accounts.all[0], Accounts.all[1]]))
    }

    private static func delivery(_ state: SoukV1.DeliveryStatus, _ dice: inout Dice) -> SoukStoreV1.Delivery {
        SoukStoreV1.Delivery(courierAccountID: dice.pick(Accounts.all), status: state)
    }
}

/// Checks of a declaration that do not need a store.
enum DeclarationCheck {
    /// What is wrong with `machine`'s table: a name that leads two ways from one state (firing
    /// would depend on declaration order), a transition nobody may fire, or a state no path reaches.
    static func problems<Subject, State, Name>(_ machine: StateMachine<Subject, State, Name>) -> [String] {
        var problems = [String]()
        for (index, transition) in machine.transitions.enumerated() {
            if transition.roles.isEmpty || transition.from.isEmpty { problems.append("\(transition.name) has no roles or no from-states") }
            for other in machine.transitions[(index + 1)...] where other.name == transition.name {
                let shared = transition.from.filter(other.from.contains)
                if !shared.isEmpty { problems.append("\(transition.name) leaves \(shared.map(\.protoName)) twice") }
            }
        }
        var reached = Set(machine.initial)
        var frontier = machine.initial
        while let state = frontier.popLast() {
            for transition in machine.transitions(from: state) where reached.insert(transition.to).inserted {
                frontier.append(transition.to)
            }
        }
        for transition in machine.transitions {
            for state in transition.from + [transition.to] where !reached.contains(state) {
                problems.append("\(state.protoName) is never reached")
            }
        }
        return problems
    }
}
