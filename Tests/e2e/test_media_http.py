"""Media over plain HTTP on the gRPC port: MediaObject.url answered by GET and HEAD with the
cache validators, byte ranges, image sizes made by libvips (their pixel size read from the
file), signed URLs of private media (an expired or forged signature refused), another
marketplace's media not found, over HTTP/1.1 and HTTP/2."""
import hashlib
import hmac
import http.client
import os
import struct
import time
import urllib.parse
import zlib

import grpc
import pytest

import rawh2
from conftest import IdentityServer, stop_cleanly
from souk_identity import TIMEOUT, Api, sign_up
from souk_protos import Stub
from test_media import get_media, set_avatar, upload

LIFETIME = 30


def png(width, height, alpha=False, noise=False):
    """A real PNG: a colour gradient (with a transparency gradient when `alpha`), or random
    pixels (`noise`, which do not compress)."""
    channels = 4 if alpha else 3
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        if noise:
            rows += os.urandom(width * channels)
            continue
        for x in range(width):
            pixel = [x * 255 // width, y * 255 // height, 128]
            rows += bytes(pixel + ([x * 255 // width] if alpha else []))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")


def jpeg(width, height):
    """A real baseline JPEG (grey): every 8x8 block has only its DC coefficient, 0, coded with
    one-symbol Huffman tables (one 0 bit for the DC difference, one for end-of-block)."""
    assert width % 8 == 0 and height % 8 == 0

    def segment(marker, data):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(data) + 2) + data

    one_symbol = bytes([1] + [0] * 15)
    blocks = (width // 8) * (height // 8)
    bits = 2 * blocks
    scan = bytes(bits // 8) + (bytes([(1 << (8 - bits % 8)) - 1]) if bits % 8 else b"")
    return (b"\xff\xd8" + segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
            + segment(0xDB, b"\x00" + bytes([1] * 64))
            + segment(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
            + segment(0xC4, b"\x00" + one_symbol + b"\x00")
            + segment(0xC4, b"\x10" + one_symbol + b"\x00")
            + segment(0xDA, b"\x01\x01\x00\x00\x3f\x00") + scan + b"\xff\xd9")


def pixel_size(data):
    """(width, height) from a PNG's IHDR or a JPEG's start-of-frame."""
    if data.startswith(b"\x89PNG"):
        return struct.unpack(">II", data[16:24])
    assert data.startswith(b"\xff\xd8"), data[:4]
    position = 2
    while position < len(data):
        assert data[position] == 0xFF
        marker = data[position + 1]
        length = struct.unpack(">H", data[position + 2:position + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[position + 5:position + 9])
            return width, height
        position += 2 + length
    raise AssertionError("no start of frame")


JPEG = jpeg(800, 600)
PNG = png(640, 480)
PNG_ALPHA = png(300, 200, alpha=True)


@pytest.fixture(scope="module")
def web_server():
    s = IdentityServer(600, "--media-url-lifetime", str(LIFETIME))
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(web_server):
    with web_server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield Api(ch)


@pytest.fixture(scope="module")
def media_stub(web_server):
    with web_server.channel() as ch:
        yield Stub(ch, "souk.v1.Media")


@pytest.fixture(scope="module")
def mp(web_server):
    return web_server.marketplace_id("MARA")


def fetch(server, url, method="GET", headers=None):
    """(status, headers as a dict with lower-case names, body) of one HTTP/1.1 request."""
    parts = urllib.parse.urlsplit(url)
    assert parts.netloc == server.address, f"the URL names the server: {url}"
    connection = http.client.HTTPConnection(server.address, timeout=TIMEOUT)
    try:
        connection.request(method, parts.path + ("?" + parts.query if parts.query else ""), headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def with_query(url, **params):
    return url + ("&" if "?" in url else "?") + urllib.parse.urlencode(params)


def public_image(api, media_stub, mp, content, content_type):
    """Uploads `content` as an avatar (public once the profile refers to it); its MediaObject."""
    owner = sign_up(api, mp)
    uploaded = upload(media_stub, owner, content, content_type)
    set_avatar(api, owner, uploaded.id)
    return get_media(media_stub, mp, uploaded.id)


def test_public_media_by_get_and_head_with_validators(web_server, api, media_stub, mp):
    described = public_image(api, media_stub, mp, JPEG, "image/jpeg")
    assert described.url == f"http://{web_server.address}/media/{mp}/{described.id}", "public media: a plain URL"
    status, headers, body = fetch(web_server, described.url)
    assert status == 200 and body == JPEG
    etag = f'"{hashlib.sha256(JPEG).hexdigest()}"'
    assert headers["etag"] == etag
    assert headers["content-type"] == "image/jpeg" and headers["content-length"] == str(len(JPEG))
    assert headers["accept-ranges"] == "bytes" and "last-modified" in headers
    assert headers["cache-control"] == "public, max-age=31536000, immutable"

    status, head_headers, body = fetch(web_server, described.url, "HEAD")
    assert status == 200 and body == b""
    assert head_headers["content-length"] == str(len(JPEG)) and head_headers["etag"] == etag

    status, headers, body = fetch(web_server, described.url, headers={"If-None-Match": f'"other", {etag}'})
    assert status == 304 and body == b"" and headers["etag"] == etag
    assert fetch(web_server, described.url, headers={"If-None-Match": '"other"'})[0] == 200


def test_byte_ranges(web_server, api, media_stub, mp):
    described = public_image(api, media_stub, mp, PNG, "image/png")
    status, headers, body = fetch(web_server, described.url, headers={"Range": "bytes=10-99"})
    assert status == 206 and body == PNG[10:100]
    assert headers["content-range"] == f"bytes 10-99/{len(PNG)}" and headers["content-length"] == "90"
    status, headers, body = fetch(web_server, described.url, headers={"Range": "bytes=-16"})
    assert status == 206 and body == PNG[-16:]
    status, headers, body = fetch(web_server, described.url, headers={"Range": f"bytes={len(PNG)}-"})
    assert status == 416 and headers["content-range"] == f"bytes */{len(PNG)}"
    # A range for another version of the file (If-Range) gets the whole file.
    status, _, body = fetch(web_server, described.url, headers={"Range": "bytes=0-9", "If-Range": '"old"'})
    assert status == 200 and body == PNG


def test_image_sizes_are_made_by_libvips(web_server, api, media_stub, mp):
    photo = public_image(api, media_stub, mp, JPEG, "image/jpeg")
    status, headers, thumb = fetch(web_server, with_query(photo.url, size="thumb"))
    assert status == 200 and headers["content-type"] == "image/jpeg"
    assert pixel_size(thumb) == (256, 192), "256 px on the long side, the aspect ratio kept"
    assert headers["etag"] == f'"{hashlib.sha256(JPEG).hexdigest()}-thumb"'
    assert headers["content-length"] == str(len(thumb))
    # Made once: the same bytes again, and a validator for them.
    again = fetch(web_server, with_query(photo.url, size="thumb"))
    assert again[2] == thumb
    assert fetch(web_server, with_query(photo.url, size="thumb"), headers={"If-None-Match": headers["etag"]})[0] == 304
    # Never enlarged: the screen size of an 800 x 600 photo is 800 x 600.
    status, _, screen = fetch(web_server, with_query(photo.url, size="screen"))
    assert status == 200 and pixel_size(screen) == (800, 600)

    picture = public_image(api, media_stub, mp, PNG, "image/png")
    status, headers, thumb = fetch(web_server, with_query(picture.url, size="thumb"))
    assert status == 200 and headers["content-type"] == "image/jpeg" and pixel_size(thumb) == (256, 192)

    transparent = public_image(api, media_stub, mp, PNG_ALPHA, "image/png")
    status, headers, thumb = fetch(web_server, with_query(transparent.url, size="thumb"))
    assert status == 200 and headers["content-type"] == "image/png", "transparency stays: PNG"
    assert pixel_size(thumb)[0] == 256 and pixel_size(thumb)[1] in (170, 171)

    status, _, body = fetch(web_server, with_query(photo.url, size="huge"))
    assert status == 400 and b"thumb" in body
    owner = sign_up(api, mp)
    pdf = upload(media_stub, owner, b"%PDF-1.7\n" + os.urandom(500), "application/pdf", purpose="MEDIA_PURPOSE_ATTACHMENT")
    assert fetch(web_server, with_query(pdf.url, size="thumb"))[0] == 400, "only images have sizes"


def test_concurrent_requests_for_a_new_size_get_the_same_file(web_server, api, media_stub, mp):
    from concurrent.futures import ThreadPoolExecutor
    content = png(500, 500)
    picture = public_image(api, media_stub, mp, content, "image/png")
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: fetch(web_server, with_query(picture.url, size="screen")), range(8)))
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1
    assert pixel_size(answers[0][2]) == (500, 500)
    # One file for the size, named by its own SHA-256 beside the originals' folder, found by the
    # original's; no temporary file left.
    folder = os.path.join(web_server.data_dir, "media-variants")
    with open(os.path.join(folder, ".index", "screen", picture.sha256)) as f:
        made = f.read()
    assert made == hashlib.sha256(answers[0][2]).hexdigest()
    assert os.path.isfile(os.path.join(folder, made[:2], made[2:]))
    assert os.listdir(os.path.join(folder, ".incoming")) == []
    # A size whose file is gone (a restore without it, a hand clean-up) is made again when it is
    # read from disk: here by another upload of the same content (the first one's answer is in
    # the server's memory, and stays right).
    os.remove(os.path.join(folder, made[:2], made[2:]))
    status, _, body = fetch(web_server, with_query(picture.url, size="screen"))
    assert status == 200 and body == answers[0][2]
    again = public_image(api, media_stub, mp, content, "image/png")
    assert again.id != picture.id and again.sha256 == picture.sha256
    status, _, body = fetch(web_server, with_query(again.url, size="screen"))
    assert status == 200 and body == answers[0][2]
    assert os.path.isfile(os.path.join(folder, made[:2], made[2:]))


def key_signature(server, path, expires):
    with open(os.path.join(server.data_dir, "media", ".url-key"), "rb") as f:
        key = f.read()
    return hmac.new(key, f"{path}\n{expires}".encode(), hashlib.sha256).hexdigest()


def test_private_media_by_signed_url_only(web_server, api, media_stub, mp):
    owner = sign_up(api, mp)
    uploaded = upload(media_stub, owner, PNG, "image/png")  # nothing refers to it: private
    described = get_media(media_stub, mp, uploaded.id, owner.md())
    parts = urllib.parse.urlsplit(described.url)
    path = f"/media/{mp}/{uploaded.id}"
    assert parts.path == path
    query = dict(urllib.parse.parse_qsl(parts.query))
    assert set(query) == {"expires", "signature"}
    # Valid for --media-url-lifetime, rounded up to a twelfth of it.
    assert time.time() - 5 <= int(query["expires"]) - LIFETIME <= time.time() + 5 + LIFETIME // 12
    assert int(query["expires"]) % (LIFETIME // 12) == 0
    assert uploaded.url.startswith(f"http://{web_server.address}{path}?expires="), "the upload's answer has one too"

    status, headers, body = fetch(web_server, described.url)
    assert status == 200 and body == PNG
    assert headers["cache-control"].startswith("private, max-age=")
    assert int(headers["cache-control"].split("=")[1]) <= LIFETIME + LIFETIME // 12, "not past the expiry"
    assert fetch(web_server, with_query(described.url, size="thumb"))[0] == 200, "the signature covers the sizes"

    plain = f"http://{web_server.address}{path}"
    assert fetch(web_server, plain)[0] == 403, "unsigned"
    forged = plain + f"?expires={int(query['expires']) + 1000}&signature={query['signature']}"
    assert fetch(web_server, forged)[0] == 403, "a signature of another expiry"
    expired = int(time.time()) - 1
    assert fetch(web_server, plain + f"?expires={expired}&signature={key_signature(web_server, path, expired)}")[0] == 403
    later = int(time.time()) + 600
    assert fetch(web_server, plain + f"?expires={later}&signature={key_signature(web_server, path, later)}")[0] == 200, \
        "the server signs with the key in its data directory"


def test_another_marketplace_and_unknown_media_are_not_found(web_server, api, media_stub, mp):
    described = public_image(api, media_stub, mp, JPEG, "image/jpeg")
    other = web_server.marketplace_id("DineSwift")
    assert fetch(web_server, f"http://{web_server.address}/media/{other}/{described.id}")[0] == 404
    assert fetch(web_server, f"http://{web_server.address}/media/{mp}/{other}")[0] == 404
    assert fetch(web_server, f"http://{web_server.address}/media/{mp}")[0] == 404
    assert fetch(web_server, f"http://{web_server.address}/media/{mp}/not-an-id")[0] == 404


def test_other_methods_are_refused(web_server, api, media_stub, mp):
    described = public_image(api, media_stub, mp, JPEG, "image/jpeg")
    status, headers, _ = fetch(web_server, described.url, "DELETE")
    assert status == 405 and headers["allow"] == "GET, HEAD"


def test_the_same_urls_over_http2(web_server, api, media_stub, mp):
    big = png(400, 300, noise=True)  # 360 kB: several chunks, past the default flow-control window
    described = public_image(api, media_stub, mp, big, "image/png")
    path = urllib.parse.urlsplit(described.url).path
    connection = rawh2.Connection(web_server.port)
    try:
        def get(path, *extra, method="GET"):
            headers = [(":method", method), (":scheme", "http"), (":path", path), (":authority", "localhost"), *extra]
            stream_id = connection.send_request(headers, body=None)
            response = connection.wait(stream_id)
            assert response.ended
            return response

        whole = get(path)
        assert whole.headers[":status"] == "200" and whole.data == big
        assert get(path, method="HEAD").data == b""
        ranged = get(path, ("range", "bytes=100-199"))
        assert ranged.headers[":status"] == "206" and ranged.data == big[100:200]
        assert get(path, ("if-none-match", whole.headers["etag"])).headers[":status"] == "304"
        thumb = get(path + "?size=thumb")
        assert thumb.headers[":status"] == "200" and pixel_size(thumb.data) == (256, 192)
    finally:
        connection.close()


def content_file(server, sha256):
    """Where the server keeps the original content with this SHA-256."""
    return os.path.join(server.data_dir, "media", sha256[:2], sha256[2:])


def test_media_made_private_is_not_served_from_memory(web_server, api, media_stub, mp):
    owner = sign_up(api, mp)
    content = png(64, 48, noise=True)  # its own file: removed below
    first = upload(media_stub, owner, content, "image/png")
    set_avatar(api, owner, first.id)
    url = get_media(media_stub, mp, first.id).url
    assert fetch(web_server, url)[0] == 200
    assert fetch(web_server, with_query(url, size="thumb"))[0] == 200
    # The file gone from disk, the answers come from the server's memory.
    os.remove(content_file(web_server, first.sha256))
    status, _, body = fetch(web_server, url)
    assert status == 200 and body == content, "answered from memory"
    assert fetch(web_server, with_query(url, size="thumb"))[0] == 200
    assert fetch(web_server, url, "HEAD")[0] == 200
    # Another avatar replaces it: nothing refers to the first any more, which makes it private.
    set_avatar(api, owner, upload(media_stub, owner, PNG, "image/png").id)
    assert fetch(web_server, url)[0] == 403, "no longer public: the memory was not asked"
    assert fetch(web_server, with_query(url, size="thumb"))[0] == 403
    assert fetch(web_server, url, "HEAD")[0] == 403
    assert fetch(web_server, url, headers={"Range": "bytes=0-9"})[0] == 403


def test_an_expired_signed_url_is_refused_while_the_media_is_in_memory(web_server, api, media_stub, mp):
    owner = sign_up(api, mp)
    content = png(48, 64, noise=True)
    uploaded = upload(media_stub, owner, content, "image/png")  # private
    signed = get_media(media_stub, mp, uploaded.id, owner.md()).url
    status, headers, body = fetch(web_server, signed)
    assert status == 200 and body == content
    os.remove(content_file(web_server, uploaded.sha256))
    status, again, body = fetch(web_server, signed)
    assert status == 200 and body == content, "answered from memory"
    assert again["cache-control"].startswith("private, max-age=")
    assert fetch(web_server, signed, headers={"If-None-Match": headers["etag"]})[0] == 304
    assert fetch(web_server, signed, headers={"Range": "bytes=0-7"})[2] == content[:8]

    path = f"/media/{mp}/{uploaded.id}"
    plain = f"http://{web_server.address}{path}"
    expired = int(time.time()) - 1
    assert fetch(web_server, plain + f"?expires={expired}&signature={key_signature(web_server, path, expired)}")[0] == 403
    assert fetch(web_server, plain)[0] == 403, "unsigned"
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(signed).query))
    forged = plain + f"?expires={int(query['expires']) + 1000}&signature={query['signature']}"
    assert fetch(web_server, forged)[0] == 403, "a signature of another expiry"
    assert fetch(web_server, forged, "HEAD")[0] == 403
    other = web_server.marketplace_id("DineSwift")
    assert fetch(web_server, f"http://{web_server.address}/media/{other}/{uploaded.id}?{urllib.parse.urlsplit(signed).query}")[0] == 404
