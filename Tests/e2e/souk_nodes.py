"""Two souk-server nodes on one fresh 3-member etcd cluster (scripts/etcd-cluster), as module
fixtures: a test module imports `etcd`, `nodes` and `channels` and gets a cluster of its own.
Node A loads the demo marketplaces (and knows the operator); node B serves the same store. Also
`race`, which runs calls on threads released together."""
import os
import shutil
import subprocess
import tempfile

import grpc
import pytest

from conftest import ROOT, IdentityServer, Server, stop_cleanly

CLUSTER = str(ROOT / "scripts" / "etcd-cluster")


@pytest.fixture(scope="module")
def etcd(request):
    """A fresh cluster of this module's own: the store URL. A module that sets ETCD_MAX_TXN_OPS
    gets members with that --max-txn-ops (etcd's own default is 128; scripts/etcd-cluster's 8192)."""
    directory = tempfile.mkdtemp(prefix="souk-etcd-")
    max_txn_ops = getattr(request.module, "ETCD_MAX_TXN_OPS", None)
    env = None if max_txn_ops is None else {**os.environ, "SOUK_ETCD_MAX_TXN_OPS": str(max_txn_ops)}
    url = subprocess.run([CLUSTER, "start", directory], check=True, capture_output=True, text=True, env=env).stdout.strip()
    yield url
    subprocess.run([CLUSTER, "stop", directory], check=False)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def nodes(etcd):
    """Node A loads the demo marketplaces; node B serves the same store."""
    a = IdentityServer(60, "--store", etcd)
    b = Server("--store", etcd, "--password-hash-memory-kib", "8192")
    yield a, b
    stop_cleanly(b)
    stop_cleanly(a)


@pytest.fixture(scope="module")
def channels(nodes):
    """A channel to node A and one to node B, ready."""
    a, b = nodes
    with a.channel() as ca, b.channel() as cb:
        for ch in (ca, cb):
            grpc.channel_ready_future(ch).result(timeout=30)
        yield ca, cb
