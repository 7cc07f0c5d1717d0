import SoukEtcd
import SoukKit

/// Several nodes on one etcd cluster run the timers and scheduled jobs on the lease's holder only.
extension EtcdLeaseElection: RunnerElection {}
