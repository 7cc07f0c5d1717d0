"""Starts a real souk-server for the end-to-end tests and hands out channels to it."""
import os
import pathlib
import re
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass

import grpc
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def souk_load_binary() -> str:
    """The souk-load binary: $SOUK_LOAD, else the debug build's."""
    return os.environ.get("SOUK_LOAD") or str(ROOT / ".build" / "debug" / "souk-load")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    """The resident set size of a process, in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Server:
    """One souk-server process on loopback with its own data directory (a new one, or `data_dir`
    to start again on the store a stopped server left)."""

    def __init__(self, *extra_args: str, tls: tuple[str, str] | None = None, env: dict | None = None,
                 data_dir: str | None = None):
        self.binary = os.environ.get("SOUK_SERVER") or str(ROOT / ".build" / "debug" / "souk-server")
        self.port = free_port()
        self.metrics_port = free_port()
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="souk-e2e-")
        self.tls = tls
        args = [
            self.binary, "--host", "127.0.0.1", "--port", str(self.port),
            "--metrics-port", str(self.metrics_port), "--data-dir", self.data_dir,
            "--enable-test-service", "--log-level", "warning", *extra_args,
        ]
        if tls:
            args += ["--tls-cert", tls[0], "--tls-key", tls[1]]
        self.log = open(pathlib.Path(self.data_dir + ".log"), "a" if data_dir else "w")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                        env=None if env is None else {**os.environ, **env})
        self._wait_listening()

    def _wait_listening(self):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"souk-server exited with {self.process.returncode}: {self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("souk-server did not start listening")

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def channel(self, **options) -> grpc.Channel:
        return grpc.insecure_channel(self.address, options=list(options.items()))

    def rss_kib(self) -> int:
        return rss_kib(self.process.pid)

    def log_text(self) -> str:
        self.log.flush()
        return pathlib.Path(self.log.name).read_text()

    def stop(self, sig=None, timeout: float = 30) -> int:
        if self.process.poll() is None:
            if sig is None:
                self.process.terminate()
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode


@pytest.fixture(scope="session")
def server():
    s = Server("--handshake-timeout", "2")
    yield s
    code = s.stop()
    assert code == 0, f"souk-server did not stop cleanly ({code}): {s.log_text()[-2000:]}"


@pytest.fixture(scope="session")
def channel(server):
    with server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield ch


# ---- A server with accounts: the platform operator, demo data and short-lived tokens ----

DEMO_MARKETPLACES = ("Aqua Hub", "Chateau Du Nox", "Drip 'n Dash", "MARA", "DineSwift")
DEMO_ROLES = ("customer", "provider", "courier", "admin")
# One line per demo account on the server's stdout (--demo).
DEMO_LINE = re.compile(
    r"^demo login: (?P<marketplace>.+?) \| (?P<role>customer|provider|courier|admin) \| (?P<email>\S+)"
    r" \| (?P<password>\S+) \| marketplace_id=(?P<marketplace_id>[0-9a-f-]{36})\s*$", re.M)


@dataclass(frozen=True)
class DemoLogin:
    """Credentials of one demo account, as printed by `souk-server --demo`."""
    marketplace: str
    role: str
    email: str
    password: str
    marketplace_id: str


class IdentityServer(Server):
    """A souk-server with the demo marketplaces loaded, a platform operator created from the
    environment at first start, access tokens living `access_token_ttl` seconds and a cheap
    password hash (tests create many accounts)."""

    OPERATOR_EMAIL = "operator@souk-e2e.example.com"
    OPERATOR_PASSWORD = "Operat0r!Secret"

    def __init__(self, access_token_ttl: int = 2, *extra: str, data_dir: str | None = None):
        super().__init__(
            "--demo", "--access-token-ttl", str(access_token_ttl), "--password-hash-memory-kib", "8192", *extra,
            env={"SOUK_OPERATOR_EMAIL": self.OPERATOR_EMAIL, "SOUK_OPERATOR_PASSWORD": self.OPERATOR_PASSWORD}, data_dir=data_dir,
        )
        self.access_token_ttl = access_token_ttl
        self.demo = self._read_demo_logins()

    def _read_demo_logins(self, timeout: float = 30) -> dict:
        wanted = {(m, r) for m in DEMO_MARKETPLACES for r in DEMO_ROLES}
        deadline = time.monotonic() + timeout
        while True:
            found = {(m["marketplace"], m["role"]): DemoLogin(**m.groupdict())
                     for m in DEMO_LINE.finditer(self.log_text())}
            if wanted <= found.keys():
                return found
            if time.monotonic() > deadline or self.process.poll() is not None:
                missing = sorted(wanted - found.keys())
                raise RuntimeError(f"souk-server --demo printed no demo login for {missing}: {self.log_text()[-2000:]}")
            time.sleep(0.05)

    def demo_login(self, marketplace: str, role: str) -> DemoLogin:
        return self.demo[(marketplace, role)]

    def marketplace_id(self, marketplace: str) -> str:
        return self.demo[(marketplace, "customer")].marketplace_id


def stop_cleanly(s: Server):
    code = s.stop()
    assert code == 0, f"souk-server did not stop cleanly ({code}): {s.log_text()[-2000:]}"


@pytest.fixture(scope="session")
def identity_server():
    """The accounts server of the identity tests: demo data, operator, 2-second access tokens."""
    s = IdentityServer(access_token_ttl=2)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="session")
def identity_channel(identity_server):
    with identity_server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield ch


@pytest.fixture(scope="module")
def api(identity_channel):
    """The accounts, marketplaces and admin stubs on the identity server; a module that calls more
    services defines its own `api`."""
    from souk_identity import Api
    return Api(identity_channel)


@pytest.fixture(scope="module")
def operator(api, identity_server):
    """The platform operator, signed in on the identity server."""
    from souk_identity import operator_party
    return operator_party(api, identity_server)
