import SoukGRPC
import SoukKit
import SoukStore

/// Who talks about an order (messaging asks; it never reads the orders tables): its customer,
/// its seller (a restaurant's owner) and its courier.
struct OrderConversations: ConversationSubject {
    func parties(of id: RecordID, marketplaceID: RecordID, reader: any RecordLookup) throws -> SubjectParties {
        guard let order = try reader.get(OrderTable.table, id), order.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("order", id.description)
        }
        let stored = order.value.subject
        return SubjectParties(
            accountIDs: [stored.customerAccountID, stored.sellerAccountID, stored.courierAccountID], title: "Order \(stored.orderNumber)")
    }
}

/// Who talks about a delivery: its courier and its order's customer and seller.
struct DeliveryConversations: ConversationSubject {
    func parties(of id: RecordID, marketplaceID: RecordID, reader: any RecordLookup) throws -> SubjectParties {
        guard let delivery = try reader.get(DeliveryTable.table, id), delivery.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("delivery", id.description)
        }
        var parties = SubjectParties(accountIDs: [delivery.value.subject.courierAccountID], title: "Delivery")
        if let orderID = RecordID(delivery.value.subject.orderID),
           let order = try? OrderConversations().parties(of: orderID, marketplaceID: marketplaceID, reader: reader) {
            parties.accountIDs.formUnion(order.accountIDs)
            parties.title = "Delivery of \(order.title.lowercased().hasPrefix("order ") ? String(order.title.dropFirst(6)) : order.title)"
        }
        return parties
    }
}
