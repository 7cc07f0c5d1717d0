"""souk-load against a demo server: the single-RPC path in both models, the five apps' scenarios
in the closed model and one in the open model; zero errors, and the JSON and CSV reports'
structure and counts (counts of calls, not timings: nothing here depends on the machine's speed)."""
import csv
import json
import pathlib
import subprocess

import pytest

from conftest import ROOT, IdentityServer, souk_load_binary, stop_cleanly

SCENARIOS = ROOT / "bench" / "load" / "scenarios"
PERCENTILES = ["min", "p50", "p90", "p99", "p99_9", "p99_99", "max"]
CSV_HEADER = ("name,calls,ok,errors,rate,late,dropped,min_ms,mean_ms,p50_ms,p90_ms,p99_ms,p99_9_ms,p99_99_ms,max_ms,"
              "messages,gap_p50_ms,gap_p99_ms,errors_by_reason")


@pytest.fixture(scope="module")
def demo():
    # Tokens outlive the runs (the scenarios sign in once per user).
    s = IdentityServer(600)
    yield s
    stop_cleanly(s)


def souk_load(demo, tmp_path, *args) -> tuple[dict, list[dict], str]:
    """Runs souk-load; returns its JSON report, its CSV rows and its table."""
    out_json, out_csv = tmp_path / "report.json", tmp_path / "report.csv"
    done = subprocess.run(
        [souk_load_binary(), *args, "--target", demo.address, "--json", str(out_json), "--csv", str(out_csv), "--threads", "2"],
        capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"souk-load failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    text = out_csv.read_text()
    assert text.splitlines()[0] == CSV_HEADER
    return json.loads(out_json.read_text()), list(csv.DictReader(text.splitlines())), done.stdout


def check_report(report: dict, rows: list[dict]):
    """Zero errors anywhere, calls = the sum over statuses, percentiles in order, CSV = JSON."""
    assert report["tool"] == "souk-load"
    assert report["errors"] == 0, json.dumps(report, indent=1)
    assert report["calls"] == sum(report["statuses"].values()) == report["statuses"].get("OK", 0)
    assert report["calls"] == sum(r["calls"] for r in report["rpcs"] if r["name"] != "(iteration)")
    for entry in report["rpcs"] + report["setup"]:
        assert entry["errors"] == 0, entry
        assert entry["calls"] == sum(entry["statuses"].values()) == entry["ok"]
        assert entry["reasons"] == {}
        latency = entry["latency_ms"]
        values = [latency[p] for p in PERCENTILES]
        assert values == sorted(values), latency
    assert [r["name"] for r in rows] == [r["name"] for r in report["rpcs"]]
    for row, entry in zip(rows, report["rpcs"]):
        assert int(row["calls"]) == entry["calls"] and int(row["errors"]) == 0
        assert float(row["p50_ms"]) <= float(row["p99_ms"]) <= float(row["max_ms"])


def entries(report: dict) -> dict:
    return {r["name"]: r for r in report["rpcs"]}


def test_single_rpc_closed_model_sends_exactly_the_calls_asked(demo, tmp_path):
    report, rows, table = souk_load(demo, tmp_path, "call", "grpc.testing.TestService/EmptyCall",
                                    "--connections", "2", "--concurrency", "8", "--calls", "3000")
    check_report(report, rows)
    assert report["mode"] == "closed"
    assert report["calls"] == 3000 and report["late"] == 0 and report["dropped"] == 0
    assert [r["name"] for r in report["rpcs"]] == ["grpc.testing.TestService/EmptyCall"]
    assert "grpc.testing.TestService/EmptyCall" in table and "p99.99" in table


def test_single_rpc_with_a_json_request_and_metadata(demo, tmp_path):
    report, rows, _ = souk_load(demo, tmp_path, "call", "grpc.testing.TestService/UnaryCall",
                                "-d", '{"responseSize": 1024, "payload": {"body": "AAAA"}}', "-H", "x-load: yes",
                                "--calls", "500", "--concurrency", "4")
    check_report(report, rows)
    assert report["calls"] == 500


def test_single_rpc_open_model_accounts_for_every_scheduled_call(demo, tmp_path):
    # 2 s at 100/s, then 1 s ramping 100 → 300: 200 + 200 calls scheduled. Each is sent (on time
    # or late) or dropped; none is lost.
    report, rows, _ = souk_load(demo, tmp_path, "call", "grpc.testing.TestService/EmptyCall",
                                "--stages", "2s@100,1s@100->300", "--connections", "2")
    check_report(report, rows)
    assert report["mode"] == "open"
    assert report["calls"] + report["dropped"] == 400
    assert 0 <= report["late"] <= report["calls"]


@pytest.mark.parametrize("app", ["dineswift", "chateau-du-nox", "aqua-hub", "drip-n-dash", "mara"])
def test_each_apps_scenario_runs_without_errors_in_the_closed_model(demo, tmp_path, app):
    users, iterations = 3, 2
    report, rows, _ = souk_load(
        demo, tmp_path, "run", str(SCENARIOS / f"{app}.json"), "--users", str(users), "--iterations", str(iterations),
        "--var", f"operatorEmail={IdentityServer.OPERATOR_EMAIL}", "--var", f"operatorPassword={IdentityServer.OPERATOR_PASSWORD}")
    check_report(report, rows)
    assert report["workload"] == app
    steps = json.loads((SCENARIOS / f"{app}.json").read_text())["steps"]
    by_name = entries(report)
    for step in steps:
        if step.get("probability", 1) < 1:
            continue
        assert by_name[step["name"]]["calls"] == users * iterations, step["name"]
        if "stream" in step:
            # One message read per watch: the gap histogram holds one value per call.
            assert by_name[step["name"]]["messages"] == users * iterations
    # Each user signed up once, in the setup (reported apart from the run).
    setup = {r["name"]: r for r in report["setup"]}
    assert setup["signUp"]["calls"] == users


def test_scenario_open_model_starts_iterations_on_the_schedule(demo, tmp_path):
    report, rows, _ = souk_load(demo, tmp_path, "run", str(SCENARIOS / "chateau-du-nox.json"),
                                "--users", "6", "--rate", "8", "--duration", "2s")
    check_report(report, rows)
    iteration = entries(report)["(iteration)"]
    # 16 iterations scheduled: each ran on a free user or was dropped (no user free).
    assert iteration["calls"] + iteration["dropped"] == 16
    assert entries(report)["Checkout"]["calls"] == iteration["calls"]


def test_bad_input_is_refused_with_a_message(demo, tmp_path):
    for args, wanted in [
        (["call", "nope.Service/Method"], "unknown method"),
        (["call", "grpc.testing.TestService/EmptyCall", "--stages", "10s"], "invalid stage"),
        (["call", "grpc.testing.TestService/UnaryCall", "-d", '{"nope": 1}'], "not a valid"),
    ]:
        done = subprocess.run([souk_load_binary(), *args, "--target", demo.address], capture_output=True, text=True, timeout=30)
        assert done.returncode != 0
        assert wanted in done.stderr + done.stdout, done.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"steps": [{"call": "souk.v1.Nope/Nothing"}]}))
    done = subprocess.run([souk_load_binary(), "run", str(bad), "--target", demo.address], capture_output=True, text=True, timeout=30)
    assert done.returncode != 0 and "unknown method souk.v1.Nope/Nothing" in done.stderr
