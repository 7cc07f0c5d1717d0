"""Announcements, policies and advertisements (souk.v1.Admin, the content module) end to end
through grpcio: admins of a marketplace create, update (field mask, expected version), archive and
restore each kind; every caller lists what is published for its roles now (publish_time <= now <
expire_time, not archived, aimed at everyone or at one of its active roles), newest first, over
pages; admins list by state; non-admins cannot write; another marketplace's token reads nothing;
a retried create makes one item; an advertisement's image is an uploaded picture of the
marketplace; a published announcement notifies its audience.

The server has no test clock: times are set in the past or the future by minutes, never waited
for (the boundaries to the microsecond are tested in Swift with a hand-moved clock,
`ContentTests`)."""
import os
import threading
import time

import grpc
import pytest

from souk_identity import (
    STRONG_PASSWORD, TIMEOUT, FieldMask, Party, Reason, Role, create_marketplace, operator_party, pb, refused, request_id,
    sign_up, unique_email,
)
from souk_protos import Stub, enum, field_violations, message

Code = grpc.StatusCode
State = enum("souk.v1.ContentState")
PolicyKind = enum("souk.v1.PolicyKind")
NotificationKind = enum("souk.v1.NotificationKind")
ResourceType = enum("souk.v1.ResourceType")
Timestamp = message("google.protobuf.Timestamp")
ALL_STATES = [State.CONTENT_STATE_DRAFT, State.CONTENT_STATE_SCHEDULED, State.CONTENT_STATE_PUBLISHED,
              State.CONTENT_STATE_EXPIRED, State.CONTENT_STATE_ARCHIVED]
PNG = b"\x89PNG\r\n\x1a\n" + os.urandom(2_000)
PDF = b"%PDF-1.7\n" + os.urandom(2_000)
HOUR = 3600


def at(offset_seconds: float):
    """A timestamp `offset_seconds` from now (negative: in the past)."""
    when = time.time() + offset_seconds
    return Timestamp(seconds=int(when), nanos=int((when % 1) * 1e9))


class Kind:
    """How one kind is named in the contract: its message, RPCs, request fields and time fields."""

    def __init__(self, name, message_name, plural, publish, expire, extra):
        self.name, self.message_name, self.plural = name, message_name, plural
        self.publish, self.expire, self.extra = publish, expire, extra

    def make(self, title="Notice", body="Text of the notice.", roles=(), publish=None, expire=None, **fields):
        values = {**self.extra, "title": title, "body": body, "audience_roles": list(roles), **fields}
        if publish is not None:
            values[self.publish] = publish
        if expire is not None:
            values[self.expire] = expire
        return getattr(pb, self.message_name)(**values)


ANNOUNCEMENT = Kind("announcement", "Announcement", "announcements", "publish_time", "expire_time", {})
POLICY = Kind("policy", "Policy", "policies", "effective_time", "expire_time", {"kind": PolicyKind.POLICY_KIND_FAQ})
ADVERTISEMENT = Kind("advertisement", "Advertisement", "advertisements", "start_time", "end_time",
                     {"placement": "home_banner", "target_url": "https://sponsor.example.com/offer"})
KINDS = [ANNOUNCEMENT, POLICY, ADVERTISEMENT]


class ContentApi:
    def __init__(self, channel, marketplace_id):
        self.admin = Stub(channel, "souk.v1.Admin")
        self.marketplace_id = marketplace_id

    def _call(self, name, request_name, party, **fields):
        request = getattr(pb, request_name)(marketplace_id=fields.pop("marketplace_id", self.marketplace_id), **fields)
        metadata = party.md() if party is not None else ()
        return getattr(self.admin, name)(request, metadata=metadata, timeout=TIMEOUT)

    def create(self, what, party, item, key=None, **fields):
        name = f"Create{what.message_name}"
        return self._call(name, f"{name}Request", party, request_id=request_id() if key is None else key, **{what.name: item},
                          **fields)

    def get(self, what, party, item_id, **fields):
        name = f"Get{what.message_name}"
        return self._call(name, f"{name}Request", party, **{f"{what.name}_id": item_id}, **fields)

    def update(self, what, party, item, paths, expected_version=0):
        name = f"Update{what.message_name}"
        return self._call(name, f"{name}Request", party, **{what.name: item}, update_mask=FieldMask(paths=paths),
                          expected_version=expected_version)

    def archive(self, what, party, item_id, expected_version=0):
        name = f"Archive{what.message_name}"
        return self._call(name, f"{name}Request", party, **{f"{what.name}_id": item_id}, expected_version=expected_version)

    def restore(self, what, party, item_id, expected_version=0):
        name = f"Restore{what.message_name}"
        return self._call(name, f"{name}Request", party, **{f"{what.name}_id": item_id}, expected_version=expected_version)

    def page(self, what, party, **fields):
        name = f"List{what.message_name[:-1] + 'ie' if what is POLICY else what.message_name}s"
        return self._call(name, f"{name}Request", party, **fields)

    def listed(self, what, party, **fields):
        """Every item of every page, in order."""
        items, token = [], ""
        while True:
            response = self.page(what, party, page_token=token, **fields)
            items += list(getattr(response, what.plural))
            token = response.next_page_token
            if not token:
                return items

    def ids(self, what, party, **fields):
        return [item.id for item in self.listed(what, party, **fields)]


def fresh_market(api, identity_server, template="DineSwift"):
    """A marketplace of its own (a copy of a demo one) with an admin, a customer and a courier."""
    operator = operator_party(api, identity_server)
    market = create_marketplace(api, operator, identity_server.marketplace_id(template))
    email = unique_email("admin")
    api.accounts.CreateAccount(pb.CreateAccountRequest(
        marketplace_id=market.id, request_id=request_id(), email=email, initial_password=STRONG_PASSWORD, given_name="Mona",
        family_name="Haddad", roles=[Role.ROLE_ADMIN]), metadata=operator.md(), timeout=TIMEOUT)
    admin = Party.login(api, market.id, email, STRONG_PASSWORD)
    customer = sign_up(api, market.id, given_name="Cara")
    pending = sign_up(api, market.id, given_name="Dan", requested_roles=[Role.ROLE_COURIER])
    api.accounts.ApproveRole(pb.ApproveRoleRequest(marketplace_id=market.id, account_id=pending.account_id, role=Role.ROLE_COURIER),
                             metadata=admin.md(), timeout=TIMEOUT)
    courier = Party.login(api, market.id, pending.email, pending.password)
    return {"id": market.id, "admin": admin, "customer": customer, "courier": courier, "operator": operator}


@pytest.fixture(scope="module")
def market(api, identity_server):
    return fresh_market(api, identity_server)


@pytest.fixture(scope="module")
def content(identity_channel, market):
    return ContentApi(identity_channel, market["id"])


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_admin_creates_updates_archives_and_restores(content, market, kind):
    admin = market["admin"]
    created = content.create(kind, admin, kind.make(title="Opening hours", roles=[Role.ROLE_CUSTOMER], publish=at(-HOUR)))
    assert created.id and created.version == 1 and created.state == State.CONTENT_STATE_PUBLISHED
    assert created.author_account_id == admin.account_id and list(created.audience_roles) == [Role.ROLE_CUSTOMER]
    assert content.get(kind, admin, created.id) == created

    updated = content.update(kind, admin, kind.make(id=created.id, title="New opening hours", body="ignored: not in the mask"),
                             ["title"], expected_version=created.version)
    assert updated.title == "New opening hours" and updated.body == created.body and updated.version == 2
    refused(lambda: content.update(kind, admin, kind.make(id=created.id, title="Stale"), ["title"], expected_version=1),
            Code.ABORTED, reason=Reason.ERROR_REASON_STALE_VERSION)
    refused(lambda: content.update(kind, admin, kind.make(id=created.id), ["author_account_id"]), Code.INVALID_ARGUMENT,
            field="update_mask")

    # A masked update without a version applies unconditionally; unsetting the publish time makes a draft.
    draft = content.update(kind, admin, kind.make(id=created.id), [kind.publish])
    assert draft.state == State.CONTENT_STATE_DRAFT and not draft.HasField(kind.publish)
    republished = content.update(kind, admin, kind.make(id=created.id, publish=at(-60)), [kind.publish])
    assert republished.state == State.CONTENT_STATE_PUBLISHED

    archived = content.archive(kind, admin, created.id, expected_version=republished.version)
    assert archived.archived and archived.HasField("archive_time") and archived.state == State.CONTENT_STATE_ARCHIVED
    refused(lambda: content.archive(kind, admin, created.id), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_INVALID_TRANSITION)
    assert created.id not in content.ids(kind, market["customer"])
    assert created.id in content.ids(kind, admin, states=[State.CONTENT_STATE_ARCHIVED])

    restored = content.restore(kind, admin, created.id)
    assert not restored.archived and restored.state == State.CONTENT_STATE_PUBLISHED
    refused(lambda: content.restore(kind, admin, created.id), Code.FAILED_PRECONDITION, reason=Reason.ERROR_REASON_INVALID_TRANSITION)
    assert created.id in content.ids(kind, market["customer"])


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_each_caller_sees_what_is_published_now_for_its_roles(api, identity_server, identity_channel, kind):
    market = fresh_market(api, identity_server)
    content = ContentApi(identity_channel, market["id"])
    admin, customer, courier = market["admin"], market["customer"], market["courier"]

    def make(title, **fields):
        return content.create(kind, admin, kind.make(title=title, **fields)).id

    for_customers = make("For customers", roles=[Role.ROLE_CUSTOMER], publish=at(-HOUR), expire=at(HOUR))
    for_everyone = make("For everyone", publish=at(-2 * HOUR))
    draft = make("Draft", roles=[Role.ROLE_CUSTOMER])
    expired = make("Expired", roles=[Role.ROLE_CUSTOMER], publish=at(-2 * HOUR), expire=at(-HOUR))
    scheduled = make("Scheduled", roles=[Role.ROLE_CUSTOMER], publish=at(HOUR))
    archived = make("Archived", roles=[Role.ROLE_CUSTOMER], publish=at(-HOUR))
    content.archive(kind, admin, archived)
    for_couriers = make("For couriers", roles=[Role.ROLE_COURIER], publish=at(-30 * 60))
    for_both = make("For customers and couriers", roles=[Role.ROLE_CUSTOMER, Role.ROLE_COURIER], publish=at(-10 * 60))

    # Newest publish time first; an item aimed at two of the caller's roles is listed once. The
    # courier also holds the customer role (every account does); `role` shows one role's screen.
    assert content.ids(kind, customer) == [for_both, for_customers, for_everyone]
    assert content.ids(kind, courier) == [for_both, for_couriers, for_customers, for_everyone]
    assert content.ids(kind, courier, role=Role.ROLE_COURIER) == [for_both, for_couriers, for_everyone]
    assert content.ids(kind, courier, role=Role.ROLE_CUSTOMER) == [for_both, for_customers, for_everyone]
    assert content.ids(kind, None) == [for_everyone], "guests see only what is aimed at everyone"
    # The admin holds the admin and customer roles: it sees what customers see, and all by state.
    assert content.ids(kind, admin) == [for_both, for_customers, for_everyone]
    for item_id in (draft, expired, scheduled, archived, for_couriers):
        refused(lambda: content.get(kind, customer, item_id), Code.NOT_FOUND)
    assert content.get(kind, customer, for_customers).state == State.CONTENT_STATE_PUBLISHED
    assert content.get(kind, None, for_everyone).title == "For everyone"
    refused(lambda: content.get(kind, None, for_customers), Code.NOT_FOUND)

    def by_state(*states):
        return set(content.ids(kind, admin, states=list(states)))

    assert by_state(State.CONTENT_STATE_DRAFT) == {draft}
    assert by_state(State.CONTENT_STATE_SCHEDULED) == {scheduled}
    assert by_state(State.CONTENT_STATE_EXPIRED) == {expired}
    assert by_state(State.CONTENT_STATE_ARCHIVED) == {archived}
    assert by_state(State.CONTENT_STATE_PUBLISHED) == {for_customers, for_everyone, for_couriers, for_both}
    assert by_state(State.CONTENT_STATE_DRAFT, State.CONTENT_STATE_ARCHIVED) == {draft, archived}
    assert by_state(*ALL_STATES) == {for_customers, for_everyone, draft, expired, scheduled, archived, for_couriers, for_both}
    states = {item.id: item.state for item in content.listed(kind, admin, states=ALL_STATES)}
    assert states[scheduled] == State.CONTENT_STATE_SCHEDULED and states[expired] == State.CONTENT_STATE_EXPIRED


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_publish_and_expiry_boundaries_move_items_in_and_out_without_a_write(content, market, kind):
    admin, customer = market["admin"], market["customer"]
    item = content.create(kind, admin, kind.make(title="Boundary", roles=[Role.ROLE_CUSTOMER], publish=at(HOUR)))
    assert item.state == State.CONTENT_STATE_SCHEDULED and item.id not in content.ids(kind, customer)

    # Publish time just passed: visible. Expire time just passed: gone. Expire time ahead: visible.
    item = content.update(kind, admin, kind.make(id=item.id, publish=at(-1)), [kind.publish])
    assert item.state == State.CONTENT_STATE_PUBLISHED and item.id in content.ids(kind, customer)
    item = content.update(kind, admin, kind.make(id=item.id, expire=at(-0.5)), [kind.expire])
    assert item.state == State.CONTENT_STATE_EXPIRED and item.id not in content.ids(kind, customer)
    refused(lambda: content.get(kind, customer, item.id), Code.NOT_FOUND)
    item = content.update(kind, admin, kind.make(id=item.id, expire=at(HOUR)), [kind.expire])
    assert item.state == State.CONTENT_STATE_PUBLISHED and item.id in content.ids(kind, customer)

    # The window must be a window.
    refused(lambda: content.update(kind, admin, kind.make(id=item.id, publish=at(2 * HOUR)), [kind.publish]),
            Code.INVALID_ARGUMENT, field=f"{kind.name}.{kind.expire}")


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_pages_of_published_items_merge_the_callers_roles_without_repeats(api, identity_server, identity_channel, kind):
    market = fresh_market(api, identity_server)
    content = ContentApi(identity_channel, market["id"])
    admin, courier = market["admin"], market["courier"]
    audiences = [[], [Role.ROLE_CUSTOMER], [Role.ROLE_COURIER], [Role.ROLE_CUSTOMER, Role.ROLE_COURIER]]
    made = [content.create(kind, admin, kind.make(title=f"Item {n}", roles=audiences[n % 4], publish=at(-HOUR + n * 10))).id
            for n in range(11)]
    expected = [made[n] for n in reversed(range(11)) if n % 4 != 1]  # not the customer-only ones, newest first

    pages, token = [], ""
    while True:
        response = content.page(kind, courier, page_size=2, page_token=token, role=Role.ROLE_COURIER)
        pages.append([item.id for item in getattr(response, kind.plural)])
        token = response.next_page_token
        if not token:
            break
        # A token only continues the list it came from.
        refused(lambda: content.page(kind, courier, page_size=2, page_token=token, role=Role.ROLE_CUSTOMER),
                Code.INVALID_ARGUMENT, field="page_token")
    assert all(len(page) <= 2 for page in pages)
    assert [item for page in pages for item in page] == expected
    # Without `role` the courier sees all eleven (it is a customer too), over pages of 3.
    assert [i.id for i in content.listed(kind, courier, page_size=3)] == list(reversed(made))
    refused(lambda: content.page(kind, courier, page_size=-1), Code.INVALID_ARGUMENT, field="page_size")


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_non_admins_cannot_write_or_list_by_state(content, market, kind):
    item = content.create(kind, market["admin"], kind.make(title="Admins only", publish=at(-HOUR)))
    for party in (market["customer"], market["courier"]):
        refused(lambda: content.create(kind, party, kind.make(title="Mine")), Code.PERMISSION_DENIED)
        refused(lambda: content.update(kind, party, kind.make(id=item.id, title="Mine"), ["title"]), Code.PERMISSION_DENIED)
        refused(lambda: content.archive(kind, party, item.id), Code.PERMISSION_DENIED)
        refused(lambda: content.restore(kind, party, item.id), Code.PERMISSION_DENIED)
        refused(lambda: content.page(kind, party, states=[State.CONTENT_STATE_DRAFT]), Code.PERMISSION_DENIED)
    refused(lambda: content.create(kind, None, kind.make(title="Guest")), Code.UNAUTHENTICATED)
    refused(lambda: content.page(kind, market["courier"], role=Role.ROLE_PROVIDER), Code.INVALID_ARGUMENT, field="role")
    # The operator writes in any marketplace.
    by_operator = content.create(kind, market["operator"], kind.make(title="From the platform", publish=at(-HOUR)))
    assert by_operator.id in content.ids(kind, market["customer"])


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_another_marketplace_reads_nothing(api, identity_server, identity_channel, content, market, kind):
    item = content.create(kind, market["admin"], kind.make(title="Ours", publish=at(-HOUR)))
    other = fresh_market(api, identity_server)
    for party in (other["customer"], other["admin"]):
        refused(lambda: content.get(kind, party, item.id), Code.PERMISSION_DENIED)
        refused(lambda: content.page(kind, party), Code.PERMISSION_DENIED)
        refused(lambda: content.get(kind, party, item.id, marketplace_id=other["id"]), Code.NOT_FOUND)
        assert item.id not in ContentApi(identity_channel, other["id"]).ids(kind, party)
    refused(lambda: content.update(kind, other["admin"], kind.make(id=item.id, title="Theirs"), ["title"]), Code.PERMISSION_DENIED)
    refused(lambda: ContentApi(identity_channel, other["id"]).archive(kind, other["admin"], item.id), Code.NOT_FOUND)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_retries_with_one_request_id_create_one_item(content, market, kind):
    admin = market["admin"]
    key = request_id()
    item = kind.make(title="Retried", roles=[Role.ROLE_COURIER], publish=at(-HOUR))
    answers, errors = [], []
    start = threading.Barrier(8)

    def create():
        try:
            start.wait()
            answers.append(content.create(kind, admin, item, key=key))
        except grpc.RpcError as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, [e.details() for e in errors]
    assert len({answer.id for answer in answers}) == 1 and len(answers) == 8
    retried = [i.id for i in content.listed(kind, admin, states=ALL_STATES) if i.title == "Retried"]
    assert retried == [answers[0].id]
    refused(lambda: content.create(kind, admin, kind.make(title="Something else"), key=key), Code.INVALID_ARGUMENT,
            reason=Reason.ERROR_REASON_REQUEST_ID_REUSED)


def test_every_wrong_field_of_a_create_is_named_at_once(content, market):
    admin = market["admin"]
    error = refused(lambda: content.create(ANNOUNCEMENT, admin, pb.Announcement(
        title=" ", body="", audience_roles=[Role.ROLE_OPERATOR], publish_time=at(HOUR), expire_time=at(-HOUR)), key=""),
        Code.INVALID_ARGUMENT)
    named = {v.field for v in field_violations(error)}
    assert {"request_id", "announcement.title", "announcement.body", "announcement.audience_roles[0]"} <= named
    error = refused(lambda: content.create(ADVERTISEMENT, admin, pb.Advertisement(
        title="Ad", placement="Home Banner", target_url="javascript:alert(1)", image_media_id="not-a-uuid")), Code.INVALID_ARGUMENT)
    assert {"advertisement.placement", "advertisement.target_url", "advertisement.image_media_id"} <= {
        v.field for v in field_violations(error)}
    error = refused(lambda: content.create(POLICY, admin, pb.Policy(title="Rules", body="Text")), Code.INVALID_ARGUMENT,
                    field="policy.kind")
    refused(lambda: content.create(ANNOUNCEMENT, admin, ANNOUNCEMENT.make(publish=at(HOUR), expire=at(HOUR - 1))),
            Code.INVALID_ARGUMENT, field="announcement.expire_time")
    refused(lambda: content.create(ANNOUNCEMENT, admin, ANNOUNCEMENT.make(expire=at(HOUR))),
            Code.INVALID_ARGUMENT, field="announcement.expire_time")


def test_advertisement_images_are_pictures_uploaded_to_the_marketplace(api, identity_server, identity_channel, content, market):
    media = Stub(identity_channel, "souk.v1.Media")
    admin = market["admin"]

    def upload(party, data, content_type, purpose=5):  # MEDIA_PURPOSE_ADVERTISEMENT
        def requests():
            yield pb.UploadMediaRequest(marketplace_id=party.marketplace_id, metadata=pb.UploadMediaMetadata(
                request_id=request_id(), content_type=content_type, size_bytes=len(data), file_name="banner",
                purpose=purpose))
            yield pb.UploadMediaRequest(marketplace_id=party.marketplace_id, chunk=data)
        return media.UploadMedia(requests(), metadata=party.md(), timeout=TIMEOUT)

    picture = upload(admin, PNG, "image/png")
    ad = content.create(ADVERTISEMENT, admin, ADVERTISEMENT.make(title="Sponsor", image_media_id=picture.id, publish=at(-HOUR)))
    assert ad.image_media_id == picture.id
    # The picture is now public to the marketplace: a customer downloads it.
    got = media.GetMedia(pb.GetMediaRequest(marketplace_id=market["id"], media_id=picture.id), metadata=market["customer"].md(),
                         timeout=TIMEOUT)
    assert got.id == picture.id

    document = upload(admin, PDF, "application/pdf", purpose=4)  # MEDIA_PURPOSE_ATTACHMENT
    field = "advertisement.image_media_id"
    refused(lambda: content.create(ADVERTISEMENT, admin, ADVERTISEMENT.make(image_media_id=document.id)), Code.INVALID_ARGUMENT, field=field)
    refused(lambda: content.update(ADVERTISEMENT, admin, ADVERTISEMENT.make(id=ad.id, image_media_id=document.id), ["image_media_id"]),
            Code.INVALID_ARGUMENT, field=field)
    unknown = "01900000-0000-7000-8000-0000000000ff"
    refused(lambda: content.create(ADVERTISEMENT, admin, ADVERTISEMENT.make(image_media_id=unknown)), Code.INVALID_ARGUMENT, field=field)
    other = fresh_market(api, identity_server)
    elsewhere = upload(other["admin"], PNG, "image/png")
    refused(lambda: content.create(ADVERTISEMENT, admin, ADVERTISEMENT.make(image_media_id=elsewhere.id)), Code.INVALID_ARGUMENT, field=field)
    # Placement narrows the list.
    content.create(ADVERTISEMENT, admin, ADVERTISEMENT.make(title="Elsewhere", placement="listing_detail", publish=at(-HOUR)))
    banners = content.listed(ADVERTISEMENT, market["customer"], placement="home_banner")
    assert ad.id in {a.id for a in banners} and all(a.placement == "home_banner" for a in banners)


def test_policies_list_by_kind(content, market):
    admin = market["admin"]
    faq = content.create(POLICY, admin, POLICY.make(title="FAQ", publish=at(-HOUR)))
    terms = content.create(POLICY, admin, POLICY.make(title="Terms", kind=PolicyKind.POLICY_KIND_TERMS_OF_SERVICE, publish=at(-HOUR)))
    faqs = content.ids(POLICY, market["customer"], kind=PolicyKind.POLICY_KIND_FAQ)
    assert faq.id in faqs and terms.id not in faqs
    assert {faq.id, terms.id} <= set(content.ids(POLICY, market["customer"]))


def test_a_published_announcement_notifies_its_audience_once(api, identity_server, identity_channel):
    market = fresh_market(api, identity_server)
    content = ContentApi(identity_channel, market["id"])
    notifications = Stub(identity_channel, "souk.v1.Notifications")
    admin, customer, courier = market["admin"], market["customer"], market["courier"]
    content.create(ANNOUNCEMENT, admin, ANNOUNCEMENT.make(title="Draft for couriers", roles=[Role.ROLE_COURIER]))
    content.create(ANNOUNCEMENT, admin, ANNOUNCEMENT.make(title="Later for couriers", roles=[Role.ROLE_COURIER], publish=at(HOUR)))
    sent = content.create(ANNOUNCEMENT, admin, ANNOUNCEMENT.make(
        title="Couriers: new zone", body="The north district opens today.", roles=[Role.ROLE_COURIER], publish=at(-1)))

    def announcements(party):
        listed = notifications.ListNotifications(pb.ListNotificationsRequest(marketplace_id=market["id"], page_size=100),
                                                 metadata=party.md(), timeout=TIMEOUT).notifications
        return [n for n in listed if n.kind == NotificationKind.NOTIFICATION_KIND_ANNOUNCEMENT]

    # The fan-out runs in the background (every 2 s): wait for it, as a client would.
    deadline = time.monotonic() + 30
    told = announcements(courier)
    while not told and time.monotonic() < deadline:
        time.sleep(0.2)
        told = announcements(courier)
    assert [(n.title, n.subject.type, n.subject.id) for n in told] == [
        ("Couriers: new zone", ResourceType.RESOURCE_TYPE_ANNOUNCEMENT, sent.id)]
    # The customer is in the same page of accounts (one transaction), so it would have been told by now.
    assert announcements(customer) == []


def test_the_demo_marketplaces_publish_what_their_apps_show(api, identity_server, identity_channel):
    from souk_identity import login_party

    def published(marketplace, demo_role, kind, **fields):
        party = login_party(api, identity_server.demo_login(marketplace, demo_role))
        return content_of(marketplace).listed(kind, party, **fields)

    def content_of(marketplace):
        return ContentApi(identity_channel, identity_server.marketplace_id(marketplace))

    # Drip 'n Dash: the app policy for everyone, a sponsor's banner for customers, a notice to Dashers.
    assert "Drip 'n Dash app policy" in [p.title for p in published("Drip 'n Dash", "customer", POLICY)]
    ads = published("Drip 'n Dash", "customer", ADVERTISEMENT, placement="home_banner")
    assert ads and all(a.state == State.CONTENT_STATE_PUBLISHED for a in ads)
    dasher_notices = published("Drip 'n Dash", "courier", ANNOUNCEMENT, role=Role.ROLE_COURIER)
    assert any("Finals week" in a.title for a in dasher_notices)
    # Aqua Hub's FAQ, readable before signing in.
    faq = content_of("Aqua Hub").listed(POLICY, None, kind=PolicyKind.POLICY_KIND_FAQ)
    assert [p.title for p in faq] == ["Frequently asked questions"]
    # MARA's announcements: the welcome for everyone, the fee notice for lessors only.
    lessee = [a.title for a in published("MARA", "customer", ANNOUNCEMENT)]
    lessor = [a.title for a in published("MARA", "provider", ANNOUNCEMENT, role=Role.ROLE_PROVIDER)]
    assert "Chào mừng đến với MARA" in lessee and "Chủ nhà: phí dịch vụ mới" not in lessee
    assert "Chủ nhà: phí dịch vụ mới" in lessor
