import SoukGRPC
import SoukMessages

/// The access rule of every RPC of the contract, read once at startup from the Access lines the
/// embedded descriptor set keeps. The one table both interceptors and the method builder consult.
public struct AccessRules: Sendable {
    /// Every method the rules cover, in declaration order, with its rule.
    public let methods: [MethodDescription]
    private let rules: [MethodDescriptor: AccessRule]

    /// Rules from method descriptions; throws listing every method whose first comment line is
    /// not a valid Access line (the server refuses to start then).
    public init(methods: [MethodDescription]) throws(AccessRulesError) {
        var rules: [MethodDescriptor: AccessRule] = [:]
        var problems: [String] = []
        for method in methods {
            let firstLine = method.leadingComments.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
            do {
                rules[MethodDescriptor(service: method.service, method: method.name)] = try AccessRule(parsing: firstLine)
            } catch {
                problems.append("\(method.fullName): \(error)")
            }
        }
        guard problems.isEmpty else { throw AccessRulesError(problems: problems) }
        self.methods = methods
        self.rules = rules
    }

    /// The rules of every `souk.v1` RPC in the embedded descriptor set.
    public static func contract() throws -> AccessRules {
        try AccessRules(methods: DescriptorSet.embedded.methods(inPackage: "souk.v1"))
    }

    /// The rule of a method; nil for methods outside the contract (health, reflection, tests).
    public func rule(for method: MethodDescriptor) -> AccessRule? {
        rules[method]
    }

    /// The rule of a contract method named by service and method.
    public func rule(service: String, method: String) -> AccessRule? {
        rules[MethodDescriptor(service: service, method: method)]
    }
}

/// Methods of the contract without a valid Access line.
public struct AccessRulesError: Error, Sendable, CustomStringConvertible {
    public var problems: [String]

    public var description: String {
        "invalid access rules in the contract:\n" + problems.joined(separator: "\n")
    }
}
