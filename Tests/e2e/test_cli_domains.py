"""The `souk` CLI's commands of each app's people against a demo server, each as a table and as
JSON: the laundry job from the student's and the Dasher's side, deliveries and payments, support
tickets, messages and notifications, admin content, leases, and the operator's marketplaces; and
the session: the password read from a terminal or stdin, an expired access token refreshed and
the call repeated."""
import json
import os
import pty
import queue
import select
import subprocess
import threading
import time

import pytest

from conftest import IdentityServer, stop_cleanly
from test_cli import TIMEOUT, Souk, read_lines

DRIP, AQUA, NOX, MARA = "Drip 'n Dash", "Aqua Hub", "Chateau Du Nox", "MARA"


@pytest.fixture(scope="module")
def demo():
    s = IdentityServer(access_token_ttl=600)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def souk(demo, tmp_path_factory):
    return Souk(demo, tmp_path_factory.mktemp("souk-config"))


def signed_in(souk, profile, marketplace, role):
    """Signs the demo account of `role` in `marketplace` into `profile` once; returns its account id."""
    if not souk.profile_file(profile).exists():
        login = souk.server.demo_login(marketplace, role)
        souk.login(profile, login.email, login.password, marketplace=marketplace)
    return json.loads(souk.profile_file(profile).read_text())["accountId"]


class Watch:
    """A `souk ... watch --json` in the background: its lines as they are printed."""

    def __init__(self, souk, *args):
        self.process = subprocess.Popen([souk.binary, *args, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=souk.env)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=read_lines, args=(self.process, self.lines), daemon=True).start()
        self.notes: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.notes.put(line) for line in self.process.stderr], daemon=True).start()

    def next(self):
        line = self.lines.get(timeout=TIMEOUT)
        assert line is not None, f"the watch ended: {list(self.notes.queue)}"
        return json.loads(line)

    def ended(self) -> int:
        assert self.lines.get(timeout=TIMEOUT) is None
        return self.process.wait(timeout=TIMEOUT)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def stage(job):
    return job.get("stage", "JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT")


def test_a_laundry_job_from_the_students_and_the_dashers_side(souk):
    signed_in(souk, "student", DRIP, "customer")
    signed_in(souk, "dasher", DRIP, "courier")
    estimate = souk.json("jobs", "estimate", "--loads", "2", "--add-on", "folding", "--json", profile="student")
    assert estimate["total"]["currencyCode"] == "USD" and int(estimate["total"]["amountMinor"]) > 0
    table = souk.run("laundry", "estimate", "--loads", "2", "--add-on", "folding", profile="student").stdout
    assert "total" in table and "USD" in table

    job = souk.json("jobs", "submit", "--loads", "2", "--add-on", "folding", "--instructions", "Delicates on cold", "--json",
                    profile="student")
    assert stage(job) == "JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT" and job["addOns"] == ["LAUNDRY_ADD_ON_FOLDING"]
    assert souk.json("jobs", "accepting", "on", "--json", profile="dasher")["email"]

    # The Dasher is offered the job and takes it.
    offered = souk.run("jobs", "work", profile="dasher").stdout
    assert job["id"] in offered and "WAITING_FOR_DASHER_TO_ACCEPT" in offered
    accepted = souk.json("jobs", "accept", job["id"], "--json", profile="dasher")
    assert stage(accepted) == "JOB_STAGE_DASHER_ACCEPTED_REQUEST"

    # The student watches while the Dasher moves the job stage by stage (the next one by default).
    watch = Watch(souk, "jobs", "watch", job["id"], "--profile", "student")
    try:
        assert stage(watch.next()["job"]) == "JOB_STAGE_DASHER_ACCEPTED_REQUEST"
        for expected in ("DASHER_ON_WAY_FOR_PICKUP", "PICKED_UP_LAUNDRY", "LAUNDRY_IN_WASHER", "FINISHED_WASHING",
                         "LAUNDRY_IN_DRYER", "FINISHED_DRYING", "DASHER_ON_WAY_FOR_DROP_OFF", "DROPPED_OFF_LAUNDRY"):
            extra = ["--loads", "2", "--machine-cost", "7.00"] if expected == "FINISHED_DRYING" else []
            if expected == "LAUNDRY_IN_DRYER":
                extra = ["--to", "laundry-in-dryer"]
            moved = souk.run("jobs", "advance", job["id"], *extra, profile="dasher").stdout
            assert moved.splitlines()[1].split() == ["stage", expected], moved
            event = watch.next()
            assert stage(event["job"]) == "JOB_STAGE_" + expected
        assert watch.ended() == 0  # the watch ends once the job is dropped off
    finally:
        watch.close()
    done = souk.json("jobs", "show", job["id"], "--json", profile="student")
    assert done["actualLoads"] == 2 and done["machineCostTotal"] == {"amountMinor": "700", "currencyCode": "USD"}
    last = souk.run("jobs", "advance", job["id"], profile="dasher", check=False)
    assert last.returncode == 1 and "last stage" in last.stderr

    # A second job: offered, turned down by the Dasher (not offered to them again), cancelled by the student.
    second = souk.json("jobs", "submit", "--loads", "1", "--json", profile="student")
    assert souk.json("jobs", "work", "--json", profile="dasher")["job"]["id"] == second["id"]
    assert stage(souk.json("jobs", "deny", second["id"], "--json", profile="dasher")) == "JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT"
    assert souk.json("jobs", "work", "--json", profile="dasher").get("job") is None
    assert souk.run("jobs", "work", profile="dasher").stdout.strip() == "no job waiting for you"
    cancelled = souk.json("jobs", "cancel", second["id"], "--reason", "Changed my mind", "--json", profile="student")
    assert cancelled["state"] == "JOB_STATE_CANCELLED" and cancelled["cancelReason"] == "Changed my mind"
    assert second["id"] in [j["id"] for j in souk.json("jobs", "list", "--json", profile="student")["jobs"]]


def place_water_order(souk, profile):
    """An Aqua Hub service order for cash in the first free window (as the README's tour places it)."""
    water = next(s for s in souk.json("services", "--json", profile=profile)["services"] if s["name"] == "Safi Water")
    window = None
    for days in range(1, 8):
        day = time.gmtime(time.time() + 3 * 3600 + days * 86400)  # Asia/Riyadh is UTC+3
        windows = souk.json("call", "souk.v1.Orders/ListServiceWindows", "-d",
                            json.dumps({"date": {"year": day.tm_year, "month": day.tm_mon, "day": day.tm_mday}}), profile=profile)
        window = next((w["window"] for w in windows.get("windows", []) if w.get("available")), None)
        if window:
            break
    request = {"serviceId": water["id"], "optionId": water["options"][-1]["id"], "quantity": 2, "scheduledWindow": window,
               "payment": {"cash": {}}, "address": {"address": {"line1": "King Abdulaziz Road 7", "city": "Arar",
                                                                "countryCode": "SA", "phone": "+966512345699"}}}
    return souk.json("call", "souk.v1.Orders/PlaceServiceOrder", "-d", json.dumps(request), profile=profile)


def test_a_delivery_and_its_cash_payment(souk):
    signed_in(souk, "aqua", AQUA, "customer")
    signed_in(souk, "aqua-admin", AQUA, "admin")
    courier = signed_in(souk, "aqua-courier", AQUA, "courier")
    order = place_water_order(souk, "aqua")

    delivery = souk.json("deliveries", "assign", order["id"], "--courier", courier, "--json", profile="aqua-admin")
    assert delivery["status"] == "DELIVERY_STATUS_ASSIGNED" and delivery["orderId"] == order["id"]
    mine = souk.json("deliveries", "list", "--status", "assigned", "--json", profile="aqua-courier")["deliveries"]
    assert delivery["id"] in [d["id"] for d in mine]
    started = souk.json("deliveries", "start", delivery["id"], "--json", profile="aqua-courier")
    assert started["status"] == "DELIVERY_STATUS_IN_PROGRESS"
    delayed = souk.json("deliveries", "delay", delivery["id"], "--note", "Traffic on the ring road", "--json", profile="aqua-courier")
    assert delayed["status"] == "DELIVERY_STATUS_DELAYED" and delayed["note"] == "Traffic on the ring road"
    completed = souk.json("deliveries", "complete", delivery["id"], "--json", profile="aqua-courier")
    assert completed["status"] == "DELIVERY_STATUS_COMPLETED"
    shown = souk.run("deliveries", "show", delivery["id"], profile="aqua").stdout
    assert "COMPLETED" in shown and order["id"] in shown

    # The cash the courier took, collected and then confirmed by the admin.
    mine = souk.json("payments", "list", "--json", profile="aqua")["payments"]
    payments = souk.json("payments", "list", "--for", order["id"], "--json", profile="aqua-admin")["payments"]
    assert [p["method"] for p in payments] == ["PAYMENT_METHOD_CASH"] and payments[0]["id"] in [p["id"] for p in mine]
    payment = payments[0]
    assert souk.json("payments", "show", payment["id"], "--json", profile="aqua")["amount"] == order["price"]["total"]
    # Completing the delivery recorded the cash as collected by the courier; the admin confirms it came in.
    assert payment["status"] == "PAYMENT_STATUS_COLLECTED" and payment["collectedByAccountId"] == courier
    again = souk.run("payments", "cash-collected", payment["id"], "--json", profile="aqua-courier", check=False)
    assert again.returncode == 10 + 9 and json.loads(again.stdout)["error"]["reason"] == "INVALID_TRANSITION"
    confirmed = souk.json("payments", "confirm-cash", payment["id"], "--json", profile="aqua-admin")
    assert confirmed["status"] == "PAYMENT_STATUS_SUCCESSFUL"
    table = souk.run("payments", "list", "--for", order["id"], profile="aqua-admin").stdout.splitlines()
    assert table[0].split()[:4] == ["ID", "FOR", "METHOD", "STATUS"] and "SUCCESSFUL" in table[1]


def test_a_dineswift_order_offered_to_the_nearest_driver_and_tracked(souk):
    signed_in(souk, "diner", "DineSwift", "customer")
    signed_in(souk, "kitchen", "DineSwift", "provider")
    driver = signed_in(souk, "driver", "DineSwift", "courier")
    roma = next(r["restaurant"]["id"] for r in souk.json("restaurants", "--json", profile="diner")["restaurants"]
                if r["restaurant"]["name"] == "Pizza Roma")
    pizza = next(item for item in souk.json("menu", roma, "--json", profile="diner")["menuItems"]
                 if any(group.get("required") for group in item.get("optionGroups", [])))
    options = [{"groupId": g["id"], "choiceId": g["choices"][0]["id"]} for g in pizza["optionGroups"] if g.get("required")]
    souk.run("cart", "clear", profile="diner")
    souk.run("call", "souk.v1.Carts/AddCartLine", "-d", json.dumps({"itemId": pizza["id"], "quantity": 1, "options": options}),
             profile="diner")
    order = souk.json("checkout", "--cash", "--recipient", "Rami", "--line1", "Rue Bliss 20", "--city", "Beirut", "--country", "LB",
                      "--json", profile="diner")
    assert souk.json("orders", "accept", order["id"], "--json", profile="kitchen")["status"] == "ORDER_STATUS_PREPARING"

    # The driver goes online 300 m north of Pizza Roma; the kitchen sees them and offers the delivery to the nearest.
    online = souk.json("deliveries", "availability", "on", "--latitude", "33.8986", "--longitude", "35.4828", "--json", profile="driver")
    assert online["online"] is True
    couriers = souk.json("deliveries", "couriers", "--order", order["id"], "--json", profile="kitchen")["couriers"]
    assert driver in [c["courier"]["accountId"] for c in couriers]
    offered = souk.json("deliveries", "offer", order["id"], "--nearest", "--json", profile="kitchen")
    assert offered["status"] == "DELIVERY_STATUS_OFFERED" and offered["courierAccountId"] == driver
    assert souk.json("deliveries", "accept", offered["id"], "--json", profile="driver")["status"] == "DELIVERY_STATUS_IN_PROGRESS"

    # The diner tracks the driver; a position the driver reports is printed as it comes; the track
    # ends with the delivery.
    track = Watch(souk, "deliveries", "track", order["id"], "--profile", "diner")
    try:
        souk.run("call", "souk.v1.Deliveries/UpdateCourierLocation", "-d",
                 json.dumps({"location": {"latitude": 33.8970, "longitude": 35.4850}}), profile="driver")
        while True:
            event = track.next()
            if abs(event["location"]["latitude"] - 33.8970) < 1e-9:
                break
        assert event["deliveryId"] == offered["id"] and event["courierAccountId"] == driver
        done = souk.json("deliveries", "complete", offered["id"], "--json", profile="driver")
        assert done["status"] == "DELIVERY_STATUS_COMPLETED"
        assert track.ended() == 0
    finally:
        track.close()
    assert souk.json("orders", "show", order["id"], "--json", profile="diner")["status"] == "ORDER_STATUS_DELIVERED"


def test_a_card_payment_refunded_in_part(souk):
    signed_in(souk, "nox", NOX, "customer")
    signed_in(souk, "nox-admin", NOX, "admin")
    souk.run("cart", "clear", profile="nox")
    wine = souk.json("products", "--order-by", "price", "--limit", "1", "--json", profile="nox")["products"][0]
    souk.run("cart", "add", wine["id"], profile="nox")
    order = souk.json("checkout", "--card", "tok_visa", "--recipient", "Aisyah", "--line1", "12 Jalan Ampang", "--city", "Kuala Lumpur",
                      "--country", "MY", "--json", profile="nox")
    refunded = souk.json("payments", "refund", order["paymentId"], "--amount", "1.50", "--reason", "Scratched label", "--json",
                         profile="nox-admin")
    assert refunded["refundedAmount"] == {"amountMinor": "150", "currencyCode": "MYR"}
    assert [r["reason"] for r in refunded["refunds"]] == ["Scratched label"]
    # A customer may not refund: PERMISSION_DENIED's exit code and the error as JSON.
    refused = souk.run("payments", "refund", order["paymentId"], "--reason", "Mine", "--json", profile="nox", check=False)
    assert refused.returncode == 10 + 7 and json.loads(refused.stdout)["error"]["code"] == "PERMISSION_DENIED"
    bad = souk.run("payments", "refund", order["paymentId"], "--amount", "1.505", "--reason", "x", profile="nox-admin", check=False)
    assert bad.returncode == 1 and "invalid amount" in bad.stderr


def published_listing(souk, profile, lessor):
    listings = souk.json("listings", "--limit", "50", "--json", profile=profile)["listings"]
    return next(item["listing"] for item in listings
                if item["listing"]["ownerAccountId"] == lessor and item["listing"]["status"] == "LISTING_STATUS_PUBLISHED")


def test_support_tickets_messages_and_the_account_stream(souk):
    signed_in(souk, "nox", NOX, "customer")
    signed_in(souk, "nox-admin", NOX, "admin")
    ticket = souk.json("support", "create", "--subject", "Wrong bottle", "--text", "I got a rosé", "--topic", "order", "--json",
                       profile="nox")
    assert ticket["status"] == "TICKET_STATUS_OPEN" and ticket["topic"] == "TICKET_TOPIC_ORDER"
    assert ticket["id"] in [t["id"] for t in souk.json("tickets", "list", "--status", "open", "--json", profile="nox-admin")["tickets"]]
    reply = souk.json("support", "reply", ticket["id"], "--text", "The right one is on its way", "--json", profile="nox-admin")
    assert reply["fromAdmin"] and reply["text"] == "The right one is on its way"
    thread = souk.json("support", "show", ticket["id"], "--json", profile="nox")
    assert thread["ticket"]["status"] == "TICKET_STATUS_ANSWERED"
    assert [m["text"] for m in thread["messages"]] == ["I got a rosé", "The right one is on its way"]
    shown = souk.run("support", "show", ticket["id"], profile="nox").stdout
    assert "Wrong bottle" in shown and "The right one is on its way" in shown and "TEXT" in shown
    assert souk.json("support", "close", ticket["id"], "--json", profile="nox")["status"] == "TICKET_STATUS_CLOSED"

    # MARA: a lessee writes to a lessor, who answers while the lessee watches the account stream.
    signed_in(souk, "lessee", MARA, "customer")
    lessor = signed_in(souk, "lessor", MARA, "provider")
    listing = published_listing(souk, "lessee", lessor)
    conversation = souk.json("messages", "start", lessor, "--about", f"listing:{listing['id']}", "--text", "Is the flat still free?",
                             "--json", profile="lessee")
    assert lessor in conversation["participantAccountIds"]
    listed = souk.json("messages", "list", "--unread", "--json", profile="lessor")["conversations"]
    assert conversation["id"] in [c["id"] for c in listed]
    # The account stream from the newest event read so far: nothing in between is missed.
    after = souk.json("notifications", "list", "--json", profile="lessee").get("lastSequence", "0")
    watch = Watch(souk, "notifications", "watch", "--after", str(after), "--count", "1", "--profile", "lessee")
    try:
        sent = souk.json("messages", "send", conversation["id"], "--text", "Yes, from March", "--json", profile="lessor")
        assert sent["text"] == "Yes, from March"
        event = watch.next()
        about = event.get("conversation", {}).get("id") or event.get("notification", {}).get("subject", {}).get("id")
        assert about == conversation["id"] and int(event["sequence"]) == int(after) + 1
        assert watch.ended() == 0
    finally:
        watch.close()
    history = souk.json("messages", "show", conversation["id"], "--json", profile="lessee")
    assert [m["text"] for m in history["messages"]] == ["Is the flat still free?", "Yes, from March"]
    read = souk.json("messages", "read", conversation["id"], "--json", profile="lessee")
    assert int(read["throughSequence"]) == int(history["messages"][-1]["sequence"])
    assert conversation["id"] not in [c["id"] for c in souk.json("messages", "list", "--unread", "--json", profile="lessee").get("conversations", [])]
    table = souk.run("messages", "show", conversation["id"], profile="lessee").stdout
    assert "Yes, from March" in table and "SEQ" in table
    assert souk.json("notifications", "list", "--json", profile="lessee") is not None


def test_admin_content_drafted_published_archived(souk):
    signed_in(souk, "nox", NOX, "customer")
    signed_in(souk, "nox-admin", NOX, "admin")
    draft = souk.json("announcements", "create", "--title", "Harvest sale", "--body", "20% off reds", "--audience", "customer",
                      "--json", profile="nox-admin")
    assert draft["state"] == "CONTENT_STATE_DRAFT" and draft["audienceRoles"] == ["ROLE_CUSTOMER"]
    assert draft["id"] not in [a["id"] for a in souk.json("announcements", "list", "--json", profile="nox").get("announcements", [])]
    published = souk.json("announcements", "publish", draft["id"], "--json", profile="nox-admin")
    assert published["state"] == "CONTENT_STATE_PUBLISHED"
    assert draft["id"] in [a["id"] for a in souk.json("announcements", "list", "--json", profile="nox")["announcements"]]
    assert souk.json("announcements", "archive", draft["id"], "--json", profile="nox-admin")["state"] == "CONTENT_STATE_ARCHIVED"
    assert souk.json("announcements", "restore", draft["id"], "--json", profile="nox-admin")["state"] == "CONTENT_STATE_PUBLISHED"

    policy = souk.json("policies", "create", "--kind", "privacy", "--title", "Privacy", "--body", "We keep little.", "--publish", "--json",
                       profile="nox-admin")
    assert policy["kind"] == "POLICY_KIND_PRIVACY" and policy["state"] == "CONTENT_STATE_PUBLISHED"
    ad = souk.json("ads", "create", "--title", "Rosé week", "--body", "Try them", "--placement", "home_banner", "--json", profile="nox-admin")
    assert ad["placement"] == "home_banner" and ad["state"] == "CONTENT_STATE_DRAFT"
    table = souk.run("ads", "list", "--state", "draft", profile="nox-admin").stdout.splitlines()
    assert table[0].split()[:3] == ["ID", "TITLE", "PLACEMENT"] and any(ad["id"] in row for row in table)
    wrong = souk.run("announcements", "create", "--title", "x", "--body", "y", "--placement", "top", profile="nox-admin", check=False)
    assert wrong.returncode == 64 and "--placement" in wrong.stderr


def test_a_lease_requested_and_confirmed(souk):
    signed_in(souk, "lessee", MARA, "customer")
    lessor = signed_in(souk, "lessor", MARA, "provider")
    listing = published_listing(souk, "lessee", lessor)
    start = time.gmtime(time.time() + 40 * 86400)
    booking = souk.json("leases", "request", listing["id"], "--months", "12", "--start", f"{start.tm_year}-{start.tm_mon:02d}-01",
                        "--message", "Cho tôi thuê 1 năm", "--json", profile="lessee")
    assert booking["status"] == "BOOKING_STATUS_REQUESTED"
    confirmed = souk.json("bookings", "confirm", booking["id"], "--json", profile="lessor")
    assert confirmed["status"] != "BOOKING_STATUS_REQUESTED" and confirmed["depositBillId"]
    assert booking["id"] in souk.run("leases", "list", profile="lessee").stdout


def test_the_operator_archives_and_restores_a_marketplace(souk):
    souk.login("operator", IdentityServer.OPERATOR_EMAIL, IdentityServer.OPERATOR_PASSWORD, marketplace=None)
    created = souk.json("marketplaces", "create", "--slug", "cli-pop-up", "--name", "CLI Pop-up", "--vertical", "retail", "--currency", "USD",
                        "--time-zone", "UTC", "--json", profile="operator")
    archived = souk.json("marketplaces", "archive", created["id"], "--json", profile="operator")
    assert archived["archived"] is True
    assert created["id"] not in [m["id"] for m in souk.json("marketplaces", "list", "--json", profile="operator")["marketplaces"]]
    restored = souk.run("marketplaces", "restore", created["id"], profile="operator").stdout
    assert "archived  no" in restored and created["id"] in restored
    listed = souk.json("marketplaces", "list", "--json", profile="operator")["marketplaces"]
    assert created["id"] in [m["id"] for m in listed]


# The session: the password and the tokens.

def test_the_password_is_asked_for_on_the_terminal_or_read_from_stdin(souk, demo):
    login = demo.demo_login(NOX, "customer")
    base = [souk.binary, "login", "--target", demo.address, "--marketplace", NOX, "--email", login.email, "--json"]
    env = {k: v for k, v in souk.env.items() if k != "SOUK_PASSWORD"}

    # On a terminal: the prompt, the password typed (not echoed back), the session saved.
    pid, terminal = pty.fork()
    if pid == 0:
        os.execve(souk.binary, base + ["--profile", "typed"], env)
    out = b""
    deadline = time.monotonic() + TIMEOUT
    while b"Password:" not in out and time.monotonic() < deadline:
        if select.select([terminal], [], [], 1)[0]:
            out += os.read(terminal, 1024)
    assert b"Password:" in out
    os.write(terminal, login.password.encode() + b"\n")
    rest = b""
    while time.monotonic() < deadline:
        if not select.select([terminal], [], [], 1)[0]:
            continue
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        rest += chunk
    _, status = os.waitpid(pid, 0)
    os.close(terminal)
    assert os.waitstatus_to_exitcode(status) == 0, rest
    assert login.password.encode() not in rest
    assert json.loads(rest[rest.index(b"{"):])["account"]["email"] == login.email
    assert souk.json("whoami", "--json", profile="typed")["email"] == login.email

    # From stdin with --password-stdin; without it and without a terminal there is no password.
    piped = subprocess.run(base + ["--password-stdin", "--profile", "piped"], input=login.password + "\n", capture_output=True,
                           text=True, env=env, timeout=TIMEOUT)
    assert piped.returncode == 0 and json.loads(piped.stdout)["account"]["email"] == login.email
    none = subprocess.run(base + ["--profile", "none"], input="", capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert none.returncode == 1 and "--password-stdin" in none.stderr
    wrong = subprocess.run(base + ["--password-stdin", "--profile", "wrong"], input="not-the-password\n", capture_output=True,
                           text=True, env=env, timeout=TIMEOUT)
    assert wrong.returncode == 10 + 16 and "UNAUTHENTICATED" in wrong.stderr


def test_an_expired_access_token_is_refreshed_and_the_call_repeated(tmp_path):
    server = IdentityServer(2)
    try:
        cli = Souk(server, tmp_path)
        login = server.demo_login(NOX, "customer")
        cli.login("short", login.email, login.password, marketplace=NOX)
        saved = json.loads(cli.profile_file("short").read_text())

        # Wait until the access token has expired (a condition on the clock, not a delay that hopes).
        while time.time() <= saved["accessTokenExpireTime"] + 0.2:
            time.sleep(0.1)
        # A margin that never renews ahead: the call goes with the expired token, the server answers
        # TOKEN_EXPIRED, and the CLI refreshes and repeats it.
        me = cli.json("whoami", "--json", profile="short", env={"SOUK_REFRESH_MARGIN": "-100000"})
        assert me["email"] == login.email
        renewed = json.loads(cli.profile_file("short").read_text())
        assert renewed["accessToken"] != saved["accessToken"] and renewed["refreshToken"] != saved["refreshToken"]
        assert renewed["accessTokenExpireTime"] > saved["accessTokenExpireTime"]

        # By default (a margin longer than these tokens live) it renews before each call instead.
        again = cli.json("orders", "list", "--json", profile="short")
        assert "error" not in again
        assert json.loads(cli.profile_file("short").read_text())["accessToken"] != renewed["accessToken"]

        # A watch outlives its token: the server ends the stream at the token's expiry, the CLI
        # renews it and resumes after the last event printed, and the next change is printed once.
        for profile, role in (("student", "customer"), ("dasher", "courier")):
            login = server.demo_login(DRIP, role)
            cli.login(profile, login.email, login.password, marketplace=DRIP)
        job = cli.json("jobs", "submit", "--loads", "1", "--json", profile="student")
        assert cli.json("jobs", "work", "--json", profile="dasher")["job"]["id"] == job["id"]
        cli.run("jobs", "accept", job["id"], profile="dasher")
        watch = Watch(cli, "jobs", "watch", job["id"], "--count", "2", "--profile", "student")
        try:
            first = watch.next()
            note = watch.notes.get(timeout=TIMEOUT)
            assert "TOKEN_EXPIRED" in note and f"resuming after sequence {first['sequence']}" in note
            cli.run("jobs", "advance", job["id"], profile="dasher")
            second = watch.next()
            assert int(second["sequence"]) == int(first["sequence"]) + 1
            assert stage(second["job"]) == "JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP"
            assert watch.ended() == 0
        finally:
            watch.close()
    finally:
        stop_cleanly(server)
