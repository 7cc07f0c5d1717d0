"""souk.v1.Media end to end through grpcio: streamed uploads checked by their content and the
marketplace's limits, downloads, idempotent retries, who may read what, and an avatar set to an
uploaded image."""
import hashlib
import os

import grpc
import pytest

import conftest
from souk_identity import (
    TIMEOUT, Api, FieldMask, Reason, create_marketplace, login_party, operator_party, pb, refused, request_id, sign_up,
)
from souk_protos import Stub
from test_store_commands import store

Code = grpc.StatusCode
Purpose = pb.MediaObject.DESCRIPTOR.fields_by_name["purpose"].enum_type.values_by_name

PNG = b"\x89PNG\r\n\x1a\n" + os.urandom(200_000)
JPEG = b"\xff\xd8\xff\xe0" + os.urandom(50_000)
PDF = b"%PDF-1.7\n" + os.urandom(3_000)
CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def media(identity_channel):
    return Stub(identity_channel, "souk.v1.Media")


@pytest.fixture(scope="module")
def mp(identity_server):
    return identity_server.marketplace_id("MARA")


@pytest.fixture(scope="module")
def other_mp(identity_server):
    return identity_server.marketplace_id("DineSwift")


def upload_requests(marketplace_id, content, content_type, *, size=None, purpose="MEDIA_PURPOSE_AVATAR", key=None,
                    chunk=CHUNK, file_name="photo"):
    metadata = pb.UploadMediaMetadata(
        request_id=key or request_id(), content_type=content_type, size_bytes=len(content) if size is None else size,
        file_name=file_name, purpose=Purpose[purpose].number)
    yield pb.UploadMediaRequest(marketplace_id=marketplace_id, metadata=metadata)
    for start in range(0, len(content), chunk):
        yield pb.UploadMediaRequest(marketplace_id=marketplace_id, chunk=content[start:start + chunk])


def upload(media, party, content, content_type, **options):
    return media.UploadMedia(upload_requests(party.marketplace_id, content, content_type, **options),
                             metadata=party.md(), timeout=TIMEOUT)


def download(media, marketplace_id, media_id, metadata=()):
    responses = list(media.DownloadMedia(pb.DownloadMediaRequest(marketplace_id=marketplace_id, media_id=media_id),
                                         metadata=metadata, timeout=TIMEOUT))
    assert responses and responses[0].WhichOneof("part") == "media", "the first response carries the metadata"
    assert all(r.WhichOneof("part") == "chunk" for r in responses[1:])
    assert all(len(r.chunk) <= CHUNK for r in responses[1:])
    return responses[0].media, b"".join(r.chunk for r in responses[1:])


def get_media(media, marketplace_id, media_id, metadata=()):
    return media.GetMedia(pb.GetMediaRequest(marketplace_id=marketplace_id, media_id=media_id), metadata=metadata,
                          timeout=TIMEOUT)


def same_media(a, b):
    """Whether two answers describe the same media: equal but for the URL, whose signature's
    expiry is made for each answer (and both have one)."""
    a, b = type(a).FromString(a.SerializeToString()), type(b).FromString(b.SerializeToString())
    assert a.url and b.url
    a.ClearField("url")
    b.ClearField("url")
    return a == b


def set_avatar(api, party, media_id):
    return api.accounts.UpdateProfile(pb.UpdateProfileRequest(
        marketplace_id=party.marketplace_id, account=pb.Account(avatar_media_id=media_id),
        update_mask=FieldMask(paths=["avatar_media_id"])), metadata=party.md(), timeout=TIMEOUT)


def test_streamed_upload_downloads_the_same_bytes(api, media, mp):
    alice = sign_up(api, mp)
    uploaded = upload(media, alice, PNG, "image/png", chunk=50_000)
    assert uploaded.size_bytes == len(PNG)
    assert uploaded.sha256 == hashlib.sha256(PNG).hexdigest()
    assert uploaded.content_type == "image/png" and uploaded.file_name == "photo"
    assert uploaded.owner_account_id == alice.account_id and uploaded.marketplace_id == mp
    assert not uploaded.referenced
    described, content = download(media, mp, uploaded.id, alice.md())
    assert content == PNG
    assert same_media(described, uploaded)
    assert same_media(get_media(media, mp, uploaded.id, alice.md()), uploaded)


def test_retry_with_the_same_request_id_returns_the_first_upload(api, media, mp):
    alice = sign_up(api, mp)
    key = request_id()
    first = upload(media, alice, JPEG, "image/jpeg", key=key)
    again = upload(media, alice, JPEG, "image/jpeg", key=key, chunk=10_000)
    assert same_media(again, first)
    refused(lambda: upload(media, alice, PNG, "image/png", key=key), Code.INVALID_ARGUMENT,
            reason=Reason.ERROR_REASON_REQUEST_ID_REUSED)


def test_content_must_match_the_declared_type(api, media, mp):
    alice = sign_up(api, mp)
    refused(lambda: upload(media, alice, PNG, "image/jpeg"), Code.INVALID_ARGUMENT, field="metadata.content_type")
    refused(lambda: upload(media, alice, b"GIF89a" + os.urandom(100), "image/png"), Code.INVALID_ARGUMENT,
            field="metadata.content_type")
    refused(lambda: upload(media, alice, JPEG, ""), Code.INVALID_ARGUMENT, field="metadata.content_type")
    refused(lambda: upload(media, alice, b"hello, world", "text/plain", purpose="MEDIA_PURPOSE_ATTACHMENT"),
            Code.INVALID_ARGUMENT, field="metadata.content_type")
    refused(lambda: upload(media, alice, PDF, "application/pdf"), Code.INVALID_ARGUMENT, field="metadata.content_type")
    assert upload(media, alice, PDF, "application/pdf", purpose="MEDIA_PURPOSE_ATTACHMENT").content_type == "application/pdf"


def test_sizes_are_held_to_the_declaration_and_the_limit(api, media, identity_server, mp):
    operator = operator_party(api, identity_server)
    small = create_marketplace(api, operator, mp)
    api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=small.id, settings=pb.MarketplaceSettings(media=pb.MediaSettings(max_upload_bytes=100_000)),
        update_mask=FieldMask(paths=["media.max_upload_bytes"])), metadata=operator.md(), timeout=TIMEOUT)
    alice = sign_up(api, small.id)
    error = refused(lambda: upload(media, alice, PNG, "image/png"), Code.RESOURCE_EXHAUSTED,
                    field="metadata.size_bytes", reason=Reason.ERROR_REASON_TOO_LARGE)
    assert "100000" in error.details()
    refused(lambda: upload(media, alice, JPEG, "image/jpeg", size=1_000), Code.INVALID_ARGUMENT, field="chunk")
    refused(lambda: upload(media, alice, JPEG, "image/jpeg", size=len(JPEG) + 1), Code.INVALID_ARGUMENT,
            field="metadata.size_bytes")
    assert upload(media, alice, JPEG, "image/jpeg").size_bytes == len(JPEG)
    refused(lambda: api.marketplaces.UpdateMarketplaceSettings(pb.UpdateMarketplaceSettingsRequest(
        marketplace_id=small.id, settings=pb.MarketplaceSettings(media=pb.MediaSettings(allowed_content_types=["text/plain"])),
        update_mask=FieldMask(paths=["media.allowed_content_types"])), metadata=operator.md(), timeout=TIMEOUT),
        Code.INVALID_ARGUMENT, field="settings.media.allowed_content_types[0]")


def test_another_marketplace_cannot_reach_the_media(api, media, mp, other_mp):
    alice = sign_up(api, mp)
    carol = sign_up(api, other_mp)
    uploaded = upload(media, alice, JPEG, "image/jpeg")
    set_avatar(api, alice, uploaded.id)  # public in MARA, still not in DineSwift
    refused(lambda: get_media(media, mp, uploaded.id, carol.md()), Code.PERMISSION_DENIED,
            reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)
    refused(lambda: get_media(media, other_mp, uploaded.id, carol.md()), Code.NOT_FOUND)
    refused(lambda: download(media, other_mp, uploaded.id), Code.NOT_FOUND)
    refused(lambda: media.UploadMedia(upload_requests(mp, JPEG, "image/jpeg"), metadata=carol.md(), timeout=TIMEOUT),
            Code.PERMISSION_DENIED, reason=Reason.ERROR_REASON_MARKETPLACE_MISMATCH)


def test_unreferenced_media_is_only_the_uploaders(api, media, mp):
    alice = sign_up(api, mp)
    bob = sign_up(api, mp)
    uploaded = upload(media, alice, JPEG, "image/jpeg")
    refused(lambda: download(media, mp, uploaded.id), Code.UNAUTHENTICATED)
    refused(lambda: get_media(media, mp, uploaded.id), Code.UNAUTHENTICATED)
    refused(lambda: download(media, mp, uploaded.id, bob.md()), Code.PERMISSION_DENIED)
    refused(lambda: media.UploadMedia(upload_requests(mp, JPEG, "image/jpeg"), timeout=TIMEOUT), Code.UNAUTHENTICATED)


def test_an_avatar_is_an_uploaded_image_everyone_may_see(api, media, mp, identity_server):
    alice = sign_up(api, mp)
    bob = sign_up(api, mp)
    picture = upload(media, alice, PNG, "image/png")
    # Bob cannot publish Alice's private upload as his own picture.
    refused(lambda: set_avatar(api, bob, picture.id), Code.INVALID_ARGUMENT, field="account.avatar_media_id")
    refused(lambda: set_avatar(api, alice, "https://example.com/me.png"), Code.INVALID_ARGUMENT,
            field="account.avatar_media_id")
    pdf = upload(media, alice, PDF, "application/pdf", purpose="MEDIA_PURPOSE_ATTACHMENT")
    refused(lambda: set_avatar(api, alice, pdf.id), Code.INVALID_ARGUMENT, field="account.avatar_media_id")

    account = set_avatar(api, alice, picture.id)
    assert account.avatar_media_id == picture.id
    profile = api.accounts.GetPublicProfile(pb.GetPublicProfileRequest(marketplace_id=mp, account_id=alice.account_id),
                                            timeout=TIMEOUT)
    assert profile.avatar_media_id == picture.id
    described, content = download(media, mp, picture.id)  # a guest
    assert content == PNG and described.referenced
    assert download(media, mp, picture.id, bob.md())[1] == PNG

    # A new picture lets go of the old one, which is the uploader's alone again.
    newer = upload(media, alice, JPEG, "image/jpeg")
    set_avatar(api, alice, newer.id)
    assert not get_media(media, mp, picture.id, alice.md()).referenced
    refused(lambda: get_media(media, mp, picture.id), Code.UNAUTHENTICATED)
    assert get_media(media, mp, newer.id).referenced

    # An admin of the marketplace sees every upload.
    admin = login_party(api, identity_server.demo_login("MARA", "admin"))
    assert get_media(media, mp, picture.id, admin.md()).id == picture.id


def test_backup_and_restore_bring_the_media_along(tmp_path):
    server = conftest.IdentityServer(access_token_ttl=60)
    backups = tmp_path / "backups"
    try:
        with server.channel() as channel:
            api, stub = Api(channel), Stub(channel, "souk.v1.Media")
            mp = server.marketplace_id("MARA")
            alice = sign_up(api, mp)
            picture = upload(stub, alice, PNG, "image/png")
            set_avatar(api, alice, picture.id)
            backup = store(server, "backup", "--data-dir", server.data_dir, "--backup-dir", str(backups))
            assert backup.returncode == 0, backup.stderr
    finally:
        conftest.stop_cleanly(server)
    assert (backups / "files" / "media" / picture.sha256[:2] / picture.sha256[2:]).read_bytes() == PNG

    restored = tmp_path / "restored"
    result = store(server, "restore", "--backup-dir", str(backups), "--data-dir", str(restored))
    assert result.returncode == 0, result.stderr
    # The last --data-dir wins: the new server runs on the restored directory.
    again = conftest.Server("--data-dir", str(restored))
    try:
        with again.channel() as channel:
            described, content = download(Stub(channel, "souk.v1.Media"), mp, picture.id)
            assert content == PNG and described == get_media(Stub(channel, "souk.v1.Media"), mp, picture.id)
    finally:
        conftest.stop_cleanly(again)
