import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukTesting
import Testing
@testable import SoukMessaging

@Suite struct TypingIndicatorTests {
    /// Two watchers of one conversation: what each receives, read without waiting.
    private func drain(_ events: AsyncStream<SoukV1.ConversationEvent>, count: Int) async -> [SoukV1.ConversationEvent] {
        var received: [SoukV1.ConversationEvent] = []
        var iterator = events.makeAsyncIterator()
        while received.count < count, let event = await iterator.next() { received.append(event) }
        return received
    }

    @Test(.timeLimit(.minutes(1))) func atMostOneTypingPerSenderEveryTwoSecondsAndStoppedAlwaysFollows() async throws {
        let clock = ManualClock()
        let indicators = TypingIndicators(clock: { clock.now })
        let conversation = RecordID.generate()
        let (lessorToken, lessorEvents) = indicators.join(conversation, as: "lessor")
        let (lesseeToken, lesseeEvents) = indicators.join(conversation, as: "lessee")

        #expect(indicators.publish(conversation, from: "lessee", typing: true))
        #expect(!indicators.publish(conversation, from: "lessee", typing: true))   // within 2 s: dropped
        clock.advance(.milliseconds(1_999))
        #expect(!indicators.publish(conversation, from: "lessee", typing: true))
        #expect(indicators.publish(conversation, from: "lessee", typing: false))  // a stop after a typing goes through
        #expect(!indicators.publish(conversation, from: "lessee", typing: false)) // nothing to stop
        #expect(!indicators.publish(conversation, from: "lessee", typing: true))  // within 2 s of the stop forwarded
        clock.advance(.milliseconds(1_999))
        #expect(!indicators.publish(conversation, from: "lessee", typing: true))
        clock.advance(.milliseconds(1))
        #expect(indicators.publish(conversation, from: "lessee", typing: true))
        // The lessee's stream ends while typing: the lessor is told it stopped.
        indicators.leave(conversation, token: lesseeToken)

        let seen = await drain(lessorEvents, count: 4)
        #expect(seen.map { $0.sequence } == [0, 0, 0, 0])
        let typing = seen.compactMap { event -> SoukV1.TypingIndicator? in
            if case .typing(let indicator)? = event.event { return indicator }
            return nil
        }
        #expect(typing.map(\.typing) == [true, false, true, false])
        #expect(typing.allSatisfy { $0.accountID == "lessee" })
        #expect(seen[0].eventTime.map { StoreTime($0).microsecondsSinceEpoch + TypingIndicators.lapse }
            == typing[0].expireTime.map { StoreTime($0).microsecondsSinceEpoch })
        // A sender never gets its own indicators back.
        indicators.leave(conversation, token: lessorToken)
        #expect(await drain(lesseeEvents, count: 1).isEmpty)
        #expect(indicators.watchedConversations == 0)
    }
}

@Suite struct UnreadCounterTests {
    /// Random messages and read marks between a customer and an admin: after each step every
    /// participant's unread count (per conversation and in total) equals a recount of the
    /// messages of the other after their read mark.
    @Test func countersEqualARecount() async throws {
        let harness = try DomainHarness(domainTypes: [Notifications.self, Messaging.self], makeDomains: { identity in
            [Notifications(store: identity.store), Messaging(store: identity.store)]
        })
        let marketplace = try await harness.marketplace(slug: "mara", vertical: .rentals, currency: "VND")
        let admin = try await harness.adminToken(marketplace, email: "admin@mara.example")
        let customer = try await harness.token(.customer, in: marketplace)
        func me(_ token: String) async throws -> String {
            let account: SoukV1.Account = try await harness.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: token)
            return account.id
        }
        let customerID = try await me(customer)
        func messaging<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, _ token: String) async throws -> Response {
            try await harness.call("souk.v1.Messaging", method, request, token: token)
        }
        let opened: SoukV1.Conversation = try await messaging("CreateConversation", SoukV1.CreateConversationRequest(
            marketplaceID: marketplace.id, requestID: "open", participantAccountIDs: [customerID]), admin)
        var generator = SplitMix(seed: 27)
        let people = [admin, customer]
        for step in 0..<60 {
            let token = people[Int(generator.next() % 2)]
            if generator.next() % 3 == 0 {
                let current: SoukV1.Conversation = try await messaging(
                    "GetConversation", SoukV1.GetConversationRequest(marketplaceID: marketplace.id, conversationID: opened.id), token)
                let through = Int64(generator.next() % UInt64(max(1, current.lastSequence))) + 1
                let _: SoukV1.ReadReceipt = try await messaging("MarkConversationRead", SoukV1.MarkConversationReadRequest(
                    marketplaceID: marketplace.id, conversationID: opened.id, throughSequence: through), token)
            } else {
                let _: SoukV1.Message = try await messaging("SendMessage", SoukV1.SendMessageRequest(
                    marketplaceID: marketplace.id, requestID: "m\(step)", conversationID: opened.id, text: "message \(step)"), token)
            }
            let history: SoukV1.ListMessagesResponse = try await messaging(
                "ListMessages", SoukV1.ListMessagesRequest(marketplaceID: marketplace.id, pageSize: 100, conversationID: opened.id), admin)
            for token in people {
                let id = try await me(token)
                let listed: SoukV1.ListConversationsResponse = try await messaging(
                    "ListConversations", SoukV1.ListConversationsRequest(marketplaceID: marketplace.id), token)
                let conversation = try #require(listed.conversations.first)
                let mark = conversation.readReceipts.first { $0.accountID == id }?.throughSequence ?? 0
                let recount = history.messages.filter { $0.senderAccountID != id && $0.sequence > mark }.count
                #expect(Int(conversation.unreadCount) == recount, "step \(step)")
                #expect(listed.totalUnreadCount == Int64(recount), "step \(step)")
            }
        }
    }
}

/// A small seeded generator, so a failure repeats.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
