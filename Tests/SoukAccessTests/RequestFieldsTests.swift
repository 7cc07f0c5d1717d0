import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing
@testable import SoukAccess
import SoukKit

@Suite struct RequestFieldsTests {
    @Test func pageTokensAreBoundToTheirFilters() throws {
        let token = RequestFields.nextPageToken("abc", filters: "role=2")
        #expect(try RequestFields.page(size: 0, token: token, filters: "role=2") == PageRequest(size: 20, token: "abc"))
        #expect(throws: RPCError.self) { try RequestFields.page(size: 0, token: token, filters: "role=3") }
        #expect(throws: RPCError.self) { try RequestFields.page(size: 0, token: "abc", filters: "role=2") }
        #expect(RequestFields.nextPageToken(nil, filters: "x") == "")
    }

    @Test func pageSizes() throws {
        #expect(try RequestFields.page(size: 0, token: "", filters: "").size == 20)
        #expect(try RequestFields.page(size: 500, token: "", filters: "").size == 100)
        #expect(try RequestFields.page(size: 7, token: "", filters: "").size == 7)
        do {
            _ = try RequestFields.page(size: -1, token: "", filters: "")
            Issue.record("negative page size accepted")
        } catch let error as RPCError {
            #expect(error.code == .invalidArgument)
            #expect(error.fieldViolations.first?.field == "page_size")
        }
    }

    @Test func requestIDs() throws {
        #expect(try RequestFields.requestID("0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d") == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        #expect(throws: RPCError.self) { try RequestFields.requestID("") }
        #expect(throws: RPCError.self) { try RequestFields.requestID(String(repeating: "a", count: 65)) }
        #expect(throws: RPCError.self) { try RequestFields.requestID("has space") }
    }

    @Test func versionsAndIDs() throws {
        #expect(try RequestFields.expectedVersion(0) == nil)
        #expect(try RequestFields.expectedVersion(3) == 3)
        #expect(throws: RPCError.self) { try RequestFields.expectedVersion(-1) }
        #expect(try RequestFields.id("0190F3A4-7C1E-7D2A-9B3C-5E6F7A8B9C0D", field: "x").description == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        #expect(throws: RPCError.self) { try RequestFields.id("nope", field: "x") }
        #expect(try RequestFields.optionalID("", field: "x") == nil)
    }

    @Test func masks() throws {
        #expect(try RequestFields.maskPaths(.init(paths: ["a"]), allowed: ["a", "b"]) == ["a"])
        #expect(throws: RPCError.self) { try RequestFields.maskPaths(.init(paths: []), allowed: ["a"]) }
        #expect(throws: RPCError.self) { try RequestFields.maskPaths(nil, allowed: ["a"]) }
        #expect(throws: RPCError.self) { try RequestFields.maskPaths(.init(paths: ["version"]), allowed: ["a"]) }
    }

    @Test func domainErrorsCarryTheirDetail() throws {
        let error = RPCError.invalidField("lines[0].quantity", "must be between 1 and 12", reason: .quantityLimit)
        #expect(error.code == .invalidArgument)
        #expect(error.message == "lines[0].quantity: must be between 1 and 12")
        #expect(error.fieldViolations == [FieldViolation(field: "lines[0].quantity", description: "must be between 1 and 12")])
        #expect(error.errorInfo == GoogleRPC.ErrorInfo(reason: "QUANTITY_LIMIT", domain: "souk.v1", metadata: ["field": "lines[0].quantity"]))
        #expect(error.soukReason == .quantityLimit)
        let locked = RPCError.souk(.resourceExhausted, .accountLocked, "locked", retryDelay: .seconds(9))
        #expect(locked.retryDelay == .seconds(9))
        #expect(locked.errorInfo == GoogleRPC.ErrorInfo(reason: "ACCOUNT_LOCKED", domain: "souk.v1"))
        #expect(locked.fieldViolations.isEmpty && locked.message == "locked")
    }

    @Test func storeErrorMapping() {
        func code(_ error: StoreError) -> StatusCode? { (rpcError(from: error) as? RPCError)?.code }
        #expect(code(.notFound(table: "accounts", id: RecordID(high: 1, low: 1))) == .notFound)
        #expect(code(.conflict("x")) == .aborted)
        #expect(code(.uniqueViolation(index: "i", existing: RecordID(high: 1, low: 1))) == .alreadyExists)
        #expect(code(.idempotencyKeyReused(key: "k")) == .invalidArgument)
        #expect(code(.invalidPageToken) == .invalidArgument)
        #expect(code(.closed) == .unavailable)
        #expect(code(.rocksDB(operation: "get", message: "io")) == .internalError)
        #expect((rpcError(from: RPCError(.notFound, "x")) as? RPCError) == RPCError(.notFound, "x"))
    }

    @Test func timestampsAndStoreTimes() {
        let time = StoreTime(microsecondsSinceEpoch: 1_700_000_000_123_456)
        #expect(Timestamp(time) == Timestamp(seconds: 1_700_000_000, nanos: 123_456_000))
        #expect(StoreTime(Timestamp(time)) == time)
    }
}

/// The privacy rules on other parties (`Parties`).
@Suite struct PartiesTests {
    @Test func namesFollowTheMarketplacesRule() {
        #expect(Parties.displayName(given: "Sara", family: "Khan", vertical: .foodDelivery) == "Sara K.")
        #expect(Parties.displayName(given: "Sara", family: "", vertical: .rentals) == "Sara")
        #expect(Parties.displayName(given: "Sara", family: "Khan", vertical: .laundry) == "Sara")
        #expect(Parties.displayName(given: "Mỹ", family: "Đặng", vertical: .rentals) == "Mỹ Đ.")
        let account = SoukV1.Account(
            id: "a", email: "sara@example.com", givenName: "Sara", familyName: "Khan", phone: "+15555550100", avatarMediaID: "m")
        let summary = Parties.summary(of: account, vertical: .retail)
        #expect(summary == SoukV1.PersonSummary(accountID: "a", displayName: "Sara K.", avatarMediaID: "m", rating: nil))
    }

    @Test func anAddressPhoneReachesProviderAndCourierOnlyWhileTheOrderIsActive() {
        let address = SoukV1.Address(recipientName: "Sara", phone: "+966512345678", line1: "1 Main St")
        for active in [true, false] {
            #expect(Parties.address(address, for: .customerOrAdmin, orderIsActive: active).phone == "+966512345678")
            #expect(Parties.address(address, for: .providerOrCourier, orderIsActive: active).phone == (active ? "+966512345678" : ""))
            #expect(Parties.address(address, for: .other, orderIsActive: active).phone == "")
            #expect(Parties.address(address, for: .other, orderIsActive: active).line1 == "1 Main St")
        }
    }
}
