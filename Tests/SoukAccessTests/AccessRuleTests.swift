import SoukGRPC
import SoukMessages
import SoukStore
import Testing
@testable import SoukAccess
import SoukKit

@Suite struct AccessRuleTests {
    @Test func everyContractRPCHasAValidAccessLine() throws {
        let rules = try AccessRules.contract()
        #expect(rules.methods.count == 230)
        for method in rules.methods {
            #expect(rules.rule(service: method.service, method: method.name) != nil, "\(method.fullName)")
        }
        #expect(rules.rule(service: "grpc.health.v1.Health", method: "Check") == nil)
    }

    @Test func contractRulesMatchTheirLines() throws {
        let rules = try AccessRules.contract()
        #expect(rules.rule(service: "souk.v1.Accounts", method: "Login") == AccessRule(allowsGuests: true))
        #expect(rules.rule(service: "souk.v1.Marketplaces", method: "CreateMarketplace") == AccessRule(roles: [.operator]))
        #expect(rules.rule(service: "souk.v1.Accounts", method: "UpdateProfile")
            == AccessRule(roles: [.admin, .operator], ownerRoles: [.customer]))
        #expect(rules.rule(service: "souk.v1.Accounts", method: "GetMe")
            == AccessRule(roles: [.customer, .provider, .courier, .admin, .operator, .pushAdapter]))
        // The push outbox is the push adapter's alone: no marketplace admin, no operator.
        for method in ["ListPushOutbox", "CompletePush"] {
            #expect(rules.rule(service: "souk.v1.Notifications", method: method) == AccessRule(roles: [.pushAdapter]))
        }
    }

    @Test func onlyThePushAdapterDrainsTheOutbox() throws {
        let outbox = try AccessRule(parsing: "Access: push_adapter."[...])
        #expect(outbox.decide(for: Self.caller([.pushAdapter])) == .allowed)
        #expect(outbox.decide(for: Self.caller([.admin, .customer])) == .denied(.notAllowed))
        #expect(outbox.decide(for: Self.caller([.operator])) == .denied(.notAllowed))
        #expect(outbox.description == "Access: push_adapter.")
        // The push adapter is nothing else.
        let staff = try AccessRule(parsing: "Access: customer, provider, courier, admin, operator."[...])
        #expect(staff.decide(for: Self.caller([.pushAdapter])) == .denied(.notAllowed))
    }

    @Test(arguments: [
        ("Access: guest.", AccessRule(allowsGuests: true)),
        ("Access: customer (owner), provider (owner), admin, operator.",
         AccessRule(roles: [.admin, .operator], ownerRoles: [.customer, .provider])),
        ("  Access: courier.  ", AccessRule(roles: [.courier])),
    ])
    func parsesValidLines(line: String, expected: AccessRule) throws {
        #expect(try AccessRule(parsing: line[...]) == expected)
    }

    @Test(arguments: [
        "Access: customer",  // no final period
        "Creates a marketplace.",  // not an Access line
        "Access: shopper.",
        "Access: guest (owner).",
        "Access: admin, admin.",
        "Access: .",
        "Access: customer,, admin.",
    ])
    func refusesMalformedLines(line: String) {
        #expect(throws: AccessLineError.self) { try AccessRule(parsing: line[...]) }
    }

    @Test func descriptionIsTheAccessLine() throws {
        let line = "Access: customer (owner), courier (owner), admin, operator."
        #expect(try AccessRule(parsing: line[...]).description == line)
    }

    @Test func rulesFailListingEveryBadMethod() {
        let methods = [
            MethodDescription(service: "s.S", name: "A", inputType: "", outputType: "", clientStreaming: false, serverStreaming: false,
                              leadingComments: " Access: guest.\n Does A.\n"),
            MethodDescription(service: "s.S", name: "B", inputType: "", outputType: "", clientStreaming: false, serverStreaming: false,
                              leadingComments: " Does B.\n"),
            MethodDescription(service: "s.S", name: "C", inputType: "", outputType: "", clientStreaming: false, serverStreaming: false,
                              leadingComments: ""),
        ]
        do {
            _ = try AccessRules(methods: methods)
            Issue.record("expected an error")
        } catch {
            #expect(error.problems.count == 2)
            #expect(error.problems[0].hasPrefix("s.S/B: "))
            #expect(error.problems[1].hasPrefix("s.S/C: "))
        }
    }

    static let account = RecordID(high: 1, low: 1)
    static let marketplace = RecordID(high: 2, low: 2)

    static func caller(_ active: Set<SoukV1.Role>, pending: Set<SoukV1.Role> = []) -> Caller {
        Caller(accountID: account, marketplaceID: marketplace, sessionID: RecordID(high: 3, low: 3), activeRoles: active, pendingRoles: pending)
    }

    @Test func decisions() throws {
        let ownerOrStaff = try AccessRule(parsing: "Access: customer (owner), admin, operator."[...])
        #expect(ownerOrStaff.decide(for: nil) == .unauthenticated)
        #expect(ownerOrStaff.decide(for: Self.caller([.customer])) == .allowedAsOwner([.customer]))
        #expect(ownerOrStaff.decide(for: Self.caller([.customer, .admin])) == .allowed)
        #expect(ownerOrStaff.decide(for: Self.caller([.operator])) == .allowed)
        let staff = try AccessRule(parsing: "Access: provider, admin, operator."[...])
        #expect(staff.decide(for: Self.caller([.customer])) == .denied(.notAllowed))
        #expect(staff.decide(for: Self.caller([.customer], pending: [.provider])) == .denied(.rolePending))
        #expect(staff.decide(for: Self.caller([.customer], pending: [.courier])) == .denied(.notAllowed))
        let guest = try AccessRule(parsing: "Access: guest."[...])
        #expect(guest.decide(for: nil) == .allowed)
        #expect(guest.decide(for: Self.caller([.customer])) == .allowed)
    }
}
