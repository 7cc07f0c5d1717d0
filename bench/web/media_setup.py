"""bench/web/media's helper: uploads a 1280 x 960 JPEG as a public avatar on a running
souk-server (--demo), asks for its thumbnail once so the size cache holds it, and copies the
thumbnail's bytes under nghttpd's document root at the same path. Prints the path."""
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "e2e"))

import grpc  # noqa: E402

from souk_identity import Api, sign_up  # noqa: E402
from souk_protos import Stub  # noqa: E402
from test_media import get_media, set_avatar, upload  # noqa: E402
from test_media_http import jpeg  # noqa: E402


def main(port, server_log, htdocs):
    # The demo accounts are logged once the server has loaded them, which may come after it
    # listens: wait for them.
    deadline = time.monotonic() + 120
    while True:
        with open(server_log) as f:
            found = re.search(r"marketplace_id=([0-9a-f-]{36})", f.read())
        if found or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    if not found:
        sys.exit(f"no demo marketplace in {server_log}")
    marketplace_id = found.group(1)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        grpc.channel_ready_future(channel).result(timeout=60)
        api = Api(channel)
        media = Stub(channel, "souk.v1.Media")
        owner = sign_up(api, marketplace_id)
        uploaded = upload(media, owner, jpeg(1280, 960), "image/jpeg")
        set_avatar(api, owner, uploaded.id)
        url = get_media(media, marketplace_id, uploaded.id).url
    thumb = urllib.request.urlopen(url + "?size=thumb").read()
    path = "/media/" + url.split("/media/", 1)[1]
    os.makedirs(os.path.dirname(htdocs + path), exist_ok=True)
    with open(htdocs + path, "wb") as f:
        f.write(thumb)
    print(path)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
