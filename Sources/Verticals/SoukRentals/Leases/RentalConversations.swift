import SoukGRPC
import SoukKit
import SoukStore

/// Who talks about a booking (messaging asks; it never reads the rentals tables): its lessee and
/// its lessor.
struct BookingConversations: ConversationSubject {
    func parties(of id: RecordID, marketplaceID: RecordID, reader: any RecordLookup) throws -> SubjectParties {
        guard let booking = try reader.get(BookingTable.table, id), booking.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("booking", id.description)
        }
        let stored = booking.value.subject
        return SubjectParties(accountIDs: [stored.lesseeAccountID, stored.lessorAccountID], title: stored.listingTitle)
    }
}

/// Who talks about a listing: its lessor, with any account of the marketplace that asks about it
/// (a prospective lessee).
struct ListingConversations: ConversationSubject {
    func parties(of id: RecordID, marketplaceID: RecordID, reader: any RecordLookup) throws -> SubjectParties {
        guard let listing = try reader.get(ListingTable.table, id), listing.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("listing", id.description)
        }
        return SubjectParties(accountIDs: [listing.value.subject.ownerAccountID], openToAnyone: true, title: listing.value.subject.title)
    }
}
