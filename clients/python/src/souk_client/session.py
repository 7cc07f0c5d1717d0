"""A signed-in account on a Souk server: the stubs of every souk.v1 service, each call carrying
the bearer token, the token refreshed before it expires, and failures raised as SoukError."""
from __future__ import annotations

import re
import threading
import time
import uuid
import weakref
from time import monotonic as _monotonic
from typing import Iterable, Optional

import grpc

from souk_client.errors import SoukError
from souk_client.stubs import SERVICES, Service, Stream, attribute_name, stub
from souk_client.v1 import accounts_pb2, marketplaces_pb2

DEFAULT_TIMEOUT = 10.0
# A lost answer: the call may or may not have reached the server.
_RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
_TIMER_FLOOR = 1.0
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def connect(target, credentials: Optional[grpc.ChannelCredentials] = None, options: Iterable = ()) -> grpc.Channel:
    """A channel to `target` ("host:port"): TLS with `credentials`, else cleartext HTTP/2."""
    if credentials is not None:
        return grpc.secure_channel(target, credentials, options=list(options))
    return grpc.insecure_channel(target, options=list(options))


def request_id() -> str:
    """A new idempotency key (AIP-155): one per logical operation, reused when retrying it."""
    return str(uuid.uuid4())


def resolve_marketplace(channel: grpc.Channel, marketplace: Optional[str], timeout: float = DEFAULT_TIMEOUT) -> str:
    """The id of a marketplace named by its id, slug or display name ("Aqua Hub", "aqua-hub");
    "" (or None) stays "", the platform operator's sign-in."""
    if not marketplace:
        return ""
    if _UUID.match(marketplace):
        return marketplace
    marketplaces = stub(channel, "souk.v1.Marketplaces")
    request = marketplaces_pb2.ListMarketplacesRequest(page_size=100)
    wanted = marketplace.casefold()
    try:
        while True:
            page = marketplaces.ListMarketplaces(request, timeout=timeout)
            for m in page.marketplaces:
                if wanted in (m.id, m.slug.casefold(), m.display_name.casefold()):
                    return m.id
            if not page.next_page_token:
                break
            request.page_token = page.next_page_token
    except grpc.RpcError as error:
        raise SoukError.from_rpc_error(error) from None
    raise SoukError(grpc.StatusCode.NOT_FOUND, f"no marketplace named {marketplace!r}")


def _seconds(timestamp) -> float:
    return timestamp.seconds + timestamp.nanos / 1e9


class Session:
    """One signed-in session (or a guest, without tokens) on one channel.

    `session.catalog.ListProducts(request)` calls souk.v1.Catalog/ListProducts with the bearer
    token, the session's language and a default deadline; a request whose `marketplace_id` is
    empty gets the session's. Every service is an attribute named in snake case
    (`session.marketplaces`, `session.orders`, ...). Failures raise SoukError, also while
    iterating a server stream. While a server stream opened through the session is open, a
    timer refreshes the session before its token expires, as the server ends a session's
    streams when its token expires unrefreshed (`keep_streams_alive=False` turns it off).
    Safe to share between threads.
    """

    def __init__(self, channel: grpc.Channel, marketplace_id: str = "", tokens: Optional[accounts_pb2.Session] = None, *,
                 timeout: Optional[float] = DEFAULT_TIMEOUT, language: Optional[str] = None,
                 refresh_margin: Optional[float] = None, refresh_attempts: int = 4, fill_marketplace: bool = True,
                 keep_streams_alive: bool = True, close_channel: bool = False):
        self.channel = channel
        self.marketplace_id = marketplace_id
        self.timeout = timeout
        self.language = language
        self.refresh_attempts = refresh_attempts
        self.fill_marketplace = fill_marketplace
        self.keep_streams_alive = keep_streams_alive
        self._streams = weakref.WeakSet()
        self._timer: Optional[threading.Timer] = None
        self._refresh_margin = refresh_margin
        self._close_channel = close_channel
        self._lock = threading.RLock()
        self._lifetime = 0.0
        self._refreshed_at = float("-inf")
        self._services: dict = {}
        self._tokens = None
        self.tokens = tokens

    # ---- Signing in ----

    @classmethod
    def sign_in(cls, target, marketplace: Optional[str], email: str, password: str, *, device_name: str = "souk-client",
                credentials: Optional[grpc.ChannelCredentials] = None, options: Iterable = (), **session_options) -> "Session":
        """Signs in with e-mail and password (Accounts/Login). `target` is "host:port" (the
        session opens and owns its channel) or a grpc.Channel; `marketplace` is an id, slug or
        display name, "" for a platform operator."""
        channel, owned = (target, False) if isinstance(target, grpc.Channel) else (connect(target, credentials, options), True)
        timeout = session_options.get("timeout", DEFAULT_TIMEOUT)
        try:
            marketplace_id = resolve_marketplace(channel, marketplace, timeout)
            tokens = stub(channel, "souk.v1.Accounts").Login(accounts_pb2.LoginRequest(
                marketplace_id=marketplace_id, email=email, password=password, device_name=device_name), timeout=timeout)
        except grpc.RpcError as error:
            if owned:
                channel.close()
            raise SoukError.from_rpc_error(error) from None
        return cls(channel, marketplace_id, tokens, close_channel=owned, **session_options)

    @classmethod
    def sign_up(cls, target, marketplace: str, email: str, password: str, *, given_name: str, family_name: str,
                credentials: Optional[grpc.ChannelCredentials] = None, options: Iterable = (), **fields) -> "Session":
        """Creates an account (Accounts/SignUp) and returns its session; the SignUpResponse is
        in `.sign_up_response`. `fields` are further SignUpRequest fields (requested_roles,
        phone, laundry_profile, ...)."""
        guest = cls.guest(target, marketplace, credentials=credentials, options=options)
        try:
            response = guest.accounts.SignUp(accounts_pb2.SignUpRequest(
                marketplace_id=guest.marketplace_id, request_id=request_id(), email=email, password=password,
                given_name=given_name, family_name=family_name, **fields))
        except SoukError:
            guest.close()
            raise
        guest.tokens = response.session
        guest.sign_up_response = response
        return guest

    @classmethod
    def guest(cls, target, marketplace: Optional[str] = "", *, credentials: Optional[grpc.ChannelCredentials] = None,
              options: Iterable = (), **session_options) -> "Session":
        """A session without an account, for what guests may call (browsing, signing up)."""
        channel, owned = (target, False) if isinstance(target, grpc.Channel) else (connect(target, credentials, options), True)
        try:
            marketplace_id = resolve_marketplace(channel, marketplace, session_options.get("timeout", DEFAULT_TIMEOUT))
        except SoukError:
            if owned:
                channel.close()
            raise
        return cls(channel, marketplace_id, None, close_channel=owned, **session_options)

    # ---- Tokens ----

    @property
    def tokens(self) -> Optional[accounts_pb2.Session]:
        """The current souk.v1.Session (access and refresh tokens, expiry times, account), or None
        for a guest."""
        return self._tokens

    @tokens.setter
    def tokens(self, tokens: Optional[accounts_pb2.Session]):
        with self._lock:
            self._tokens = tokens
            if tokens is not None and tokens.HasField("access_token_expire_time"):
                self._lifetime = max(self._lifetime, _seconds(tokens.access_token_expire_time) - time.time())

    @property
    def account(self):
        """The signed-in souk.v1.Account, as of the last sign-in or refresh."""
        return self._tokens.account if self._tokens is not None else None

    @property
    def account_id(self) -> str:
        return self._tokens.account.id if self._tokens is not None else ""

    @property
    def refresh_margin(self) -> float:
        """How long before the access token expires it is refreshed: given, or 60 % of the token's
        lifetime capped at a minute (a call sent with it still has time to arrive)."""
        if self._refresh_margin is not None:
            return self._refresh_margin
        return min(60.0, 0.6 * self._lifetime)

    def expires_in(self) -> float:
        """Seconds until the access token expires (by this machine's clock)."""
        return _seconds(self._tokens.access_token_expire_time) - time.time() if self._tokens else 0.0

    def metadata(self) -> tuple:
        """The call metadata: the bearer token, refreshed first when it is about to expire, and
        the session's language."""
        with self._lock:
            if self._tokens is not None and self.expires_in() < self.refresh_margin:
                self.refresh()
            md = () if self._tokens is None else (("authorization", f"Bearer {self._tokens.access_token}"),)
        if self.language:
            md += (("accept-language", self.language),)
        return md

    def refresh(self) -> accounts_pb2.Session:
        """Exchanges the refresh token for a new pair (Accounts/Refresh).

        The old refresh token is kept until an answer arrives: when the answer is lost
        (UNAVAILABLE, DEADLINE_EXCEEDED) the same token is presented again, and the server,
        which may already have rotated it, answers the same pair within the marketplace's
        refresh_reuse_interval instead of ending the session."""
        with self._lock:
            if self._tokens is None:
                raise SoukError(grpc.StatusCode.UNAUTHENTICATED, "a guest session has no token to refresh")
            request = accounts_pb2.RefreshRequest(marketplace_id=self.marketplace_id, refresh_token=self._tokens.refresh_token)
            accounts = stub(self.channel, "souk.v1.Accounts")
            for attempt in range(self.refresh_attempts):
                try:
                    self.tokens = accounts.Refresh(request, timeout=self.timeout or DEFAULT_TIMEOUT)
                    self._refreshed_at = _monotonic()
                    return self._tokens
                except grpc.RpcError as error:
                    if error.code() not in _RETRYABLE or attempt + 1 == self.refresh_attempts:
                        raise SoukError.from_rpc_error(error) from None
                    time.sleep(min(2.0, 0.1 * 2 ** attempt))
            raise AssertionError("unreachable")

    def sign_out(self, all_sessions: bool = False) -> int:
        """Ends this session (or all of the account's) on the server; returns how many ended."""
        ended = self.accounts.Logout(accounts_pb2.LogoutRequest(marketplace_id=self.marketplace_id, all_sessions=all_sessions))
        with self._lock:
            self.tokens = None
            self._stop_timer()
        return ended.ended_sessions

    # ---- Keeping the streams' session alive ----

    def _follow(self, stream: Stream):
        with self._lock:
            self._streams.add(stream)
            self._schedule()

    def _schedule(self):
        """Arms the timer for when the token reaches its refresh margin (called under the lock)."""
        if self._timer is not None or self._tokens is None:
            return
        delay = self.expires_in() - self.refresh_margin
        if delay <= 0 and _monotonic() - self._refreshed_at < _TIMER_FLOOR:
            # A token that looks due right after a refresh: this clock runs ahead of the server's.
            # Refresh at most once a second rather than spin.
            delay = _TIMER_FLOOR
        self._timer = threading.Timer(max(0.0, delay), self._keep_fresh)
        self._timer.daemon = True
        self._timer.start()

    def _keep_fresh(self):
        with self._lock:
            self._timer = None
            if self._tokens is None or not any(not stream.done() for stream in list(self._streams)):
                return
            if self.expires_in() < self.refresh_margin:
                try:
                    self.refresh()
                except SoukError:
                    return  # the session is over (revoked, blocked, unreachable): its streams end with it
            self._schedule()

    def _stop_timer(self):
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # ---- Calls ----

    def __getattr__(self, name: str) -> Service:
        if name.startswith("_"):
            raise AttributeError(name)
        for full, (stub_class, descriptor) in SERVICES.items():
            if attribute_name(full) == name:
                with self._lock:
                    if full not in self._services:
                        self._services[full] = Service(stub_class(self.channel), descriptor, self._invoke)
                    return self._services[full]
        raise AttributeError(f"{type(self).__name__} has no attribute or souk.v1 service {name!r}")

    def service(self, name: str) -> Service:
        """A service by name ("souk.v1.Catalog" or "Catalog")."""
        return getattr(self, attribute_name(name))

    def _invoke(self, callable_, method, request, kwargs):
        if (self.fill_marketplace and self.marketplace_id and not method.client_streaming
                and "marketplace_id" in method.input_type.fields_by_name and not request.marketplace_id):
            filled = type(request)()
            filled.CopyFrom(request)
            filled.marketplace_id = self.marketplace_id
            request = filled
        extra = tuple(kwargs.pop("metadata", None) or ())
        if method.server_streaming:
            # A stream lives as long as it is read: no default deadline.
            try:
                stream = Stream(callable_(request, metadata=self.metadata() + extra, **kwargs))
            except grpc.RpcError as error:
                raise SoukError.from_rpc_error(error) from None
            if self.keep_streams_alive and self._tokens is not None:
                self._follow(stream)
            return stream
        kwargs.setdefault("timeout", self.timeout)
        for retry in (False, True):
            try:
                return callable_(request, metadata=self.metadata() + extra, **kwargs)
            except grpc.RpcError as error:
                failure = SoukError.from_rpc_error(error)
            # A token that expired on the way (a slow call, a skewed clock) was refused before
            # anything happened: refresh and send once more.
            if (retry or method.client_streaming or self._tokens is None or failure.status != grpc.StatusCode.UNAUTHENTICATED
                    or failure.reason != "TOKEN_EXPIRED"):
                raise failure
            self.refresh()
        raise AssertionError("unreachable")

    # ---- Lifetime ----

    def close(self):
        """Stops refreshing for open streams and closes the channel if the session opened it."""
        with self._lock:
            self._stop_timer()
        if self._close_channel:
            self.channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
