"""The `souk` command-line client against a demo server: sign-in into a 0600 profile, token
refresh, any RPC called with JSON in and out, a server stream printed as it arrives while another
party changes the order, errors as exit codes and JSON, and the everyday commands as tables and
as JSON."""
import base64
import hashlib
import json
import os
import pathlib
import queue
import shutil
import stat
import subprocess
import threading
import uuid

import pytest

from conftest import ROOT, IdentityServer, Server, stop_cleanly

SHOP = "Chateau Du Nox"
CUSTOMER = ("customer@chateaudunox.example", "Chateau-customer-2026")
STAFF = ("sommelier@chateaudunox.example", "Chateau-provider-2026")
ADMIN = ("admin@chateaudunox.example", "Chateau-admin-2026")
TIMEOUT = 60


@pytest.fixture(scope="module")
def demo():
    """A demo server of its own (tokens living ten minutes, so no call races an expiry)."""
    s = IdentityServer(access_token_ttl=600)
    yield s
    stop_cleanly(s)


class Souk:
    """Runs the `souk` binary with its profiles in a temporary configuration directory."""

    def __init__(self, server, config: pathlib.Path):
        self.binary = os.environ.get("SOUK_CLI") or str(ROOT / ".build" / "debug" / "souk")
        self.server = server
        self.env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
        self.env.pop("SOUK_PROFILE", None)
        self.config = config

    def run(self, *args, profile=None, input=None, env=None, check=True) -> subprocess.CompletedProcess:
        where = ["--profile", profile] if profile else []
        done = subprocess.run([self.binary, *args, *where], capture_output=True, text=True, input=input,
                              timeout=TIMEOUT, env={**self.env, **(env or {})})
        if check:
            assert done.returncode == 0, f"souk {' '.join(args)} exited {done.returncode}: {done.stderr}"
        return done

    def json(self, *args, **kwargs):
        return json.loads(self.run(*args, **kwargs).stdout)

    def login(self, profile, email, password, marketplace=SHOP):
        where = ["--marketplace", marketplace] if marketplace else []
        return self.json("login", "--target", self.server.address, *where, "--email", email, "--json",
                         profile=profile, env={"SOUK_PASSWORD": password})

    def profile_file(self, profile) -> pathlib.Path:
        return self.config / "souk" / f"{profile}.json"


@pytest.fixture(scope="module")
def souk(demo, tmp_path_factory):
    cli = Souk(demo, tmp_path_factory.mktemp("souk-config"))
    cli.login("customer", *CUSTOMER)
    cli.login("staff", *STAFF)
    cli.login("admin", *ADMIN)
    return cli


def test_login_keeps_the_session_in_a_private_file(souk, demo):
    answer = souk.login("fresh", *CUSTOMER)
    assert answer["marketplaceId"] == demo.marketplace_id(SHOP)
    assert answer["account"]["email"] == CUSTOMER[0]
    path = souk.profile_file("fresh")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = json.loads(path.read_text())
    assert saved["accessToken"] and saved["refreshToken"] and saved["target"] == demo.address

    me = souk.json("whoami", "--json", profile="fresh")
    assert me["email"] == CUSTOMER[0] and me["marketplaceId"] == demo.marketplace_id(SHOP)

    # An access token about to expire (here: any, with a margin longer than its life) is renewed
    # with the refresh token before the call, and the new pair saved.
    souk.run("whoami", profile="fresh", env={"SOUK_REFRESH_MARGIN": "100000"})
    renewed = json.loads(path.read_text())
    assert renewed["accessToken"] != saved["accessToken"] and renewed["refreshToken"] != saved["refreshToken"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    out = souk.run("logout", profile="fresh").stdout
    assert "signed out" in out and not path.exists()
    gone = souk.run("whoami", profile="fresh", check=False)
    assert gone.returncode == 1 and "souk login" in gone.stderr


def test_operator_signs_in_without_a_marketplace(souk):
    answer = souk.login("operator", IdentityServer.OPERATOR_EMAIL, IdentityServer.OPERATOR_PASSWORD, marketplace=None)
    assert answer["marketplaceId"] == "" and answer["account"]["email"] == IdentityServer.OPERATOR_EMAIL
    names = {m["displayName"] for m in souk.json("marketplaces", "list", "--json", profile="operator")["marketplaces"]}
    assert {"Aqua Hub", "Chateau Du Nox", "Drip 'n Dash", "MARA", "DineSwift"} <= names

    created = souk.json("marketplaces", "create", "--slug", "cli-corner-shop", "--name", "CLI Corner Shop", "--vertical", "retail",
                        "--currency", "USD", "--time-zone", "America/New_York", "--json", profile="operator")
    assert created["slug"] == "cli-corner-shop" and created["vertical"] == "VERTICAL_RETAIL"
    table = souk.run("shops", profile="operator").stdout
    assert "cli-corner-shop" in table and "RETAIL" in table
    # The slug is taken now: ALREADY_EXISTS.
    again = souk.run("marketplaces", "create", "--slug", "cli-corner-shop", "--name", "Again", "--vertical", "retail",
                     "--currency", "USD", "--time-zone", "America/New_York", profile="operator", check=False)
    assert again.returncode == 10 + 6 and "ALREADY_EXISTS" in again.stderr


def test_call_takes_json_and_prints_json(souk, tmp_path):
    # The profile's marketplace fills the empty marketplace_id.
    request = '{"pageSize": 3, "orderBy": "price"}'
    page = souk.json("call", "souk.v1.Catalog/ListProducts", "-d", request, profile="customer")
    prices = [int(p["price"]["amountMinor"]) for p in page["products"]]
    assert len(prices) == 3 and prices == sorted(prices) and page["products"][0]["price"]["currencyCode"] == "MYR"

    # The same request from a file and from stdin; --compact prints one line.
    (tmp_path / "request.json").write_text(request)
    from_file = souk.run("call", "souk.v1.Catalog/ListProducts", "-d", f"@{tmp_path / 'request.json'}", "--compact",
                         profile="customer").stdout
    assert from_file.count("\n") == 1 and json.loads(from_file)["products"] == page["products"]
    from_stdin = souk.json("call", "souk.v1.Catalog/ListProducts", "-d", "@-", profile="customer", input=request)
    assert from_stdin["products"] == page["products"]

    # Request metadata: a guest's localized message follows accept-language.
    bad = souk.run("call", "souk.v1.Catalog/GetProduct", "-d", '{"productId": "x"}', "-H", "accept-language: vi", "--anonymous",
                   profile="customer", check=False)
    assert json.loads(bad.stdout)["error"]["localizedMessage"]["locale"] == "vi"

    # A request that is not valid JSON for the message is refused before any call, naming the field.
    wrong = souk.run("call", "souk.v1.Catalog/ListProducts", "-d", '{"pageSize": "many"}', profile="customer", check=False)
    assert wrong.returncode == 1 and "page_size" in wrong.stderr


def test_an_error_has_its_own_exit_code_and_json(souk):
    invalid = souk.run("call", "souk.v1.Orders/GetOrder", "-d", '{"orderId": "not-a-uuid"}', profile="customer", check=False)
    assert invalid.returncode == 10 + 3  # INVALID_ARGUMENT
    error = json.loads(invalid.stdout)["error"]
    assert error["code"] == "INVALID_ARGUMENT" and error["reason"] == "FIELD_INVALID"
    assert [v["field"] for v in error["fieldViolations"]] == ["order_id"]
    assert error["localizedMessage"]["message"]
    assert "field order_id:" in invalid.stderr and "reason: FIELD_INVALID" in invalid.stderr

    missing = souk.run("orders", "show", "01a21a8d-0000-7000-8000-000000000000", "--json", profile="customer", check=False)
    assert missing.returncode == 10 + 5  # NOT_FOUND
    assert json.loads(missing.stdout)["error"]["code"] == "NOT_FOUND"

    # A stream that does not end by itself, under --deadline: DEADLINE_EXCEEDED.
    watched = souk.run("call", "souk.v1.Notifications/WatchAccount", "--deadline", "1s", "--compact", profile="customer", check=False)
    assert watched.returncode == 10 + 4 and json.loads(watched.stdout.splitlines()[-1])["error"]["code"] == "DEADLINE_EXCEEDED"

    # A guest's call of a signed-in RPC: UNAUTHENTICATED.
    guest = souk.run("call", "souk.v1.Accounts/GetMe", "--anonymous", profile="customer", check=False)
    assert guest.returncode == 10 + 16 and json.loads(guest.stdout)["error"]["code"] == "UNAUTHENTICATED"


def read_lines(process: subprocess.Popen, into: queue.Queue):
    for line in process.stdout:
        into.put(line)
    into.put(None)


def test_an_order_placed_and_watched_as_the_shop_moves_it(souk):
    souk.run("cart", "clear", profile="customer")
    wine = souk.json("products", "--order-by", "price", "--limit", "1", "--json", profile="customer")["products"][0]
    cart = souk.json("cart", "add", wine["id"], "--quantity", "2", "--json", profile="customer")
    assert cart["lines"][0]["quantity"] == 2
    order = souk.json("checkout", "--card", "tok_visa", "--recipient", "Aisyah", "--line1", "12 Jalan Ampang",
                      "--city", "Kuala Lumpur", "--country", "MY", "--json", profile="customer")
    assert order["status"] == "ORDER_STATUS_PENDING"

    # The customer watches; each change the shop makes is printed as it arrives.
    watch = subprocess.Popen([souk.binary, "orders", "watch", order["id"], "--json", "--count", "3", "--profile", "customer"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=souk.env)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_lines, args=(watch, lines), daemon=True).start()
    try:
        first = json.loads(lines.get(timeout=TIMEOUT))
        assert first["order"]["id"] == order["id"] and first["order"]["status"] == "ORDER_STATUS_PENDING"

        shipped = souk.json("orders", "ship", order["id"], "--carrier", "Pos Laju", "--tracking", "EP1", "--json", profile="staff")
        assert shipped["status"] == "ORDER_STATUS_SHIPPED"
        second = json.loads(lines.get(timeout=TIMEOUT))
        assert second["order"]["status"] == "ORDER_STATUS_SHIPPED" and int(second["sequence"]) > int(first["sequence"])

        souk.run("orders", "deliver", order["id"], profile="staff")
        third = json.loads(lines.get(timeout=TIMEOUT))
        assert third["order"]["status"] == "ORDER_STATUS_DELIVERED"
        assert lines.get(timeout=TIMEOUT) is None  # --count 3: the watch ends by itself
        assert watch.wait(timeout=TIMEOUT) == 0
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait()

    # The same order in the tables.
    shown = souk.run("orders", "show", order["id"], profile="customer").stdout
    assert "DELIVERED" in shown and order["orderNumber"] in shown
    listed = souk.run("orders", "list", "--status", "delivered", profile="customer").stdout
    assert listed.splitlines()[0].split()[:3] == ["ID", "NUMBER", "STATUS"] and order["id"] in listed
    as_json = souk.json("orders", "list", "--status", "delivered", "--json", profile="customer")
    assert order["id"] in [o["id"] for o in as_json["orders"]]
    confirmed = souk.json("orders", "confirm", order["id"], "--json", profile="customer")
    assert confirmed["status"] == "ORDER_STATUS_RECEIVED"


def test_browse_tables_and_json(souk):
    table = souk.run("products", "--order-by", "price", "--limit", "3", profile="customer").stdout.splitlines()
    assert table[0].split() == ["ID", "NAME", "CATEGORY", "PRICE", "AVAILABLE"]
    as_json = souk.json("products", "--order-by", "price", "--limit", "3", "--json", profile="customer")
    assert [p["id"] for p in as_json["products"]] == [row.split()[0] for row in table[1:4]]
    assert "MYR" in table[1]

    shops = souk.run("shops", profile="customer").stdout
    for name in ("Aqua Hub", "Chateau Du Nox", "Drip 'n Dash", "MARA", "DineSwift"):
        assert name in shops
    restaurants = souk.json("restaurants", "--marketplace", "DineSwift", "--json", profile="customer")["restaurants"]
    assert any(r["restaurant"]["name"] == "Pizza Roma" for r in restaurants)


def test_list_and_describe_read_the_contract(souk):
    services = {s["name"] for s in souk.json("list", "--json")["services"]}
    assert {"souk.v1.Orders", "souk.v1.Catalog", "souk.v1.Laundry"} <= services
    orders = souk.json("describe", "souk.v1.Orders", "--json")
    watch = next(m for m in orders["methods"] if m["name"] == "WatchOrder")
    assert watch["serverStreaming"] and not watch["clientStreaming"] and watch["responseType"] == "souk.v1.OrderEvent"
    assert watch["access"].startswith("customer (owner)")
    text = souk.run("describe", "souk.v1.Orders").stdout
    assert "rpc WatchOrder(souk.v1.WatchOrderRequest) returns (stream souk.v1.OrderEvent)" in text
    assert "Access: customer (owner), provider (owner)" in text


def test_admin_settings_and_blocks(souk, demo):
    before = souk.run("settings", "get", "accounts.max_failed_logins", profile="admin").stdout.strip()
    souk.run("settings", "set", "accounts.max_failed_logins=7", profile="admin")
    assert souk.run("settings", "get", "accounts.max_failed_logins", profile="admin").stdout.strip() == "7"
    settings = json.loads(souk.run("settings", "get", profile="admin").stdout)
    assert settings["accounts"]["maxFailedLogins"] == 7
    assert before != "7"

    # A customer may not change them: PERMISSION_DENIED's exit code.
    refused = souk.run("settings", "set", "accounts.max_failed_logins=3", "--json", profile="customer", check=False)
    assert refused.returncode == 10 + 7 and json.loads(refused.stdout)["error"]["code"] == "PERMISSION_DENIED"

    # A customer asks to become a seller; the admin sees the pending role and approves it.
    sign_up = {"requestId": str(uuid.uuid4()), "email": "cli.seller@chateaudunox.example", "password": "Seller-pass-2026",
               "givenName": "Cli", "familyName": "Seller", "requestedRoles": ["ROLE_PROVIDER"]}
    asker = souk.json("call", "souk.v1.Accounts/SignUp", "--anonymous", "-d", json.dumps(sign_up), profile="customer")
    account_id = asker["account"]["id"]
    pending = souk.json("approvals", "roles", "--json", profile="admin")["accounts"]
    assert account_id in [a["id"] for a in pending]
    approved = souk.json("approvals", "approve-role", account_id, "provider", "--json", profile="admin")
    assert {"role": "ROLE_PROVIDER", "status": "ROLE_STATUS_ACTIVE"}.items() <= next(
        r for r in approved["roles"] if r["role"] == "ROLE_PROVIDER").items()
    assert account_id not in [a["id"] for a in souk.json("approvals", "roles", "--json", profile="admin")["accounts"]]

    blocked = souk.run("block", account_id, "--reason", "testing", profile="admin").stdout
    assert "BLOCKED" in blocked and "testing" in blocked
    assert souk.json("unblock", account_id, "--json", profile="admin")["state"] == "ACCOUNT_STATE_ACTIVE"
    assert souk.run("approvals", "roles", profile="admin").stdout.split()[:5] == ["ACCOUNT", "EMAIL", "NAME", "ROLE", "REQUESTED"]


def readme_tour() -> str:
    """The shell blocks of the README's `souk` section, in order."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## The `souk` CLI"):]
    section = section[:section.index("\n## ", 1)]
    return "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's tour uses jq")
def test_the_readme_tour_runs(demo, tmp_path):
    """The README's tour of the five apps, run as written against a demo server (its address and
    operator put in), so it stays true."""
    script = readme_tour().replace("localhost:50051", demo.address)
    script = script.replace("operator@souk.demo", IdentityServer.OPERATOR_EMAIL).replace("Souk-demo-operator-1", IdentityServer.OPERATOR_PASSWORD)
    binary = pathlib.Path(os.environ.get("SOUK_CLI") or ROOT / ".build" / "debug" / "souk")
    env = {**os.environ, "PATH": f"{binary.parent}:{os.environ['PATH']}", "XDG_CONFIG_HOME": str(tmp_path)}
    env.pop("SOUK_PROFILE", None)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, f"the tour failed ({done.returncode}): {done.stderr[-3000:]}\n{done.stdout[-3000:]}"
    out = done.stdout
    for seen in ("RECEIVED", "COMPLETED", "DROPPED_OFF_LAUNDRY", "CONFIRMED", "PREPARING", "Chateau Du Nox", "Harvest sale", "SUCCESSFUL"):
        assert seen in out, seen


def test_client_and_server_streams_through_call(souk):
    """A client stream from JSON lines on stdin (an upload in chunks), then a server stream printed
    one message a line with --compact (its download)."""
    content = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    chunks = [content[i:i + 4000] for i in range(0, len(content), 4000)]
    lines = [json.dumps({"metadata": {"requestId": str(uuid.uuid4()), "contentType": "image/png", "sizeBytes": len(content),
                                      "fileName": "cli.png", "purpose": "MEDIA_PURPOSE_AVATAR"}})]
    lines += [json.dumps({"chunk": base64.b64encode(chunk).decode()}) for chunk in chunks]
    uploaded = souk.json("call", "souk.v1.Media/UploadMedia", profile="customer", input="\n".join(lines) + "\n")
    assert int(uploaded["sizeBytes"]) == len(content) and uploaded["sha256"] == hashlib.sha256(content).hexdigest()

    out = souk.run("call", "souk.v1.Media/DownloadMedia", "-d", json.dumps({"mediaId": uploaded["id"]}), "--compact",
                   profile="customer").stdout.splitlines()
    messages = [json.loads(line) for line in out]
    assert messages[0]["media"]["id"] == uploaded["id"]
    assert b"".join(base64.b64decode(m["chunk"]) for m in messages[1:]) == content


def test_tls_with_a_given_ca(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    server = Server(tls=(str(cert), str(key)))
    try:
        cli = Souk(server, tmp_path / "config")
        target = f"localhost:{server.port}"
        trusted = cli.run("call", "souk.v1.Marketplaces/ListMarketplaces", "--target", target, "--ca", str(cert), "--compact")
        assert json.loads(trusted.stdout) == {}
        # Without the CA the server's certificate is not trusted: no call is made.
        untrusted = cli.run("call", "souk.v1.Marketplaces/ListMarketplaces", "--target", target, "--tls", check=False)
        assert untrusted.returncode == 10 + 14 and json.loads(untrusted.stdout)["error"]["code"] == "UNAVAILABLE"
    finally:
        assert server.stop() == 0
