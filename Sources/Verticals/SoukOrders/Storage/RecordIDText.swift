import SoukStore

extension String {
    /// The record id this text holds; nil when empty or not an id.
    package var recordID: RecordID? { RecordID(self) }
}
