// The signed-in admin: tokens kept in sessionStorage (gone when the tab closes), refreshed with
// the refresh token shortly before the access token expires, and every call made with them.
import { call, callStream, RpcError } from "./transport.js";
import { language } from "./i18n.js";

const KEY = "souk.console.session";
// Refresh this long before the access token's expiry, so no call is made with an expired one.
const REFRESH_MARGIN_MS = 30_000;

let session = JSON.parse(sessionStorage.getItem(KEY) || "null");
let refreshTimer = null;
let refreshing = null;
const listeners = new Set();

export const current = () => session;
export const onChange = (listener) => listeners.add(listener);

function store(next) {
  session = next;
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
  else sessionStorage.removeItem(KEY);
  scheduleRefresh();
  for (const listener of listeners) listener(session);
}

function fromSession(marketplace, reply) {
  return {
    marketplace,
    accessToken: reply.accessToken,
    accessExpire: Date.parse(reply.accessTokenExpireTime || 0),
    refreshToken: reply.refreshToken,
    refreshExpire: Date.parse(reply.refreshTokenExpireTime || 0),
    sessionId: reply.sessionId,
    account: reply.account || {},
  };
}

function scheduleRefresh() {
  clearTimeout(refreshTimer);
  if (!session) return;
  const wait = Math.max(0, session.accessExpire - Date.now() - REFRESH_MARGIN_MS);
  refreshTimer = setTimeout(() => refresh().catch(() => {}), wait);
}

const baseMetadata = () => ({ "accept-language": language() });

/** Signs in with Accounts.Login; the account must hold the admin role, active. */
export async function signIn(marketplace, email, password) {
  const reply = await call("souk.v1.Accounts/Login", {
    marketplaceId: marketplace.id, email, password, deviceName: "Souk admin console",
  }, { metadata: baseMetadata() });
  const isAdmin = (reply.account?.roles || []).some((r) => r.role === "ROLE_ADMIN" && r.status === "ROLE_STATUS_ACTIVE");
  if (!isAdmin) {
    await call("souk.v1.Accounts/Logout", { marketplaceId: marketplace.id },
      { metadata: { ...baseMetadata(), authorization: `Bearer ${reply.accessToken}` } }).catch(() => {});
    throw new RpcError(7, "", { reason: "NOT_ADMIN" });
  }
  store(fromSession(marketplace, reply));
}

/** A new token pair from the refresh token (one refresh at a time). */
export function refresh() {
  if (!session) return Promise.reject(new RpcError(16, "signed out"));
  refreshing ||= call("souk.v1.Accounts/Refresh", {
    marketplaceId: session.marketplace.id, refreshToken: session.refreshToken,
  }, { metadata: baseMetadata() })
    .then((reply) => store({ ...fromSession(session.marketplace, reply), account: reply.account || session.account }))
    .catch((error) => {
      if (error instanceof RpcError && error.code === 16) store(null);
      throw error;
    })
    .finally(() => { refreshing = null; });
  return refreshing;
}

export async function signOut() {
  if (!session) return;
  await authed("souk.v1.Accounts/Logout", {}).catch(() => {});
  store(null);
}

async function metadata() {
  if (!session) throw new RpcError(16, "signed out");
  if (Date.now() > session.accessExpire - REFRESH_MARGIN_MS) await refresh();
  return { ...baseMetadata(), authorization: `Bearer ${session.accessToken}` };
}

/**
 * A unary call as the signed-in admin, in its marketplace; a call refused for an expired token
 * is made once more after a refresh.
 */
export async function authed(method, request) {
  const body = { marketplaceId: session?.marketplace.id, ...request };
  try {
    return await call(method, body, { metadata: await metadata() });
  } catch (error) {
    if (error instanceof RpcError && error.code === 16 && error.reason === "TOKEN_EXPIRED") {
      await refresh();
      return call(method, body, { metadata: await metadata() });
    }
    throw error;
  }
}

/** A server-streaming call as the signed-in admin. */
export async function authedStream(method, request, { onMessage, onHeaders, signal }) {
  return callStream(method, { marketplaceId: session?.marketplace.id, ...request },
    { metadata: await metadata(), onMessage, onHeaders, signal });
}

/** Forgets a session the server ended (revoked, blocked), without calling it. */
export function forget() {
  store(null);
}

scheduleRefresh();
