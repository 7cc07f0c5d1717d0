import Testing
@testable import SoukMessages

/// The souk.v1 wrappers against protoc: protoc's bytes decode to the value, the value packs to them.
@Suite struct SoukV1WrapperTests {
    func check<M: ProtoMessage>(_ value: M, text: String, file: String) throws {
        let golden = try Protoc.encode(M.protoName, text, files: [file])
        #expect(try M(decoding: golden) == value)
        #expect(value.encoded() == golden)
    }

    @Test func accountWithRolesProfilesAndTimes() throws {
        let account = SoukV1.Account(
            id: "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d", marketplaceID: "m", email: "Nguyễn@Example.com",
            givenName: "عبدالله", roles: [
                .init(role: .customer, status: .active),
                .init(role: .courier, status: .rejected, reason: "no licence", requestTime: Timestamp(seconds: 5, nanos: 6)),
            ],
            state: .blocked, rating: .init(count: 0, averageHundredths: 500),
            laundryProfile: .init(campus: "Busch", room: "101"), dasherProfile: .init(age: 20, acceptingRequests: true),
            failedLoginCount: 3, version: 7)
        try check(account, text: #"""
            id: "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d" marketplace_id: "m" email: "Nguyễn@Example.com" given_name: "عبدالله"
            roles { role: ROLE_CUSTOMER status: ROLE_STATUS_ACTIVE }
            roles { role: ROLE_COURIER status: ROLE_STATUS_REJECTED reason: "no licence" request_time { seconds: 5 nanos: 6 } }
            state: ACCOUNT_STATE_BLOCKED rating { average_hundredths: 500 }
            laundry_profile { campus: "Busch" room: "101" } dasher_profile { age: 20 accepting_requests: true }
            failed_login_count: 3 version: 7
            """#, file: "souk/v1/accounts.proto")
    }

    @Test func marketplaceSettingsWithDurationsMoneyAndEnums() throws {
        let marketplace = SoukV1.Marketplace(
            slug: "chateau-du-nox", vertical: .retail, currencyCode: "MYR",
            settings: .init(
                accounts: .init(allowedEmailDomains: ["a.edu", "b.edu"], maxFailedLogins: 5, lockoutDuration: .seconds(900)),
                commerce: .init(
                    taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR"),
                    acceptedPaymentMethods: [.card, .cash])),
            archived: true)
        try check(marketplace, text: #"""
            slug: "chateau-du-nox" vertical: VERTICAL_RETAIL currency_code: "MYR"
            settings {
              accounts { allowed_email_domains: ["a.edu", "b.edu"] max_failed_logins: 5 lockout_duration { seconds: 900 } }
              commerce { tax_rate_bps: 2600 shipping_fee { amount_minor: 5990 currency_code: "MYR" }
                         accepted_payment_methods: [PAYMENT_METHOD_CARD, PAYMENT_METHOD_CASH] }
            }
            archived: true
            """#, file: "souk/v1/marketplaces.proto")
    }

    @Test func requestsWithFieldMasks() throws {
        try check(
            SoukV1.UpdateProfileRequest(
                marketplaceID: "m", account: .init(id: "a", phone: "+966512345678"),
                updateMask: .init(paths: ["phone", "laundry_profile.room"]), expectedVersion: 3),
            text: #"marketplace_id: "m" account { id: "a" phone: "+966512345678" } update_mask { paths: ["phone", "laundry_profile.room"] } expected_version: 3"#,
            file: "souk/v1/accounts.proto")
        try check(
            SoukV1.ListMailOutboxResponse(messages: [.init(id: "x", kind: .passwordReset, status: .pending, attempts: 1)], nextPageToken: "t"),
            text: #"messages { id: "x" kind: MAIL_KIND_PASSWORD_RESET status: MAIL_STATUS_PENDING attempts: 1 } next_page_token: "t""#,
            file: "souk/v1/admin.proto")
    }

    @Test func enumNamesMatchTheContract() {
        #expect(SoukV1.Role.operator.protoName == "ROLE_OPERATOR")
        #expect(SoukV1.ErrorReason(rawValue: 40) == .openObligations)
        #expect(SoukV1.ErrorReason(rawValue: 50) == .internalError)
        #expect(SoukV1.ErrorReason.concurrentChange.protoName == "ERROR_REASON_CONCURRENT_CHANGE")
        #expect(SoukV1.ErrorReason(rawValue: 999) == .unrecognized(999))
        #expect(SoukV1.ResourceType.menuItem.protoName == "RESOURCE_TYPE_MENU_ITEM")
    }

    @Test func everySoukMethodIsDescribedWithItsComment() throws {
        let methods = try DescriptorSet.embedded.methods(inPackage: "souk.v1")
        #expect(Set(methods.map(\.service)).count == 17)
        #expect(methods.count == 230)
        let login = try #require(methods.first { $0.fullName == "souk.v1.Accounts/Login" })
        #expect(login.inputType == "souk.v1.LoginRequest")
        #expect(login.outputType == "souk.v1.Session")
        #expect(!login.clientStreaming && !login.serverStreaming)
        #expect(login.leadingComments.hasPrefix(" Access: guest.\n"))
        #expect(methods.contains { $0.serverStreaming })
    }
}

@Suite struct EmbeddedNULTests {
    @Test func findsNULsInNestedAndRepeatedStrings() throws {
        let clean = SoukV1.SignUpRequest(marketplaceID: "m", email: "a@b.co", givenName: "Ann").encoded()
        #expect(clean.withUnsafeBytes { SoukV1.SignUpRequest.stringFieldContainingNUL(in: $0) } == nil)
        let named = try Protoc.encode("souk.v1.SignUpRequest", #"given_name: "Ann\000e""#, files: ["souk/v1/accounts.proto"])
        #expect(named.withUnsafeBytes { SoukV1.SignUpRequest.stringFieldContainingNUL(in: $0) } == "given_name")
        // What protobuf-c makes of it: the string ends at the NUL.
        #expect(try SoukV1.SignUpRequest(decoding: named).givenName == "Ann")
        let nested = try Protoc.encode(
            "souk.v1.UpdateProfileRequest", #"account { roles { reason: "ok" } roles { reason: "x\000" } }"#, files: ["souk/v1/accounts.proto"])
        #expect(nested.withUnsafeBytes { SoukV1.UpdateProfileRequest.stringFieldContainingNUL(in: $0) } == "account.roles[1].reason")
        let mask = try Protoc.encode("souk.v1.UpdateProfileRequest", #"update_mask { paths: "a" paths: "\000" }"#, files: ["souk/v1/accounts.proto"])
        #expect(mask.withUnsafeBytes { SoukV1.UpdateProfileRequest.stringFieldContainingNUL(in: $0) } == "update_mask.paths[1]")
        // Bytes fields may hold NULs.
        #expect([0x12, 0x01, 0x00].withUnsafeBytes { GRPCTesting.Payload.stringFieldContainingNUL(in: $0) } == nil)
    }
}
