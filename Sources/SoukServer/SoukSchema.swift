import SoukIdentity
import SoukMedia
import SoukStore
import SoukStoreTools

/// Every table the server stores, and the folders of files beside them, for the server and for
/// the `store` commands (backups copy the folders too). Domain modules add theirs here as they
/// are built.
enum SoukSchema: StoreSchemaProvider {
    static var schema: Schema { Schema(Identity.tables + Media.tables, fileFolders: Media.fileFolders) }
}
