import SoukStore
import Synchronization

/// What the server gives each domain it mounts (`SoukDomain.init(mounting:)`): the store, the
/// settings the server was started with, the domains mounted before, and the values the domains
/// share (the payable kinds, the rated subjects), each found by its type.
public final class DomainContext: Sendable {
    public let store: Store
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init(store: Store) {
        self.store = store
    }

    /// Leaves `value` for the domains to find by its type (a setting of the server, a registry).
    public func provide<Value: Sendable>(_ value: Value) {
        values.withLock { $0[ObjectIdentifier(Value.self)] = value }
    }

    /// The value of type `Value` provided before, or nil.
    public func optional<Value: Sendable>(_ type: Value.Type = Value.self) -> Value? {
        values.withLock { $0[ObjectIdentifier(Value.self)] as? Value }
    }

    /// The value of type `Value` provided before, or the mounted domain of that type; the server
    /// does not start when there is none.
    public func require<Value: Sendable>(_ type: Value.Type = Value.self) throws -> Value {
        guard let value = optional(type) else {
            throw DomainListError(description: "\(Value.self) is needed but was not mounted or provided before")
        }
        return value
    }

    /// The one value of type `Value` the domains share, made by `make` for the first that asks.
    public func shared<Value: Sendable>(_ type: Value.Type = Value.self, _ make: () -> Value) -> Value {
        values.withLock { values in
            if let value = values[ObjectIdentifier(Value.self)] as? Value { return value }
            let value = make()
            values[ObjectIdentifier(Value.self)] = value
            return value
        }
    }

    /// Mounts each domain of `types` in order, each finding the ones before it here.
    public func mount(_ types: [any SoukDomain.Type]) throws -> [any SoukDomain] {
        try types.checkMountOrder()
        return try types.map { type in
            let domain = try type.init(mounting: self)
            values.withLock { $0[ObjectIdentifier(type)] = domain }
            return domain
        }
    }
}
