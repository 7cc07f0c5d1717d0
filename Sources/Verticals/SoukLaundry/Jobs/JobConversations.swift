import SoukGRPC
import SoukKit
import SoukStore

/// Who talks about a laundry job (messaging asks; it never reads the jobs table): its customer
/// and its Dasher once one accepted it.
struct JobConversations: ConversationSubject {
    func parties(of id: RecordID, marketplaceID: RecordID, reader: any RecordLookup) throws -> SubjectParties {
        guard let job = try reader.get(JobTable.table, id), job.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("job", id.description)
        }
        return SubjectParties(accountIDs: [job.value.subject.customerAccountID, job.value.subject.dasherAccountID], title: "Laundry job")
    }
}
