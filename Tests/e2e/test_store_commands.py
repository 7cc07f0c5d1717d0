"""`souk-server store ...` against a running server (through its control socket) and a stopped one."""
import subprocess

import conftest


def store(server, *args):
    return subprocess.run([server.binary, "store", *args], capture_output=True, text=True, timeout=60)


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
