/// Swift types for etcd's v3 API (`Proto/etcd`, vendored from etcd v3.4), which the etcd store
/// engine's client (Sources/SoukEtcd) sends and receives. They are not part of the contract: no
/// RPC of Souk's serves them and reflection does not list them. One file per proto file.
public enum Etcdserverpb {}

/// Swift types for etcd's `mvccpb` package: stored key-values and watch events.
public enum Mvccpb {}

/// Swift types for etcd's `authpb` package: users, roles and permissions.
public enum Authpb {}
