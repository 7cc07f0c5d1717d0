"""The stock mobile stack: clients/stock-swift, Swift code generated from Proto/ by the stock
plugins (protoc-gen-swift, protoc-gen-grpc-swift-2) and nothing of Souk's own sources, runs a
Chateau Du Nox journey against a real demo server: the customer signs in, browses, is refused
13 bottles (the ErrorInfo reason read from grpc-status-details-bin), buys two, checks out and
follows the order with WatchOrder while the shop ships and delivers it.

The journey binary is built by scripts/test (STOCK_SWIFT_JOURNEY names it); without it the test
is skipped, since building grpc-swift takes minutes."""
import os
import re
import subprocess

import pytest

from conftest import ROOT, IdentityServer, stop_cleanly

SHOP = "Chateau Du Nox"
JOURNEY = os.environ.get("STOCK_SWIFT_JOURNEY")


@pytest.fixture(scope="module")
def demo_server():
    # A server of its own: the journey's sign-ins do not count against the shared demo accounts'
    # sign-in limit, and its access tokens outlive the journey (it does not refresh them).
    s = IdentityServer(access_token_ttl=900)
    yield s
    stop_cleanly(s)


@pytest.mark.skipif(not JOURNEY, reason="STOCK_SWIFT_JOURNEY is unset: scripts/test builds clients/stock-swift and sets it")
def test_the_stock_swift_client_runs_a_shop_journey(demo_server):
    customer = demo_server.demo_login(SHOP, "customer")
    staff = demo_server.demo_login(SHOP, "provider")
    run = subprocess.run(
        [JOURNEY, "--target", demo_server.address,
         "--customer", customer.email, customer.password, "--staff", staff.email, staff.password],
        capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    # Each step the binary checked, in order: the typed answers were right and the shop's
    # changes reached the customer's stream.
    steps = [line for line in run.stdout.splitlines() if line.startswith("stock-journey: ")]
    expected = ["marketplace Chateau Du Nox", "signed in as", "browsed", "refused 13 bottles: invalidArgument, ErrorInfo souk.v1 QUANTITY_LIMIT",
                "cart total", "order CDN-", "watch: pending → shipped", "watch: shipped → delivered",
                "watch: delivered → received", "OK"]
    assert len(steps) == len(expected) and all(e in s for e, s in zip(expected, steps)), out


def test_the_stock_swift_package_links_nothing_of_souk():
    """The journey proves the stock path only if the package depends on the stock packages alone:
    no path dependency on this repository, no source outside clients/stock-swift."""
    manifest = (ROOT / "clients" / "stock-swift" / "Package.swift").read_text()
    dependencies = re.findall(r'\.package\((url|path): "([^"]+)"', manifest)
    assert sorted(url for _, url in dependencies) == [
        "https://github.com/apple/swift-protobuf.git", "https://github.com/grpc/grpc-swift-2.git",
        "https://github.com/grpc/grpc-swift-nio-transport.git", "https://github.com/grpc/grpc-swift-protobuf.git"]
    assert "path:" not in manifest
