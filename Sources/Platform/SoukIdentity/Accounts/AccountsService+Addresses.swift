import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

// Saved addresses: an account's address book, archived rather than deleted.
extension AccountsService {
    /// The owner of the address a request names is the account that saved it.
    func addressOwner<Request>(_ addressID: @escaping @Sendable (Request) -> String) -> Ownership<Request> {
        let store = self.store
        return Ownership { request, call, caller, _ in
            let address = try Self.address(addressID(request), in: call, store: store)
            return address.value.subject.accountID == caller.accountID.description
        }
    }

    static func address(_ text: String, in call: SoukCall, store: Store) throws -> StoredRecord<AddressRecord> {
        let id = try RequestFields.id(text, field: "address_id")
        guard let record = try store.get(AddressTable.table, id), record.value.marketplaceID == scopeKey(call) else {
            throw RPCError.notFound("address", text)
        }
        return record
    }

    /// Checks an address; `field` is its path in the request. Every wrong field is named.
    static func validate(_ address: SoukV1.Address?, field: String, needsLocation: Bool) throws -> SoukV1.Address {
        var checks = FieldChecks()
        let address = validate(address, field: field, needsLocation: needsLocation, into: &checks)
        try checks.finish()
        return address ?? SoukV1.Address()
    }

    /// The same checks, recorded into `checks`; nil when the address is missing.
    static func validate(_ address: SoukV1.Address?, field: String, needsLocation: Bool, into checks: inout FieldChecks) -> SoukV1.Address? {
        guard let address else {
            checks.add(field, "is required")
            return nil
        }
        func text(_ value: String, _ name: String, required: Bool = false, max: Int = 200) {
            if value.isEmpty {
                if required { checks.add("\(field).\(name)", "is required") }
            } else if value.count > max {
                checks.add("\(field).\(name)", "must be at most \(max) characters")
            } else if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
                checks.add("\(field).\(name)", "must not contain control characters")
            }
        }
        text(address.label, "label", max: 60)
        if !address.recipientName.isEmpty, let problem = PersonName.problem(with: address.recipientName) {
            checks.add("\(field).recipient_name", problem)
        }
        if !address.phone.isEmpty, let problem = PhoneNumber.problem(with: address.phone) {
            checks.add("\(field).phone", problem)
        }
        text(address.line1, "line1", required: true)
        text(address.line2, "line2")
        text(address.city, "city", required: true, max: 100)
        text(address.region, "region", max: 100)
        text(address.postalCode, "postal_code", max: 20)
        if !address.countryCode.isEmpty, !(address.countryCode.utf8.count == 2 && address.countryCode.allSatisfy { $0.isASCII && $0.isUppercase }) {
            checks.add("\(field).country_code", "must be an ISO 3166-1 alpha-2 code in upper case, such as \"SA\"")
        }
        text(address.deliveryNotes, "delivery_notes", max: 500)
        if let location = address.location {
            checks.require((-90...90).contains(location.latitude), "\(field).location.latitude", "must be between -90 and 90")
            checks.require((-180...180).contains(location.longitude), "\(field).location.longitude", "must be between -180 and 180")
        } else if needsLocation {
            checks.add("\(field).location", "is required in a food-delivery marketplace")
        }
        return address
    }

    /// Clears the default flag on the account's other default address (at most one).
    static func clearDefault(in transaction: Transaction, marketplaceID: String, accountID: String, except: RecordID?) throws {
        let current = try transaction.list(
            AddressTable.table, AddressTable.defaultOfAccount, .starting(with: [.string(marketplaceID), .string(accountID)]),
            limit: PageRequest.maximumSize)
        for address in current where address.id != except {
            try transaction.update(AddressTable.table, address.id) { $0.subject.isDefault = false }
        }
    }

    func createAddress(_ request: SoukV1.CreateAddressRequest, _ call: SoukCall) async throws -> SoukV1.SavedAddress {
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.requestID(request.requestID) }
        let checkedAddress = Self.validate(
            request.address, field: "address", needsLocation: call.marketplace?.vertical == .foodDelivery, into: &checks)
        try checks.finish()
        let (requestID, address) = (checkedID ?? "", checkedAddress ?? SoukV1.Address())
        let scope = Self.scopeKey(call)
        let isDefault = request.isDefault
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: scope, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.SavedAddress>()
        ) { transaction in
            if isDefault { try Self.clearDefault(in: transaction, marketplaceID: scope, accountID: caller.accountID.description, except: nil) }
            let record = try transaction.insert(AddressTable.table, AddressRecord(
                marketplaceID: scope, SoukStoreV1.SavedAddress(accountID: caller.accountID.description, address: address, isDefault: isDefault)))
            return AddressProjection.address(record)
        }
        if !result.replayed {
            logger.info("address saved", metadata: ["address_id": "\(result.value.id)", "account_id": "\(caller.accountID)"])
        }
        return result.value
    }

    func getAddress(_ request: SoukV1.GetAddressRequest, _ call: SoukCall) async throws -> SoukV1.SavedAddress {
        AddressProjection.address(try Self.address(request.addressID, in: call, store: store))
    }

    func listAddresses(_ request: SoukV1.ListAddressesRequest, _ call: SoukCall) async throws -> SoukV1.ListAddressesResponse {
        let caller = try call.requireCaller()
        let accountText = request.accountID.isEmpty ? caller.accountID.description : request.accountID
        var checks = FieldChecks()
        let accountID = try checks.run { try RequestFields.id(accountText, field: "account_id").description } ?? ""
        let scope = Self.scopeKey(call)
        let filters = "account=\(accountID);archived=\(request.showArchived)"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let page = checkedPage ?? PageRequest()
        let result = request.showArchived
            ? try store.list(AddressTable.table, AddressTable.byAccountAll, .starting(with: [.string(scope), .string(accountID)]), page: page)
            : try store.list(
                AddressTable.table, AddressTable.byAccount, .starting(with: [.string(scope), .string(accountID), .bool(false)]), page: page)
        return SoukV1.ListAddressesResponse(
            addresses: result.items.map(AddressProjection.address), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    static let addressFields: Set<String> = [
        "label", "recipient_name", "phone", "line1", "line2", "city", "region", "postal_code", "country_code", "location", "delivery_notes",
    ]

    func updateAddress(_ request: SoukV1.UpdateAddressRequest, _ call: SoukCall) async throws -> SoukV1.SavedAddress {
        let input = request.savedAddress ?? SoukV1.SavedAddress()
        // The ownership rule read the address already (NOT_FOUND, or a malformed id, before these checks).
        let current = try Self.address(input.id, in: call, store: store)
        var checks = FieldChecks()
        let paths = try checks.run {
            try RequestFields.maskPaths(request.updateMask, allowed: Set(["address", "is_default"] + Self.addressFields.map { "address.\($0)" }))
        } ?? []
        let expected = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) } ?? nil
        let needsLocation = call.marketplace?.vertical == .foodDelivery
        let source = input.address ?? SoukV1.Address()
        var proposed = current.value.subject.address ?? SoukV1.Address()
        Self.apply(paths, from: source, to: &proposed)
        _ = Self.validate(proposed, field: "saved_address.address", needsLocation: needsLocation, into: &checks)
        try checks.finish()
        let scope = Self.scopeKey(call)
        let setsDefault = paths.contains("is_default") ? input.isDefault : nil
        let record = try await store.write { transaction in
            let stored = try transaction.require(AddressTable.table, current.id)
            if let expected, expected != stored.version {
                throw RPCError.staleVersion("address", current.id.description, expected: expected, actual: stored.version)
            }
            guard !stored.value.subject.archived else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "the address is archived; restore it first")
            }
            if setsDefault == true {
                try Self.clearDefault(in: transaction, marketplaceID: scope, accountID: stored.value.subject.accountID, except: stored.id)
            }
            return try transaction.update(AddressTable.table, current.id) { value in
                var address = value.subject.address ?? SoukV1.Address()
                Self.apply(paths, from: source, to: &address)
                value.subject.address = address
                if let setsDefault { value.subject.isDefault = setsDefault }
            }
        }
        logger.info("address updated", metadata: ["address_id": "\(record.id)", "version": "\(record.version)"])
        return AddressProjection.address(record)
    }

    private static func apply(_ paths: [String], from source: SoukV1.Address, to address: inout SoukV1.Address) {
        for path in paths {
            switch path {
            case "address": address = source
            case "address.label": address.label = source.label
            case "address.recipient_name": address.recipientName = source.recipientName
            case "address.phone": address.phone = source.phone
            case "address.line1": address.line1 = source.line1
            case "address.line2": address.line2 = source.line2
            case "address.city": address.city = source.city
            case "address.region": address.region = source.region
            case "address.postal_code": address.postalCode = source.postalCode
            case "address.country_code": address.countryCode = source.countryCode
            case "address.location": address.location = source.location
            case "address.delivery_notes": address.deliveryNotes = source.deliveryNotes
            default: break
            }
        }
    }

    func setAddressArchived(_ archived: Bool, _ addressID: String, _ expectedVersion: Int64, _ call: SoukCall) async throws -> SoukV1.SavedAddress {
        let current = try Self.address(addressID, in: call, store: store)
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let record = try await store.write { transaction in
            let stored = try transaction.require(AddressTable.table, current.id)
            if let expected, expected != stored.version {
                throw RPCError.staleVersion("address", current.id.description, expected: expected, actual: stored.version)
            }
            guard stored.value.subject.archived != archived else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, archived ? "the address is already archived" : "the address is not archived")
            }
            return try transaction.update(AddressTable.table, current.id) { value in
                value.subject.archived = archived
                value.subject.archiveTime = archived ? Timestamp(transaction.now) : nil
                if archived { value.subject.isDefault = false }
            }
        }
        logger.info(archived ? "address archived" : "address restored", metadata: ["address_id": "\(record.id)"])
        return AddressProjection.address(record)
    }
}
