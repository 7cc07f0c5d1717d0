"""The admin console in a real browser: headless Chromium driven by Selenium against a demo server.
DineSwift's admin signs in, approves a pending restaurant and a pending driver, answers a customer's
support ticket, sees the orders chart of the last 30 days, publishes an announcement, and switches
to Arabic (right to left, Arabic labels and Arabic server messages); a shop's admin refunds a card
payment. Each result is checked again through gRPC. A screenshot of each page is kept under
Tests/e2e/out/console/ (or $SOUK_CONSOLE_SCREENSHOTS).

The static files themselves (content types, ETag and 304, 404, no path traversal) are checked
over plain HTTP first."""
import http.client
import os
import pathlib
import shutil

import pytest

from conftest import IdentityServer, stop_cleanly
from souk_food import a_point, approved_open_restaurant, pizza_input, restaurant_input
from souk_identity import TIMEOUT, Api, Role, RoleStatus, login_party, pb, request_id, role_status, sign_up
from souk_protos import Stub, enum
from test_food_journey import place_order

Approval = enum("souk.v1.RestaurantApprovalState")
TicketStatus = enum("souk.v1.TicketStatus")
TicketTopic = enum("souk.v1.TicketTopic")
PaymentStatus = enum("souk.v1.PaymentStatus")
DINESWIFT = "DineSwift"
WAIT = 20  # seconds a browser condition may take on a loaded machine; no test sleeps
SCREENSHOTS = pathlib.Path(os.environ.get("SOUK_CONSOLE_SCREENSHOTS") or pathlib.Path(__file__).parent / "out" / "console")


@pytest.fixture(scope="module")
def console_server():
    # Tokens live two minutes: the console refreshes them itself 30 seconds before they expire.
    server = IdentityServer(120)
    yield server
    stop_cleanly(server)


@pytest.fixture(scope="module")
def api(console_server):
    with console_server.channel() as channel:
        api = Api(channel)
        for service in ("Carts", "Orders", "Reports", "Support", "Payments"):
            setattr(api, service.lower(), Stub(channel, f"souk.v1.{service}"))
        yield api


def get(server, path, headers=None, method="GET"):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response, response.read()
    finally:
        connection.close()


# ---- the static files ----

def test_console_files_are_served_with_types_validators_and_nothing_else(console_server):
    response, body = get(console_server, "/console")
    assert response.status == 301 and response.getheader("location") == "/console/"

    response, page = get(console_server, "/console/")
    assert response.status == 200 and response.getheader("content-type") == "text/html; charset=utf-8"
    assert b'<script type="module" src="js/app.js">' in page
    etag = response.getheader("etag")
    assert etag and response.getheader("cache-control") == "no-cache"
    assert get(console_server, "/console/index.html")[1] == page

    response, body = get(console_server, "/console/", {"if-none-match": etag})
    assert response.status == 304 and body == b"" and response.getheader("etag") == etag
    response, body = get(console_server, "/console/", {"if-none-match": '"other"'})
    assert response.status == 200 and body == page

    response, script = get(console_server, "/console/js/transport.js")
    assert response.status == 200 and response.getheader("content-type") == "text/javascript; charset=utf-8"
    assert b"application/grpc-web+json" in script
    assert get(console_server, "/console/console.css")[0].getheader("content-type") == "text/css; charset=utf-8"

    response, body = get(console_server, "/console/js/transport.js", method="HEAD")
    assert response.status == 200 and body == b"" and int(response.getheader("content-length")) == len(script)

    for path in ("/console/missing.js", "/console/../Package.swift", "/console/js/../../ConsoleRoute.swift",
                 "/console/%2e%2e/ConsoleRoute.swift", "/console/js/%2E%2E/index.html", "/console//index.html",
                 "/consoleX", "/console/js/"):
        assert get(console_server, path)[0].status == 404, path


# ---- the browser ----

@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.fail("chromium and chromium-driver are needed (scripts/install-deps installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000", "--lang=en-US", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(WAIT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def wait(driver, condition, message=""):
    """Polls `condition` until it holds; elements the page redraws meanwhile are looked up again."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, WAIT, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition, message)


def shot(driver, name):
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    print(f"console screenshot: {path}")


def css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, selector)


def css_all(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def tab_loaded(driver, name):
    css(driver, f'#tabs button[data-tab="{name}"]').click()
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-loaded") == name, f"{name} tab loaded")
    assert not css(driver, "#error").is_displayed(), css(driver, "#error").text


def sign_in(driver, market_id, login, screenshot=None):
    from selenium.webdriver.support.ui import Select
    wait(driver, lambda d: any(o.get_attribute("value") == market_id for o in css_all(d, "#marketplace option")), "marketplaces listed")
    Select(css(driver, "#marketplace")).select_by_value(market_id)
    css(driver, "#email").clear()
    css(driver, "#email").send_keys(login.email)
    css(driver, "#password").clear()
    css(driver, "#password").send_keys(login.password)
    if screenshot:
        shot(driver, screenshot)
    css(driver, "#sign-in-button").click()
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-signed-in") == "yes", "signed in")
    assert login.email in css(driver, "#who").text


def test_an_admin_works_through_the_console(console_server, api, browser):
    from selenium.webdriver.support.ui import Select

    market_id = console_server.marketplace_id(DINESWIFT)
    admin_login = console_server.demo_login(DINESWIFT, "admin")
    admin = login_party(api, admin_login)
    market = {"id": market_id, "admin": admin}

    # Through gRPC first: a restaurant waiting for approval, a customer's ticket, and an order today.
    owner = sign_up(api, market_id, given_name="Nadia", requested_roles=[Role.ROLE_PROVIDER])
    pending = api.catalog.CreateRestaurant(pb.CreateRestaurantRequest(
        marketplace_id=market_id, request_id=request_id(), restaurant=restaurant_input("Console Falafel", a_point())),
        metadata=owner.md(), timeout=TIMEOUT)
    assert pending.approval_state == Approval.RESTAURANT_APPROVAL_STATE_PENDING
    driver_to_be = sign_up(api, market_id, given_name="Karim", requested_roles=[Role.ROLE_COURIER])
    customer = sign_up(api, market_id, given_name="Omar")
    ticket = api.support.CreateTicket(pb.CreateTicketRequest(
        marketplace_id=market_id, request_id=request_id(), subject="Where is my falafel?", text="It is late.",
        topic=TicketTopic.TICKET_TOPIC_ORDER), metadata=customer.md(), timeout=TIMEOUT)
    kitchen, kitchen_owner = approved_open_restaurant(api, market, "Console Pizza", a_point())
    item = api.catalog.CreateMenuItem(pb.CreateMenuItemRequest(
        marketplace_id=market_id, request_id=request_id(), menu_item=pizza_input(kitchen.id, "Margherita")),
        metadata=kitchen_owner.md(), timeout=TIMEOUT)
    place_order(api, market, customer, item, [("size", "small")])

    driver = browser
    driver.get(f"http://127.0.0.1:{console_server.port}/console/?marketplace={market_id}")

    # Sign in as the marketplace's admin.
    sign_in(driver, market_id, admin_login, screenshot="1-sign-in")
    assert driver.execute_script("return JSON.parse(sessionStorage.getItem('souk.console.session')).refreshToken")

    # Approvals: the pending restaurant is listed; approve it.
    tab_loaded(driver, "approvals")
    row = f'#pending-restaurants tr[data-restaurant-id="{pending.id}"]'
    wait(driver, lambda d: css_all(d, row), "the pending restaurant listed")
    assert "Console Falafel" in css(driver, row).text
    shot(driver, "2-approvals")
    css(driver, f"{row} button.approve").click()
    wait(driver, lambda d: not css_all(d, row) and css(d, "#notice").is_displayed(), "the restaurant approved")
    approved = api.catalog.GetRestaurant(pb.GetRestaurantRequest(marketplace_id=market_id, restaurant_id=pending.id),
                                         metadata=admin.md(), timeout=TIMEOUT)
    assert approved.approval_state == Approval.RESTAURANT_APPROVAL_STATE_APPROVED
    assert approved.decided_by_account_id == admin.account_id
    # ...and the driver's pending courier role.
    role_row = f'#pending-roles tr[data-account-id="{driver_to_be.account_id}"][data-role="ROLE_COURIER"]'
    wait(driver, lambda d: css_all(d, role_row), "the pending courier listed")
    css(driver, f"{role_row} button.approve").click()
    wait(driver, lambda d: not css_all(d, role_row), "the courier approved")
    account = api.accounts.GetAccount(pb.GetAccountRequest(marketplace_id=market_id, account_id=driver_to_be.account_id),
                                      metadata=admin.md(), timeout=TIMEOUT)
    assert role_status(account, Role.ROLE_COURIER) == RoleStatus.ROLE_STATUS_ACTIVE

    # The access token near its end is refreshed with the refresh token before the next call.
    before = driver.execute_script("return JSON.parse(sessionStorage.getItem('souk.console.session'))")
    driver.execute_script("""const s = JSON.parse(sessionStorage.getItem('souk.console.session'));
        s.accessExpire = Date.now() + 1000; sessionStorage.setItem('souk.console.session', JSON.stringify(s));""")
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return JSON.parse(sessionStorage.getItem('souk.console.session')).accessToken")
         != before["accessToken"], "the tokens refreshed")
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-loaded") == "approvals", "approvals loaded again")
    assert not css(driver, "#error").is_displayed(), css(driver, "#error").text

    # Orders: the chart of the last 30 days has a bar for each day with orders, as the report says.
    tab_loaded(driver, "orders")
    wait(driver, lambda d: len(css_all(d, "#orders-chart svg rect[data-date]")) == 30, "30 days drawn")
    drawn = {r.get_attribute("data-date"): int(r.get_attribute("data-value")) for r in css_all(driver, "#orders-chart svg rect[data-date]")}
    first = min(drawn)
    year, month, day = map(int, first.split("-"))
    Date = pb.Date
    overview = api.reports.GetOrdersOverview(pb.GetOrdersOverviewRequest(
        marketplace_id=market_id, dates=pb.DateRange(start_date=Date(year=year, month=month, day=day),
                                                      end_date=Date(**dict(zip(("year", "month", "day"), map(int, max(drawn).split("-"))))))),
        metadata=admin.md(), timeout=TIMEOUT)
    expected = {f"{d.date.year:04d}-{d.date.month:02d}-{d.date.day:02d}": d.orders_placed for d in overview.days}
    assert drawn == expected and sum(drawn.values()) >= 1
    with_orders = [r for r in css_all(driver, "#orders-chart svg rect.bar:not(.empty)")]
    assert len(with_orders) == sum(1 for v in expected.values() if v > 0)
    assert all(float(r.get_attribute("height")) > 0 for r in with_orders)
    assert css_all(driver, "#orders tbody tr[data-order-id]"), "the order list shows orders"
    shot(driver, "3-orders")

    tab_loaded(driver, "payments")
    shot(driver, "4-payments")

    # Support: open the customer's ticket and answer it.
    tab_loaded(driver, "support")
    ticket_row = f'#tickets tr[data-ticket-id="{ticket.id}"]'
    wait(driver, lambda d: css_all(d, ticket_row), "the ticket listed")
    css(driver, ticket_row).click()
    wait(driver, lambda d: css_all(d, f'#ticket-messages[data-ticket-id="{ticket.id}"] li'), "the ticket's messages shown")
    assert "It is late." in css(driver, "#ticket-messages").text
    css(driver, "#reply-text").send_keys("On its way, sorry for the wait.")
    css(driver, "#send-reply").click()
    wait(driver, lambda d: len(css_all(d, "#ticket-messages li.from-admin")) == 1, "the reply shown")
    shot(driver, "5-support")
    answered = api.support.GetTicket(pb.GetTicketRequest(marketplace_id=market_id, ticket_id=ticket.id), metadata=admin.md(), timeout=TIMEOUT)
    assert answered.status == TicketStatus.TICKET_STATUS_ANSWERED
    messages = api.support.ListTicketMessages(pb.ListTicketMessagesRequest(marketplace_id=market_id, ticket_id=ticket.id),
                                              metadata=customer.md(), timeout=TIMEOUT).messages
    assert [(m.from_admin, m.text) for m in messages] == [(False, "It is late."), (True, "On its way, sorry for the wait.")]

    # Announcements: one for the drivers, published now.
    tab_loaded(driver, "announcements")
    css(driver, "#announcement-title").send_keys("Rain tonight")
    css(driver, "#announcement-body").send_keys("Drive carefully: deliveries may take longer.")
    css(driver, '#announcement-audience input[value="ROLE_COURIER"]').click()
    css(driver, "#announcement-publish").click()
    wait(driver, lambda d: any("Rain tonight" in r.text for r in css_all(d, "#announcements tr[data-announcement-id]")), "the announcement listed")
    shot(driver, "6-announcements")
    States = enum("souk.v1.ContentState")
    live = api.admin.ListAnnouncements(pb.ListAnnouncementsRequest(marketplace_id=market_id, states=[States.CONTENT_STATE_PUBLISHED]),
                                       metadata=admin.md(), timeout=TIMEOUT).announcements
    rain = [a for a in live if a.title == "Rain tonight"]
    assert len(rain) == 1 and list(rain[0].audience_roles) == [Role.ROLE_COURIER]

    # Arabic: the page reads right to left with Arabic labels.
    Select(css(driver, "#language")).select_by_value("ar")
    wait(driver, lambda d: d.execute_script("return document.documentElement.dir") == "rtl", "right to left")
    assert driver.execute_script("return document.documentElement.lang") == "ar"
    assert css(driver, '#tabs button[data-tab="support"]').text == "الدعم"
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-loaded") == "announcements", "reloaded in Arabic")
    shot(driver, "7-arabic")

    # Signed out, a wrong password is refused with the server's message in Arabic (accept-language).
    css(driver, "#sign-out").click()
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-signed-in") == "no", "signed out")
    wait(driver, lambda d: css_all(d, "#marketplace option"), "marketplaces listed")
    Select(css(driver, "#marketplace")).select_by_value(market_id)
    css(driver, "#email").clear()
    css(driver, "#email").send_keys(admin_login.email)
    css(driver, "#password").clear()
    css(driver, "#password").send_keys("not the password")
    css(driver, "#sign-in-button").click()
    wait(driver, lambda d: css(d, "#error").is_displayed(), "the refusal shown")
    error = css(driver, "#error")
    assert error.get_attribute("data-code") == "UNAUTHENTICATED"
    assert any("\u0600" <= ch <= "\u06ff" for ch in error.text), error.text
    shot(driver, "8-arabic-error")


def test_a_shop_admin_refunds_a_card_payment(console_server, api, browser):
    shop_id = console_server.marketplace_id("Chateau Du Nox")
    staff = login_party(api, console_server.demo_login("Chateau Du Nox", "provider"))
    admin_login = console_server.demo_login("Chateau Du Nox", "admin")
    admin = login_party(api, admin_login)
    wine = api.catalog.CreateProduct(pb.CreateProductRequest(marketplace_id=shop_id, request_id=request_id(), product=pb.Product(
        name="Console Syrah", price=pb.Money(amount_minor=5000, currency_code="MYR"), stock=5, available=True)),
        metadata=staff.md(), timeout=TIMEOUT)
    customer = sign_up(api, shop_id)
    api.carts.AddCartLine(pb.AddCartLineRequest(marketplace_id=shop_id, request_id=request_id(), item_id=wine.id, quantity=1),
                          metadata=customer.md(), timeout=TIMEOUT)
    order = api.orders.Checkout(pb.CheckoutRequest(
        marketplace_id=shop_id, request_id=request_id(), address_confirmed=True,
        address=pb.AddressChoice(address=pb.Address(line1="1 Jalan Home", city="Petaling Jaya", country_code="MY")),
        payment=pb.PaymentMethodInput(card_token="tok_visa")), metadata=customer.md(), timeout=TIMEOUT)
    assert order.payment_status == PaymentStatus.PAYMENT_STATUS_SUCCESSFUL

    driver = browser
    driver.get(f"http://127.0.0.1:{console_server.port}/console/")
    driver.execute_script("sessionStorage.clear(); localStorage.clear();")
    driver.refresh()
    sign_in(driver, shop_id, admin_login)
    # A shop has no restaurants to approve.
    tab_loaded(driver, "approvals")
    assert not css(driver, "#restaurants-block").is_displayed()

    tab_loaded(driver, "payments")
    row = f'#payments tr[data-payment-id="{order.payment_id}"]'
    wait(driver, lambda d: css_all(d, f"{row} button.refund"), "the card payment listed with a refund button")
    # Without a reason the server refuses, and the console says which field.
    css(driver, f"{row} button.refund").click()
    wait(driver, lambda d: css(d, "#error").is_displayed(), "the refusal shown")
    assert css(driver, "#error").get_attribute("data-code") == "INVALID_ARGUMENT" and "reason" in css(driver, "#error").text
    css(driver, f"{row} input.reason").send_keys("Corked bottle")
    css(driver, f"{row} button.refund").click()
    wait(driver, lambda d: css(d, "#notice").is_displayed() and not css_all(d, f"{row} button.refund"), "the payment refunded")
    shot(driver, "9-refund")
    refunded = api.payments.GetPayment(pb.GetPaymentRequest(marketplace_id=shop_id, payment_id=order.payment_id),
                                       metadata=admin.md(), timeout=TIMEOUT)
    assert refunded.status == PaymentStatus.PAYMENT_STATUS_REFUNDED and refunded.refunds[0].reason == "Corked bottle"

    # The console follows the admin's account stream (server streaming over gRPC-Web): ending every
    # session of the account elsewhere ends the console's at once.
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-live") == "yes", "the account stream open")
    api.accounts.Logout(pb.LogoutRequest(marketplace_id=shop_id, all_sessions=True), metadata=admin.md(), timeout=TIMEOUT)
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-signed-in") == "no", "signed out by the server")
    assert css(driver, "#error").get_attribute("data-reason") == "SESSION_REVOKED"
    assert driver.execute_script("return sessionStorage.getItem('souk.console.session')") is None
    shot(driver, "10-session-ended")


def test_the_console_transport_reads_a_server_stream_and_its_errors(console_server, browser):
    """The console's one transport module, in the browser: a server-streaming call over gRPC-Web
    with JSON messages hands over each message as it is read from the body, and a refused call
    rejects with the status's code, reason and field."""
    browser.get(f"http://127.0.0.1:{console_server.port}/console/")
    wait(browser, lambda d: d.find_element("css selector", "body").get_attribute("data-signed-in") in ("yes", "no"), "page started")
    sizes = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/console/js/transport.js').then(async ({ callStream }) => {
          const sizes = [];
          await callStream('grpc.testing.TestService/StreamingOutputCall',
            { responseParameters: [{ size: 3 }, { size: 5 }, { size: 8 }] },
            { onMessage: (m) => sizes.push(atob(m.payload.body).length) });
          done(sizes);
        }).catch((e) => done(String(e)));""")
    assert sizes == [3, 5, 8]
    refusals = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/console/js/transport.js').then(({ call }) => Promise.all(['en', 'vi'].map((language) =>
          call('souk.v1.Catalog/ListProducts', { marketplaceId: 'not-a-uuid' }, { metadata: { 'accept-language': language } })
            .then(() => 'answered', (e) => ({ code: e.codeName, fields: e.fieldViolations.map((v) => v.field), text: e.message })))))
          .then(done);""")
    english, vietnamese = refusals
    for refused in refusals:
        assert refused["code"] == "INVALID_ARGUMENT" and refused["fields"] == ["marketplace_id"], refused
    # The status's LocalizedMessage, in the language asked for.
    assert english["text"] != vietnamese["text"] and "Vui lòng" in vietnamese["text"], refusals
