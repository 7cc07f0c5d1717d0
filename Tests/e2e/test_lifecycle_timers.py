"""Lifecycle timers are stored with the change that arms them and fired by the server's
scheduler: a Dasher's offer that lapsed while the server was down is returned to its dorm's
queue when the server starts again, with no call touching it (asking for work no longer
expires other Dashers' offers, so another Dasher being offered the job shows the scheduler
fired the timer)."""
import tempfile
import time

import pytest

from conftest import IdentityServer, stop_cleanly
from souk_identity import Api, Duration, Party, operator_party
from souk_protos import Stub
from test_laundry_design import TEMPLATE, Campus, poll, submit, work


def laundry_api(channel) -> Api:
    api = Api(channel)
    api.laundry = Stub(channel, "souk.v1.Laundry")
    api.notifications = Stub(channel, "souk.v1.Notifications")
    api.payments = Stub(channel, "souk.v1.Payments")
    return api


def again(api: Api, party: Party) -> Party:
    """The same account signed in on the restarted server."""
    return Party.login(api, party.marketplace_id, party.email, party.password)


def test_an_offer_that_lapsed_while_the_server_was_down_returns_to_the_queue_at_start():
    data_dir = tempfile.mkdtemp(prefix="souk-e2e-timers-")
    first = IdentityServer(60, data_dir=data_dir)
    try:
        with first.channel() as channel:
            api = laundry_api(channel)
            campus = Campus(api, operator_party(api, first), first.marketplace_id(TEMPLATE))
            campus.settings(job_offer_timeout=Duration(seconds=1))
            dorm = campus.dorm()
            customer = campus.student(dorm, "Casey")
            dana, drew = campus.dasher(dorm, "Dana"), campus.dasher(dorm, "Drew")
            job = submit(api, customer)
            assert work(api, dana).id == job.id
    finally:
        stop_cleanly(first)
    # Down past the offer's expiry.
    time.sleep(1.5)
    second = IdentityServer(60, data_dir=data_dir)
    try:
        with second.channel() as channel:
            api = laundry_api(channel)
            drew = again(api, drew)
            offered = poll("the lapsed offer's return to the queue", lambda: work(api, drew))
            assert offered.id == job.id and offered.offered_to_account_id == drew.account_id
    finally:
        stop_cleanly(second)
