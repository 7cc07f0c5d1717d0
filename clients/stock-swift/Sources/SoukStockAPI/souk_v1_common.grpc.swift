/// Souk API, package souk.v1: shared messages and the conventions every service follows.
///
/// FILES. One file per service (marketplaces, accounts, catalog, carts, orders, payments,
/// deliveries, feedback, laundry, rentals, messaging, notifications, support, admin, reports)
/// plus this file. Enums live in the file of the resource that uses them.
///
/// IDENTIFIERS. Every resource has `string id = 1`: a UUID version 7 in canonical lower-case
/// text form ("0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d"), assigned by the server on Create. Ids
/// sort by creation time. A field named `<thing>_id` holds such a UUID.
///
/// MARKETPLACE SCOPING (one rule, no exceptions beyond the two below). Every request message
/// carries the marketplace it acts in as field 1, `string marketplace_id = 1`, even when the
/// caller is signed in. Guests must send it to browse. For a signed-in caller it must equal the
/// marketplace of the account in the token, otherwise the call fails with PERMISSION_DENIED
/// (reason MARKETPLACE_MISMATCH); platform operators' tokens are valid in every marketplace. A
/// record that exists in another marketplace answers NOT_FOUND, never its data. The only
/// requests without `marketplace_id` are CreateMarketplace and ListMarketplaces (they act on
/// the platform). Accounts.Login with an empty marketplace_id signs in a platform operator.
///
/// AUTHENTICATION. Callers other than guests send `authorization: Bearer <access_token>` in the
/// request metadata. Tokens come from Accounts.SignUp, Login and Refresh. A blocked, deleted
/// or signed-out account's tokens stop working at once.
///
/// ACCESS LINE. The first line of every RPC's comment is machine-readable:
///     // Access: <caller>[, <caller>]... .
/// where each <caller> is one of the words
///     guest     no token needed (so anyone, signed in or not, may call)
///     customer  an account holding the active customer role (every marketplace account
///               holds it from sign-up, so `customer` also means "any signed-in account")
///     provider  an account holding the active provider role (shop, restaurant, service
///               company, lessor)
///     courier   an account holding the active courier role (delivery staff, driver, Dasher)
///     admin     an account holding the active admin role in the marketplace
///     operator  a platform operator (an account outside every marketplace)
///     push_adapter  the push adapter: a platform service account (outside every marketplace)
///               holding the push_adapter role, which drains the push outbox of every
///               marketplace (notifications.proto, PUSH OUTBOX); it is nothing else
/// optionally followed by the qualifier ` (owner)`: the caller must be that role's own party on
/// the resource the request names. A customer owns what they bought, booked, requested or
/// wrote (their orders, jobs, bookings as lessee, tickets, feedback, addresses, account) and
/// the conversations they take part in (every account holds the customer role). A
/// provider owns what they sell: their restaurant with its menu items and orders, their
/// listings with the bookings and bills on them; in water-services and retail marketplaces the
/// marketplace itself is the seller, so every active provider there owns its services,
/// products and orders. A courier owns the deliveries and jobs assigned or offered to them.
/// Roles are checked as active: a pending, rejected or revoked role grants nothing. Nothing is
/// implied: operator is listed wherever operators may call.
///
/// ERRORS LINE. After the description, `// Errors: ...` lists the canonical gRPC codes the RPC
/// returns for domain reasons, each with its cause in parentheses. Not repeated on each RPC:
/// UNAUTHENTICATED on a non-guest RPC, with one reason per cause a client handles differently
/// (SIGN_IN_REQUIRED: no token, sign in; TOKEN_EXPIRED: refresh the session; SESSION_REVOKED:
/// the session ended, sign in again; TOKEN_INVALID: malformed or unknown token, sign in again;
/// ACCOUNT_BLOCKED: an admin blocked the account, signing in will not help; on a streaming RPC
/// also the end of an open stream, STREAMS below), INVALID_ARGUMENT
/// (marketplace_id or an id field is not a UUID), NOT_FOUND (unknown marketplace),
/// FAILED_PRECONDITION (reason WRONG_VERTICAL: the RPC belongs to another vertical than the
/// marketplace's; MARKETPLACE_ARCHIVED), RESOURCE_EXHAUSTED (rate limit;
/// TOO_MANY_STREAMS on a streaming RPC; READER_TOO_SLOW on a Watch RPC), DEADLINE_EXCEEDED,
/// UNAVAILABLE (OVERLOADED: the server refused the call unexecuted, see OVERLOAD), INTERNAL.
///
/// OVERLOAD. The server works on a bounded number of calls at once (--max-calls-in-progress); a
/// call that finds them all taken waits briefly for one (--admission-queue calls at most, each
/// for --admission-wait-ms, less under sustained overload, and never past its deadline). A call
/// that cannot start so is refused at once, before any of its work: UNAVAILABLE (reason
/// OVERLOADED, ErrorInfo.metadata `executed` "false") with a RetryInfo of a fraction of a
/// second, randomized; any RPC, even one not otherwise safe to repeat, may be sent again after
/// it. Streaming calls are admitted the same way when they open; once a server stream
/// has answered (sent its headers or first event), and once a stream the client sends on
/// (ReportLocation, UploadMedia, WatchConversation) has opened, it counts only under the
/// STREAMS caps below. grpc.health.v1.Health/Check is never refused.
///
/// STREAMS. A streaming call (Watch…, ReportLocation, UploadMedia, DownloadMedia) lives no longer
/// than the session it was opened with: it ends at once with UNAUTHENTICATED when its account is
/// blocked (reason ACCOUNT_BLOCKED), its session is signed out or revoked, or all the account's
/// sessions are ended by a password change or reset (SESSION_REVOKED), and when the access token
/// it was opened with expires while its session holds no newer one (TOKEN_EXPIRED: refresh, then
/// open it again; a Watch RPC resumes with resume_after_sequence). A client that refreshes its
/// session's tokens in time keeps its open streams: each lasts to the newest token's expiry.
/// Open streams are capped per connection (32) and per signed-in account (64; the server's
/// --max-streams-per-connection and --max-streams-per-account): one more answers
/// RESOURCE_EXHAUSTED (TOO_MANY_STREAMS) with RetryInfo. A Watch RPC whose client stops reading
/// holds a bounded queue of events (--max-stream-queue-bytes): past it the stream ends with
/// RESOURCE_EXHAUSTED (READER_TOO_SLOW) and ErrorInfo.metadata `last_sequence`, the last event it
/// delivered, to resume after; the stream's other watchers are not held back.
///
/// A validation error is INVALID_ARGUMENT whose message starts with the field path
/// ("lines[0].quantity: must be between 1 and 12").
///
/// ERROR DETAILS (AIP-193). Every error carries, in the standard `grpc-status-details-bin`
/// trailer, a google.rpc.Status whose details hold:
///   google.rpc.ErrorInfo         always: `reason` is an ErrorReason name without its prefix
///                                ("STALE_VERSION"), `domain` is "souk.v1", `metadata` adds what
///                                is useful: `field`, `resource_type` and `resource_id`,
///                                `current_version`, `state`, `marketplace_id`, `vertical`.
///   google.rpc.BadRequest        when fields are wrong: one field violation per field.
///   google.rpc.RetryInfo         when waiting helps (a locked account, a rate limit).
///   google.rpc.LocalizedMessage  always: a sentence for the reason, fit to show to the user, in
///                                the caller's language: the signed-in account's locale, else the
///                                supported language the `accept-language` metadata prefers
///                                (highest q-value, then first listed), else English. Supported:
///                                en, ar, vi; `locale` says which was used.
/// The grpc-message (Status.message) stays a developer-facing English text that may name fields
/// and values. Clients branch on ErrorInfo.reason, never on messages.
///
/// PAGINATION (AIP-158). List and search requests have `int32 page_size` (0 means 20, larger
/// than 100 is treated as 100, negative is INVALID_ARGUMENT) and `string page_token` (opaque,
/// from a previous response's `next_page_token`; it must be sent with the same filters,
/// otherwise INVALID_ARGUMENT). An empty `next_page_token` means the last page. Filters exist
/// only on indexed fields; each List comment names its indexes.
///
/// IDEMPOTENCY (AIP-155). Every Create and every call that creates something (checkout, place
/// order, submit job, request booking, send message, pay, ...) has `string request_id`: a key
/// the client chooses per logical operation (a UUID is recommended, at most 64 characters),
/// scoped to the marketplace and the caller (guests: the marketplace). The same key with the
/// same request returns the first result again for at least 24 hours; the same key with a
/// different request fails with INVALID_ARGUMENT (reason REQUEST_ID_REUSED). An empty
/// request_id is INVALID_ARGUMENT. Transitions (confirm, cancel, advance, ...) are made safe to
/// retry by expected_version instead: a retried transition that already happened fails with
/// ABORTED and the client re-reads the resource.
///
/// VERSIONS. Every stored resource carries `int64 version` (1 on creation, plus one on every
/// change a caller makes: an Update or a transition), `create_time` and `update_time` (the time
/// of that change). Fields the server maintains (ratings and their counts, stock, completed
/// jobs, the active booking or lease, a courier's location and availability, counters) change
/// without touching `version` or `update_time`, so they never make a client's edit stale.
/// Every Update and every transition takes `int64 expected_version`, the version the client
/// read; if the resource has changed since, the call fails with ABORTED (reason STALE_VERSION)
/// and the client re-reads. Update requests also take a `google.protobuf.FieldMask update_mask`
/// naming the fields to change (AIP-134); output-only fields in a mask are INVALID_ARGUMENT. An
/// Update with a mask may leave expected_version 0 (unset) to apply the named fields whatever
/// the version (last writer wins for those fields). Switches (SetCourierAvailability,
/// SetAcceptingRequests, a restaurant's open flag) take no expected_version: the last call wins.
///
/// SOFT DELETES. Resources that are deleted by users (menu items, addresses, listings, and the
/// other resources with an Archive RPC) are archived, never erased: `archived` becomes true and
/// `archive_time` is set; Restore undoes it. Lists hide archived records unless asked.
///
/// LIVE UPDATES. Server-streaming `Watch...` RPCs take `int64 resume_after_sequence`. Events of
/// one watched stream (one order, one job, one booking, one conversation, one account's
/// notifications, one courier's positions) carry a `sequence` that starts at 1 and grows by
/// one per event; creating a resource is its first event. With N > 0 the server replays every
/// stored event after N, then sends live events, so a client that reconnects with the last
/// sequence it saw gets no gap and no duplicate. With 0: a resource stream (order, job,
/// booking) first sends the current state as one event carrying the latest sequence; a
/// conversation or notification stream sends only events from now on (a client that read the
/// conversation or listed notifications first passes the `last_sequence` it got instead). If
/// events after N are no longer kept the call fails with OUT_OF_RANGE (reason EVENTS_EXPIRED)
/// and the client reads the state again and watches from 0. Courier positions are not kept:
/// a resumed position stream sends the latest position if newer than N. Ephemeral events
/// (typing indicators) carry sequence 0 and are never replayed. A Watch on a resource that
/// reaches a final state sends that event and then ends with OK.
///
/// MONEY AND NUMBERS. Money is Money (below), never a float. Percentages are integer basis
/// points (2600 = 26 %). A percentage of an amount is rounded half away from zero to the minor
/// unit. All amounts in one marketplace use its currency.
///
/// TIME. Instants are google.protobuf.Timestamp (UTC). Calendar dates are Date, read in the
/// marketplace's time zone. Durations are google.protobuf.Duration.
///
/// OTHER PARTIES. Resources show the other accounts they involve (the customer, provider and
/// courier of an order or delivery, the lessee and lessor of a booking, the participants of a
/// conversation, the author and the rated party of feedback) as a PersonSummary beside their
/// ids, so a list screen needs no call per row. A summary carries the name the marketplace's
/// privacy rule allows (PersonSummary.display_name), the avatar and the rating, and never an
/// e-mail address or a phone number.
///
/// PHONES. An account's phone is shown to the account itself and to the admins and operators of
/// its marketplace. The phone on an order's delivery address (Address.phone) is shown to the
/// order's customer, to admins and operators, and to the provider and the courier of that order
/// only while the order is active (not completed, received or cancelled); it is cleared from
/// every other view and, for them, once the order is final. In food delivery (DineSwift) the
/// restaurant and the driver see nothing of the customer once the order is final: no name and
/// no delivery address. No other call shows a phone. In a
/// laundry marketplace (Drip 'n Dash) no call shows another student's phone, e-mail or family
/// name at all.

// DO NOT EDIT.
// swift-format-ignore-file
// swiftlint:disable all
//
// Generated by the gRPC Swift generator plugin for the protocol buffer compiler.
// Source: souk/v1/common.proto
//
// For information on using the generated types, please see the documentation:
//   https://github.com/grpc/grpc-swift

// This file contained no services.