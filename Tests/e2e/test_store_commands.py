"""`souk-server store ...` against a running server (through its control socket) and a stopped one, and
the bad inputs a backup must survive: a restore target holding other files, a backup with a damaged data
file or a damaged upload, a restore over good data from a damaged backup, and a restore while the server
runs. Each of those used to lose data."""
import hashlib
import os
import pathlib
import re
import shutil
import subprocess

import grpc
import pytest

import conftest
from souk_identity import TIMEOUT, Api, Party, STRONG_PASSWORD, pb, request_id, sign_up
from souk_protos import Stub


def store(server, *args):
    return subprocess.run([server.binary, "store", *args], capture_output=True, text=True, timeout=120)


def souk(*args, timeout=120):
    """`souk-server ...` without a running server."""
    binary = os.environ.get("SOUK_SERVER") or str(conftest.ROOT / ".build" / "debug" / "souk-server")
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)


def listing(directory) -> dict:
    """Every file under a directory with its size and SHA-256: what "untouched" means."""
    root = pathlib.Path(directory)
    return {str(p.relative_to(root)): (p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(root.rglob("*")) if p.is_file() and p.name not in ("LOG", "control.sock")}


def flip_byte(path: pathlib.Path):
    """Damages a file without changing its size (as bit rot does)."""
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def records_checked(verify_output: str) -> int:
    return int(re.search(r"checked (\d+) records", verify_output).group(1))


AVATAR = pb.MediaObject.DESCRIPTOR.fields_by_name["purpose"].enum_type.values_by_name["MEDIA_PURPOSE_AVATAR"].number
CONTENT = b"\x89PNG\r\n\x1a\n" + os.urandom(120_000)


@pytest.fixture(scope="module")
def backed_up(tmp_path_factory):
    """A server with the demo data and one upload, backed up online through its control socket."""
    server = conftest.IdentityServer(access_token_ttl=600)
    try:
        with server.channel() as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            alice = sign_up(Api(channel), server.marketplace_id("MARA"))
            media = Stub(channel, "souk.v1.Media")
            metadata = pb.UploadMediaMetadata(request_id=request_id(), content_type="image/png", size_bytes=len(CONTENT),
                                              file_name="photo", purpose=AVATAR)
            uploaded = media.UploadMedia(iter([pb.UploadMediaRequest(marketplace_id=alice.marketplace_id, metadata=metadata),
                                               pb.UploadMediaRequest(marketplace_id=alice.marketplace_id, chunk=CONTENT)]),
                                         metadata=alice.md(), timeout=TIMEOUT)
        backups = tmp_path_factory.mktemp("backups") / "daily"
        made = store(server, "backup", "--data-dir", server.data_dir, "--backup-dir", str(backups))
        assert made.returncode == 0, made.stdout + made.stderr
        yield server, backups, uploaded
    finally:
        conftest.stop_cleanly(server)


def damaged_copy(backups: pathlib.Path, tmp_path: pathlib.Path, damage) -> tuple[pathlib.Path, pathlib.Path]:
    """A copy of the backup directory with one file damaged by `damage(copy)`, which returns that file."""
    copy = tmp_path / "damaged-backups"
    shutil.copytree(backups, copy)
    return copy, damage(copy)


def largest_data_file(backups: pathlib.Path) -> pathlib.Path:
    path = max((backups / "shared_checksum").glob("*.sst"), key=lambda p: p.stat().st_size)
    flip_byte(path)
    return path


def uploaded_file(backups: pathlib.Path) -> pathlib.Path:
    [path] = [p for p in (backups / "files" / "media").rglob("*") if p.is_file()]
    flip_byte(path)
    return path


def test_backup_verify_list_while_running_then_restore_when_stopped(tmp_path):
    server = conftest.Server()
    backups = tmp_path / "backups"
    try:
        first = store(server, "backup", "--data-dir", server.data_dir, "--backup-dir", str(backups))
        assert first.returncode == 0, first.stderr
        second = store(server, "backup", "--data-dir", server.data_dir, "--backup-dir", str(backups))
        assert second.returncode == 0, second.stderr
        verify = store(server, "verify", "--data-dir", server.data_dir)
        assert verify.returncode == 0, verify.stdout + verify.stderr
        listed = store(server, "list-backups", "--backup-dir", str(backups))
        assert listed.returncode == 0 and len([l for l in listed.stdout.splitlines() if l.strip()]) >= 2, listed.stdout
        refused = store(server, "restore", "--backup-dir", str(backups), "--data-dir", server.data_dir)
        assert refused.returncode != 0  # the server is still running
    finally:
        assert server.stop() == 0
    restored = store(server, "restore", "--backup-dir", str(backups), "--data-dir", str(tmp_path / "restored"))
    assert restored.returncode == 0, restored.stderr
    verify = store(server, "verify", "--data-dir", str(tmp_path / "restored"))
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_list_backups_shows_utc_times_sizes_with_uploads_and_online(backed_up):
    server, backups, _ = backed_up
    listed = store(server, "list-backups", "--backup-dir", str(backups))
    assert listed.returncode == 0, listed.stderr
    line = listed.stdout.strip().splitlines()[-1]
    assert re.search(r"taken \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", line), line
    assert "online" in line and "offline" not in line, line
    assert re.search(r"[1-9]\d* uploaded files of \d", line), line
    verified = store(server, "verify-backup", "--backup-dir", str(backups))
    assert verified.returncode == 0 and "intact" in verified.stdout, verified.stdout + verified.stderr


def test_restore_refuses_a_directory_holding_other_files_and_deletes_none(backed_up, tmp_path):
    server, backups, _ = backed_up
    target = tmp_path / "srv"
    (target / "photos").mkdir(parents=True)
    (target / "notes.txt").write_text("the operator's notes")
    (target / "photos" / "holiday.jpg").write_bytes(b"\xff\xd8\xff" + b"x" * 1000)
    before = listing(target)
    for extra in ([], ["--force"]):
        refused = store(server, "restore", "--backup-dir", str(backups), "--data-dir", str(target), *extra)
        assert refused.returncode != 0, refused.stdout
        assert "notes.txt" in refused.stderr and "photos" in refused.stderr, refused.stderr
        assert listing(target) == before
    # An empty directory is restored into, and the restored store checks out, uploads included.
    empty = tmp_path / "empty"
    empty.mkdir()
    restored = store(server, "restore", "--backup-dir", str(backups), "--data-dir", str(empty))
    assert restored.returncode == 0, restored.stderr
    verify = store(server, "verify", "--data-dir", str(empty))
    assert verify.returncode == 0 and "consistent" in verify.stdout, verify.stdout + verify.stderr
    assert re.search(r"and [1-9]\d* files", verify.stdout), verify.stdout


def test_a_damaged_data_file_is_named_and_restore_leaves_nothing(backed_up, tmp_path):
    server, backups, _ = backed_up
    damaged, path = damaged_copy(backups, tmp_path, largest_data_file)
    target = tmp_path / "srv"
    refused = store(server, "restore", "--backup-dir", str(damaged), "--data-dir", str(target))
    assert refused.returncode != 0
    assert path.name in refused.stderr, refused.stderr
    assert not target.exists(), "nothing is created before the backup is verified"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".srv")], "no debris beside the target"

    checked = store(server, "verify-backup", "--backup-dir", str(damaged))
    assert checked.returncode != 0 and path.name in checked.stdout, checked.stdout + checked.stderr


def test_a_directory_with_files_but_no_database_is_never_opened_as_a_fresh_store(backed_up, tmp_path):
    server, backups, _ = backed_up
    # What a restore that stopped half-way used to leave: data files without CURRENT.
    debris = tmp_path / "srv"
    debris.mkdir()
    for n, sst in enumerate(sorted((backups / "shared_checksum").glob("*.sst"))):
        shutil.copy(sst, debris / f"{n:06}.sst")
    before = listing(debris)
    verify = store(server, "verify", "--data-dir", str(debris))
    assert verify.returncode != 0 and "no database" in verify.stderr + verify.stdout, verify.stdout + verify.stderr
    started = souk("--host", "127.0.0.1", "--port", str(conftest.free_port()), "--metrics-port", str(conftest.free_port()),
                   "--data-dir", str(debris), "--log-level", "warning")
    assert started.returncode != 0 and "no database" in started.stderr + started.stdout, started.stdout + started.stderr
    assert listing(debris) == before
    assert not (debris / "CURRENT").exists()


def test_restore_force_from_a_damaged_backup_keeps_the_good_data(backed_up, tmp_path):
    server, backups, _ = backed_up
    good = tmp_path / "srv"
    assert store(server, "restore", "--backup-dir", str(backups), "--data-dir", str(good)).returncode == 0
    verify_before = store(server, "verify", "--data-dir", str(good))
    assert verify_before.returncode == 0, verify_before.stdout + verify_before.stderr
    before = listing(good)

    for damage in (largest_data_file, uploaded_file):
        damaged, path = damaged_copy(backups, tmp_path / damage.__name__, damage)
        refused = store(server, "restore", "--force", "--backup-dir", str(damaged), "--data-dir", str(good))
        assert refused.returncode != 0
        assert listing(good) == before, "the good data is untouched"
        assert path.name in refused.stderr, refused.stderr
    verify_after = store(server, "verify", "--data-dir", str(good))
    assert verify_after.returncode == 0, verify_after.stdout + verify_after.stderr
    assert records_checked(verify_after.stdout) == records_checked(verify_before.stdout) > 100


def test_a_damaged_upload_fails_verify_backup_restore_and_verify(backed_up, tmp_path):
    server, backups, uploaded = backed_up
    damaged, path = damaged_copy(backups, tmp_path, uploaded_file)
    assert path.parent.name + path.name == uploaded.sha256
    refused = store(server, "restore", "--backup-dir", str(damaged), "--data-dir", str(tmp_path / "srv"))
    assert refused.returncode != 0 and path.name in refused.stderr, refused.stderr
    assert not (tmp_path / "srv").exists()
    checked = store(server, "verify-backup", "--backup-dir", str(damaged))
    assert checked.returncode != 0 and path.name in checked.stdout and "SHA-256" in checked.stdout, checked.stdout

    # `store verify` of a data directory checks the uploads: a damaged one, then a missing one.
    restored = tmp_path / "restored"
    assert store(server, "restore", "--backup-dir", str(backups), "--data-dir", str(restored)).returncode == 0
    media_file = restored / "media" / uploaded.sha256[:2] / uploaded.sha256[2:]
    flip_byte(media_file)
    verify = store(server, "verify", "--data-dir", str(restored))
    assert verify.returncode != 0 and uploaded.sha256[2:] in verify.stdout and "SHA-256" in verify.stdout, verify.stdout
    media_file.unlink()
    verify = store(server, "verify", "--data-dir", str(restored))
    assert verify.returncode != 0 and "missing" in verify.stdout and uploaded.sha256[2:] in verify.stdout, verify.stdout


def test_restore_force_while_the_server_runs_is_refused_and_keeps_acknowledged_writes(backed_up):
    server, backups, _ = backed_up
    with server.channel() as channel:
        api = Api(channel)
        bob = sign_up(api, server.marketplace_id("MARA"))  # acknowledged after the backup was taken
        refused = store(server, "restore", "--force", "--backup-dir", str(backups), "--data-dir", server.data_dir)
        assert refused.returncode != 0 and "server" in refused.stderr, refused.stderr
        # Without the control socket, RocksDB's lock on the database still refuses it.
        os.unlink(os.path.join(server.data_dir, "control.sock"))
        refused = store(server, "restore", "--force", "--backup-dir", str(backups), "--data-dir", server.data_dir)
        assert refused.returncode != 0 and "LOCK" in refused.stderr, refused.stderr
        again = Party.login(api, bob.marketplace_id, bob.email, STRONG_PASSWORD)
        assert again.account_id == bob.account_id
