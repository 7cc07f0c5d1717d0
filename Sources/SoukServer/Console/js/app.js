// The admin console: sign-in, then one tab per task of a marketplace admin. Every call goes
// through session.js (tokens) and transport.js (gRPC-Web with JSON messages). Data from the
// server is put in the page as text, never as markup.
import { call, RpcError } from "./transport.js";
import * as session from "./session.js";
import { t, enumLabel, setLanguage, language, formatTime, formatMoney } from "./i18n.js";
import { drawBars } from "./chart.js";

const $ = (selector) => document.querySelector(selector);

// ---- small DOM helpers ----

function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
}

function fillTable(table, rows, emptyKey) {
  const body = table.tBodies[0];
  const columns = table.tHead.rows[0].cells.length;
  body.replaceChildren(...(rows.length
    ? rows
    : [element("tr", { class: "empty" }, element("td", { colspan: columns }, t(emptyKey)))]));
}

function newRequestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- errors and notices ----

function showError(error) {
  const box = $("#error");
  if (!error) { box.hidden = true; return; }
  let message = error instanceof RpcError && error.reason === "NOT_ADMIN" ? t("notAdmin") : error.message;
  if (error instanceof RpcError && error.fieldViolations.length) {
    message += " (" + error.fieldViolations.map((v) => v.field).join(", ") + ")";
  }
  box.textContent = message;
  box.dataset.code = error.codeName || "";
  box.dataset.reason = error.reason || "";
  box.hidden = false;
}

function notice(key) {
  const box = $("#notice");
  box.textContent = t(key);
  box.hidden = false;
}

/** Runs an action of a button: errors shown, the button disabled meanwhile. */
async function act(button, action) {
  showError(null);
  $("#notice").hidden = true;
  if (button) button.disabled = true;
  try {
    await action();
  } catch (error) {
    showError(error);
  } finally {
    if (button) button.disabled = false;
  }
}

// ---- sign-in ----

let marketplaces = [];

async function loadMarketplaces() {
  const reply = await call("souk.v1.Marketplaces/ListMarketplaces", { pageSize: 100 }, { metadata: { "accept-language": language() } });
  marketplaces = reply.marketplaces || [];
  const select = $("#marketplace");
  const previous = select.value || localStorage.getItem("souk.console.marketplace");
  select.replaceChildren(...marketplaces.map((m) => element("option", { value: m.id }, m.displayName || m.slug)));
  const wanted = new URLSearchParams(location.search).get("marketplace") || previous;
  if (wanted) select.value = marketplaces.find((m) => m.id === wanted || m.slug === wanted)?.id ?? select.value;
}

$("#sign-in").addEventListener("submit", (event) => {
  event.preventDefault();
  act($("#sign-in-button"), async () => {
    const marketplace = marketplaces.find((m) => m.id === $("#marketplace").value);
    localStorage.setItem("souk.console.marketplace", marketplace.id);
    await session.signIn(
      { id: marketplace.id, name: marketplace.displayName, vertical: marketplace.vertical, timeZone: marketplace.timeZone, currency: marketplace.currencyCode },
      $("#email").value.trim(), $("#password").value);
    $("#password").value = "";
  });
});

// The stream closes first: the sign-out ends the session, which would end it as revoked.
$("#sign-out").addEventListener("click", () => act(null, () => {
  stopWatch();
  return session.signOut();
}));

// ---- tabs ----

const tabs = {
  approvals: loadApprovals,
  orders: loadOrders,
  payments: loadPayments,
  support: loadTickets,
  announcements: loadAnnouncements,
};
let currentTab = sessionStorage.getItem("souk.console.tab") || "approvals";

function showTab(name) {
  if (!tabs[name]) name = "approvals";
  currentTab = name;
  sessionStorage.setItem("souk.console.tab", name);
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const section of document.querySelectorAll(".tab")) section.hidden = section.id !== `tab-${name}`;
  document.body.dataset.tab = name;
  document.body.dataset.loaded = "";
  showError(null);
  $("#notice").hidden = true;
  return act(null, tabs[name]).then(() => { document.body.dataset.loaded = name; });
}

for (const button of document.querySelectorAll("#tabs button")) {
  button.addEventListener("click", () => showTab(button.dataset.tab));
}

// ---- approvals: pending roles, pending restaurants ----

const DECIDED_ROLES = ["ROLE_PROVIDER", "ROLE_COURIER", "ROLE_ADMIN"];

async function loadApprovals() {
  const lists = await Promise.all(DECIDED_ROLES.map((role) =>
    session.authed("souk.v1.Accounts/ListAccounts", { role, roleStatus: "ROLE_STATUS_PENDING", pageSize: 100 })
      .then((reply) => (reply.accounts || []).map((account) => ({ account, role })))));
  const rows = lists.flat().map(({ account, role }) => {
    const grant = (account.roles || []).find((r) => r.role === role) || {};
    const reason = element("input", { class: "reason", placeholder: t("reason"), "aria-label": t("reason") });
    const row = element("tr", { dataset: { accountId: account.id, role } },
      element("td", {}, `${[account.givenName, account.familyName].filter(Boolean).join(" ")} <${account.email || account.id}>`),
      element("td", {}, enumLabel(role)),
      element("td", {}, formatTime(grant.requestTime)),
      element("td", { class: "actions" },
        element("button", { type: "button", class: "approve", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Accounts/ApproveRole", { accountId: account.id, role, expectedVersion: account.version });
          notice("approved");
          await loadApprovals();
        }) }, t("approve")),
        reason,
        element("button", { type: "button", class: "reject secondary", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Accounts/RejectRole", { accountId: account.id, role, reason: reason.value, expectedVersion: account.version });
          notice("rejected");
          await loadApprovals();
        }) }, t("reject"))));
    return row;
  });
  fillTable($("#pending-roles"), rows, "nothingWaiting");

  const food = session.current().marketplace.vertical === "VERTICAL_FOOD_DELIVERY";
  $("#restaurants-block").hidden = !food;
  if (!food) return;
  const reply = await session.authed("souk.v1.Catalog/ListRestaurants", { approvalStates: ["RESTAURANT_APPROVAL_STATE_PENDING"], pageSize: 100 });
  const restaurantRows = (reply.restaurants || []).map(({ restaurant }) => {
    const reason = element("input", { class: "reason", placeholder: t("reason"), "aria-label": t("reason") });
    const address = restaurant.address || {};
    return element("tr", { dataset: { restaurantId: restaurant.id } },
      element("td", {}, element("strong", {}, restaurant.name || restaurant.id), element("div", { class: "muted" }, restaurant.description || "")),
      element("td", {}, [address.line1, address.city].filter(Boolean).join(", ")),
      element("td", {}, formatTime(restaurant.createTime)),
      element("td", { class: "actions" },
        element("button", { type: "button", class: "approve", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Catalog/ApproveRestaurant", { restaurantId: restaurant.id, expectedVersion: restaurant.version });
          notice("approved");
          await loadApprovals();
        }) }, t("approve")),
        reason,
        element("button", { type: "button", class: "reject secondary", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Catalog/RejectRestaurant", { restaurantId: restaurant.id, reason: reason.value, expectedVersion: restaurant.version });
          notice("rejected");
          await loadApprovals();
        }) }, t("reject"))));
  });
  fillTable($("#pending-restaurants"), restaurantRows, "nothingWaiting");
}

// ---- orders: the last 30 days and the list by status ----

const ORDER_STATUSES = ["PENDING", "APPROVED", "PLACED", "PREPARING", "OUT_FOR_DELIVERY", "SHIPPED", "DELIVERED", "RECEIVED", "COMPLETED", "CANCELLED"];
const FINAL_ORDER_STATUSES = ["RECEIVED", "COMPLETED", "CANCELLED"];

function fillStatusSelect(select, statuses, prefix, extra = []) {
  const kept = select.value;
  select.replaceChildren(
    element("option", { value: "" }, t("anyStatus")),
    ...extra.map(([value, key]) => element("option", { value }, t(key))),
    ...statuses.map((s) => element("option", { value: prefix + s }, enumLabel(prefix + s, prefix))));
  select.value = kept || "";
}

/** Today in the marketplace's time zone, and the 29 days before it, as contract Dates. */
function last30Days() {
  const zone = session.current().marketplace.timeZone || "UTC";
  let today;
  try {
    today = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date());
  } catch {
    today = new Date().toISOString().slice(0, 10);
  }
  const [y, m, d] = today.split("-").map(Number);
  const end = new Date(Date.UTC(y, m - 1, d));
  const start = new Date(end.getTime() - 29 * 86_400_000);
  const date = (day) => ({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() });
  return { startDate: date(start), endDate: date(end) };
}

const dateText = (d) => `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

async function loadOrders() {
  fillStatusSelect($("#order-status"), ORDER_STATUSES, "ORDER_STATUS_", [["active", "activeOrders"]]);
  const overviewCall = session.current().marketplace.vertical === "VERTICAL_RENTALS"
    ? Promise.resolve(null)
    : session.authed("souk.v1.Reports/GetOrdersOverview", { dates: last30Days() });
  const selected = $("#order-status").value;
  const statuses = selected === "active"
    ? ORDER_STATUSES.filter((s) => !FINAL_ORDER_STATUSES.includes(s)).map((s) => "ORDER_STATUS_" + s)
    : selected ? [selected] : [];
  const [overview, list] = await Promise.all([overviewCall, session.authed("souk.v1.Orders/ListOrders", { statuses, pageSize: 50 })]);

  if (overview) {
    const days = (overview.days || []).map((day) => {
      const label = dateText(day.date || {});
      const value = Number(day.ordersPlaced || 0);
      return { label, value, title: `${label}: ${value} ${t("placed")}` };
    });
    drawBars($("#orders-chart"), days, { barLabel: t("last30Days") });
    const totals = [
      ["placed", overview.ordersPlaced || 0], ["completed", overview.ordersCompleted || 0],
      ["cancelled", overview.ordersCancelled || 0], ["revenue", formatMoney(overview.revenue)],
    ];
    $("#orders-totals").replaceChildren(...totals.flatMap(([key, value]) => [element("dt", {}, t(key)), element("dd", { dataset: { total: key } }, value)]));
  }
  const rows = (list.orders || []).map((order) => element("tr", { dataset: { orderId: order.id } },
    element("td", {}, order.orderNumber || order.id),
    element("td", {}, enumLabel(order.status, "ORDER_STATUS_")),
    element("td", {}, order.restaurantName || "—"),
    element("td", {}, formatMoney(order.price?.total)),
    element("td", {}, formatTime(order.createTime))));
  fillTable($("#orders"), rows, "noOrders");
}

$("#order-status").addEventListener("change", () => act(null, loadOrders));

// ---- payments and refunds ----

const PAYMENT_STATUSES = ["PENDING", "COLLECTED", "SUCCESSFUL", "FAILED", "PARTIALLY_REFUNDED", "REFUNDED"];

async function loadPayments() {
  fillStatusSelect($("#payment-status"), PAYMENT_STATUSES, "PAYMENT_STATUS_");
  const selected = $("#payment-status").value;
  const reply = await session.authed("souk.v1.Payments/ListPayments", { statuses: selected ? [selected] : [], pageSize: 50 });
  const rows = (reply.payments || []).map((payment) => {
    const refundable = payment.status === "PAYMENT_STATUS_SUCCESSFUL" || payment.status === "PAYMENT_STATUS_PARTIALLY_REFUNDED";
    const reason = element("input", { class: "reason", placeholder: t("reason"), "aria-label": t("reason") });
    return element("tr", { dataset: { paymentId: payment.id } },
      element("td", {}, payment.id.slice(-12)),
      element("td", {}, payment.target ? `${enumLabel(payment.target.type, "RESOURCE_TYPE_")} ${String(payment.target.id || "").slice(-12)}` : "—"),
      element("td", {}, enumLabel(payment.method, "PAYMENT_METHOD_")),
      element("td", {}, enumLabel(payment.status, "PAYMENT_STATUS_")),
      element("td", {}, formatMoney(payment.amount)),
      element("td", {}, formatMoney(payment.refundedAmount)),
      element("td", { class: "actions" }, ...(refundable ? [reason,
        element("button", { type: "button", class: "refund secondary", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Payments/RefundPayment", {
            requestId: newRequestId(), paymentId: payment.id, reason: reason.value, expectedVersion: payment.version,
          });
          notice("refundDone");
          await loadPayments();
        }) }, t("refund"))] : [])));
  });
  fillTable($("#payments"), rows, "noPayments");
}

$("#payment-status").addEventListener("change", () => act(null, loadPayments));

// ---- support inbox ----

let openTicketId = null;

async function loadTickets() {
  const statuses = $("#ticket-filter").value === "waiting" ? ["TICKET_STATUS_OPEN", "TICKET_STATUS_ANSWERED"] : [];
  const reply = await session.authed("souk.v1.Support/ListTickets", { statuses, pageSize: 50 });
  const rows = (reply.tickets || []).map((ticket) => element("tr", {
    class: ticket.id === openTicketId ? "selected clickable" : "clickable", dataset: { ticketId: ticket.id },
    onclick: () => act(null, () => openTicket(ticket.id)),
  },
  element("td", {}, ticket.subject || "—", ticket.overdue ? element("span", { class: "badge" }, "!") : ""),
  element("td", {}, enumLabel(ticket.topic, "TICKET_TOPIC_")),
  element("td", {}, enumLabel(ticket.status, "TICKET_STATUS_")),
  element("td", {}, formatTime(ticket.updateTime))));
  fillTable($("#tickets"), rows, "noTickets");
  if (openTicketId) await openTicket(openTicketId);
}

async function openTicket(ticketId) {
  openTicketId = ticketId;
  for (const row of document.querySelectorAll("#tickets tr[data-ticket-id]")) row.classList.toggle("selected", row.dataset.ticketId === ticketId);
  const [ticket, messages] = await Promise.all([
    session.authed("souk.v1.Support/GetTicket", { ticketId }),
    session.authed("souk.v1.Support/ListTicketMessages", { ticketId, pageSize: 100 }),
  ]);
  const reply = element("textarea", { id: "reply-text", rows: 3, maxlength: 5000, "aria-label": t("reply"), placeholder: t("reply") });
  const closed = ticket.status === "TICKET_STATUS_CLOSED";
  $("#ticket").replaceChildren(
    element("h3", {}, ticket.subject || ""),
    element("p", { class: "muted" }, `${enumLabel(ticket.topic, "TICKET_TOPIC_")} · ${enumLabel(ticket.status, "TICKET_STATUS_")} · ${ticket.contactName || ""} ${ticket.contactEmail || ""}`),
    element("ol", { id: "ticket-messages", class: "messages", dataset: { ticketId } }, ...(messages.messages || []).map((m) =>
      element("li", { class: m.fromAdmin ? "from-admin" : "from-author" },
        element("div", { class: "muted" }, `${m.fromAdmin ? t("fromAdmin") : t("fromAuthor")} · ${formatTime(m.createTime)}`),
        element("p", {}, m.text || "")))),
    ...(closed ? [] : [
      reply,
      element("div", { class: "buttons" },
        element("button", { id: "send-reply", type: "button", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Support/AddTicketMessage", { requestId: newRequestId(), ticketId, text: reply.value });
          await loadTickets();
          notice("replySent");
        }) }, t("send")),
        element("button", { id: "close-ticket", type: "button", class: "secondary", onclick: (e) => act(e.target, async () => {
          await session.authed("souk.v1.Support/CloseTicket", { ticketId, expectedVersion: ticket.version });
          await loadTickets();
        }) }, t("close"))),
    ]));
}

$("#ticket-filter").addEventListener("change", () => act(null, loadTickets));

// ---- announcements ----

const AUDIENCE = ["ROLE_CUSTOMER", "ROLE_PROVIDER", "ROLE_COURIER", "ROLE_ADMIN"];
const CONTENT_STATES = ["DRAFT", "SCHEDULED", "PUBLISHED", "EXPIRED", "ARCHIVED"].map((s) => "CONTENT_STATE_" + s);

function fillAudience() {
  const fieldset = $("#announcement-audience");
  const checked = new Set([...fieldset.querySelectorAll("input:checked")].map((i) => i.value));
  fieldset.replaceChildren(element("legend", { "data-i18n": "audience" }, t("audience")),
    ...AUDIENCE.map((role) => element("label", { class: "inline" },
      element("input", { type: "checkbox", value: role, checked: checked.has(role) }), enumLabel(role))));
}

async function loadAnnouncements() {
  fillAudience();
  const reply = await session.authed("souk.v1.Admin/ListAnnouncements", { states: CONTENT_STATES, pageSize: 50 });
  const rows = (reply.announcements || []).map((a) => element("tr", { dataset: { announcementId: a.id } },
    element("td", {}, element("strong", {}, a.title || ""), element("div", { class: "muted clip" }, a.body || "")),
    element("td", {}, (a.audienceRoles || []).length ? a.audienceRoles.map((r) => enumLabel(r)).join(", ") : t("everyone")),
    element("td", {}, enumLabel(a.state, "CONTENT_STATE_")),
    element("td", {}, formatTime(a.createTime)),
    element("td", { class: "actions" }, ...(a.state === "CONTENT_STATE_DRAFT" ? [
      element("button", { type: "button", class: "publish", onclick: (e) => act(e.target, async () => {
        await session.authed("souk.v1.Admin/UpdateAnnouncement", {
          announcement: { id: a.id, publishTime: new Date().toISOString() }, updateMask: "publishTime", expectedVersion: a.version,
        });
        notice("published");
        await loadAnnouncements();
      }) }, t("publish"))] : []))));
  fillTable($("#announcements"), rows, "noAnnouncements");
}

$("#announcement-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const publish = event.submitter?.value !== "draft";
  act(event.submitter, async () => {
    const announcement = {
      title: $("#announcement-title").value,
      body: $("#announcement-body").value,
      audienceRoles: [...document.querySelectorAll("#announcement-audience input:checked")].map((i) => i.value),
    };
    if (publish) announcement.publishTime = new Date().toISOString();
    await session.authed("souk.v1.Admin/CreateAnnouncement", { requestId: newRequestId(), announcement });
    $("#announcement-form").reset();
    notice(publish ? "published" : "saveDraft");
    await loadAnnouncements();
  });
});

// ---- the admin's account stream ----

// Notifications.WatchAccount, open while signed in: a change of a ticket the admin takes part in
// reloads the support inbox, and the server ending the session (signed out everywhere, blocked)
// ends it here at once. Token expiry is refreshed and the stream reopened where it stopped.
let watch = null;

function startWatch() {
  if (watch) return;
  const controller = new AbortController();
  watch = controller;
  let resumeAfter = 0;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  (async () => {
    let failures = 0;
    while (!controller.signal.aborted && session.current()) {
      try {
        await session.authedStream("souk.v1.Notifications/WatchAccount", { resumeAfterSequence: resumeAfter }, {
          signal: controller.signal,
          onHeaders: () => { document.body.dataset.live = "yes"; failures = 0; },
          onMessage: (event) => {
            resumeAfter = Number(event.sequence || resumeAfter);
            if (event.ticket && currentTab === "support") act(null, loadTickets);
          },
        });
      } catch (error) {
        document.body.dataset.live = "no";
        if (controller.signal.aborted) return;
        if (error instanceof RpcError && error.code === 16) {
          if (error.reason === "TOKEN_EXPIRED") {
            try { await session.refresh(); continue; } catch { return; }
          }
          // SESSION_REVOKED, ACCOUNT_BLOCKED: the session is over.
          session.forget();
          showError(error);
          return;
        }
        if (error instanceof RpcError && error.code === 11) resumeAfter = 0;  // events expired: from now on
        failures += 1;
      }
      // Ended or failed (the network, the server restarting): again, a little later each time.
      await pause(Math.min(30_000, 500 * 2 ** Math.min(failures, 6)));
    }
  })();
}

function stopWatch() {
  watch?.abort();
  watch = null;
  document.body.dataset.live = "no";
}

// ---- the page ----

function render() {
  const signedIn = session.current();
  $("#sign-in-view").hidden = !!signedIn;
  $("#console-view").hidden = !signedIn;
  $("#sign-out").hidden = !signedIn;
  $("#who").textContent = signedIn
    ? `${t("signedInAs")} ${signedIn.account.email || ""} · ${signedIn.marketplace.name}`
    : "";
  document.body.dataset.signedIn = signedIn ? "yes" : "no";
  if (signedIn) {
    startWatch();
    showTab(currentTab);
  } else {
    stopWatch();
    act(null, loadMarketplaces);
  }
}

$("#language").addEventListener("change", () => {
  setLanguage($("#language").value);
  render();
});

// A refresh changes the tokens only: the page is drawn again when one signs in or out.
let signedInBefore = !!session.current();
session.onChange((current) => {
  if (!!current !== signedInBefore) {
    signedInBefore = !!current;
    render();
  }
});
$("#language").value = language();
setLanguage(language());
render();
