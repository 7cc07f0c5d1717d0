import SoukIdentity
import SoukStore
import SoukStoreTools

/// Every table the server stores, for the server and for the `store` commands.
/// Domain modules add their tables here as they are built.
enum SoukSchema: StoreSchemaProvider {
    static var schema: Schema { Schema(Identity.tables) }
}
