import SoukMessages

// The optional numbers of the contract and of the stored records are one-field oneofs (protobuf-c has no proto3 `optional`):
// these read and write them as Swift optionals.

extension SoukV1.AdvanceJobStageRequest {
    /// The loads actually washed, when the request sets them (0 included).
    public var actualLoads: Int32? {
        get { if case .actualLoads(let loads)? = optionalActualLoads { loads } else { nil } }
        set { optionalActualLoads = newValue.map { .actualLoads($0) } }
    }
}

extension SoukV1.QuizQuestion {
    /// The index of the right choice, when set (0 is the first choice).
    public var correctChoice: Int32? {
        get { if case .correctChoice(let choice)? = optionalCorrectChoice { choice } else { nil } }
        set { optionalCorrectChoice = newValue.map { .correctChoice($0) } }
    }
}

extension SoukStoreV1.QuizQuestion {
    /// The index of the right choice, when set (0 is the first choice).
    var correctChoice: Int32? {
        get { if case .correctChoice(let choice)? = optionalCorrectChoice { choice } else { nil } }
        set { optionalCorrectChoice = newValue.map { .correctChoice($0) } }
    }
}
