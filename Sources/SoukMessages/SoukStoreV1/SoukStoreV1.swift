/// Swift types for `souk.store.v1`, the records the tables store (`Proto/souk/store/v1`). They
/// are not part of the contract: no RPC sends them, reflection does not list them, and each
/// service answers with a projection of them onto the contract's messages (see the storage
/// part of Sources/SoukKit/ADDING-A-SERVICE.md). One file per proto file.
public enum SoukStoreV1 {}
