"""Notification settings and push devices (souk.v1.Notifications): settings default to everything
on and change only the fields named in update_mask; a caller registers, lists and unregisters
their own push tokens, a token registered again moves to its new account, and no caller sees or
removes another's device (another marketplace's device is unknown)."""
import grpc
import pytest

from souk_identity import TIMEOUT, FieldMask, login_party, pb, refused, sign_up
from souk_protos import Stub, field_violations

MARA = "MARA"
OTHER = "Aqua Hub"
APNS, FCM = 1, 2
ACTIVITY, MESSAGES, ANNOUNCEMENTS = 1, 2, 3
KIND_ORDER, KIND_MESSAGE = 1, 7


@pytest.fixture(scope="module")
def notifications(identity_channel):
    return Stub(identity_channel, "souk.v1.Notifications")


def get_settings(notifications, party):
    return notifications.GetNotificationSettings(
        pb.GetNotificationSettingsRequest(marketplace_id=party.marketplace_id), metadata=party.md(), timeout=TIMEOUT)


def update_settings(notifications, party, paths, **settings):
    return notifications.UpdateNotificationSettings(pb.UpdateNotificationSettingsRequest(
        marketplace_id=party.marketplace_id, settings=pb.NotificationSettings(**settings), update_mask=FieldMask(paths=paths)),
        metadata=party.md(), timeout=TIMEOUT)


def register(notifications, party, token, platform=APNS, app_id="com.mara.app", device_name="iPhone 15"):
    return notifications.RegisterDevice(pb.RegisterDeviceRequest(
        marketplace_id=party.marketplace_id, platform=platform, token=token, app_id=app_id, device_name=device_name),
        metadata=party.md(), timeout=TIMEOUT)


def devices(notifications, party):
    return list(notifications.ListDevices(
        pb.ListDevicesRequest(marketplace_id=party.marketplace_id), metadata=party.md(), timeout=TIMEOUT).devices)


def unregister(notifications, party, device_id):
    return notifications.UnregisterDevice(
        pb.UnregisterDeviceRequest(marketplace_id=party.marketplace_id, device_id=device_id), metadata=party.md(), timeout=TIMEOUT)


def test_settings_default_on_and_update_changes_only_masked_fields(api, identity_server, notifications):
    customer = sign_up(api, identity_server.marketplace_id(MARA))
    defaults = get_settings(notifications, customer)
    assert list(defaults.muted_categories) == [] and list(defaults.muted_kinds) == [] and not defaults.push_disabled
    assert defaults.version == 0

    changed = update_settings(notifications, customer, ["muted_categories"],
                              muted_categories=[ANNOUNCEMENTS, MESSAGES], push_disabled=True)
    assert sorted(changed.muted_categories) == [MESSAGES, ANNOUNCEMENTS]
    assert not changed.push_disabled, "push_disabled was not in the mask"
    assert changed.version == 1

    again = update_settings(notifications, customer, ["push_disabled", "muted_kinds"], push_disabled=True, muted_kinds=[KIND_ORDER])
    assert again.push_disabled and list(again.muted_kinds) == [KIND_ORDER]
    assert sorted(again.muted_categories) == [MESSAGES, ANNOUNCEMENTS], "categories were not in the mask"
    assert get_settings(notifications, customer) == again

    # Settings are the caller's own: another account still has the defaults.
    other = sign_up(api, identity_server.marketplace_id(MARA))
    assert not get_settings(notifications, other).push_disabled


def test_settings_refusals(api, identity_server, notifications):
    customer = sign_up(api, identity_server.marketplace_id(MARA))
    refused(lambda: update_settings(notifications, customer, ["push_disabled", "colour"], push_disabled=True),
            grpc.StatusCode.INVALID_ARGUMENT, field="update_mask")
    error = refused(lambda: update_settings(notifications, customer, ["bogus", "muted_categories", "muted_kinds"],
                                            muted_categories=[0], muted_kinds=[KIND_MESSAGE, 99]),
                    grpc.StatusCode.INVALID_ARGUMENT)
    named = {v.field for v in field_violations(error)}
    assert {"update_mask", "settings.muted_categories[0]", "settings.muted_kinds[1]"} <= named, named
    assert get_settings(notifications, customer).version == 0, "a refused update changes nothing"

    update_settings(notifications, customer, ["push_disabled"], push_disabled=True)
    refused(lambda: notifications.UpdateNotificationSettings(pb.UpdateNotificationSettingsRequest(
        marketplace_id=customer.marketplace_id, settings=pb.NotificationSettings(push_disabled=False),
        update_mask=FieldMask(paths=["push_disabled"]), expected_version=7), metadata=customer.md(), timeout=TIMEOUT),
        grpc.StatusCode.ABORTED)


def test_devices_register_list_unregister_and_move(api, identity_server, notifications):
    mp = identity_server.marketplace_id(MARA)
    alice, bob = sign_up(api, mp), sign_up(api, mp)
    phone = register(notifications, alice, "apns-token-" + alice.account_id)
    assert phone.account_id == alice.account_id and phone.platform == APNS and phone.app_id == "com.mara.app"
    tablet = register(notifications, alice, "fcm-token-" + alice.account_id, platform=FCM, app_id="com.mara.android")
    assert [d.id for d in devices(notifications, alice)] == [phone.id, tablet.id]
    assert devices(notifications, bob) == []

    # The same token registered again by another account moves to it: one device per token.
    moved = register(notifications, bob, phone.token, device_name="second-hand iPhone")
    assert moved.id == phone.id and moved.account_id == bob.account_id and moved.version == phone.version + 1
    assert [d.id for d in devices(notifications, alice)] == [tablet.id]
    assert [d.id for d in devices(notifications, bob)] == [phone.id]

    # A stranger can neither remove another's device nor see it.
    refused(lambda: unregister(notifications, bob, tablet.id), grpc.StatusCode.PERMISSION_DENIED)
    assert tablet.id not in [d.id for d in devices(notifications, bob)]
    unregister(notifications, alice, tablet.id)
    assert devices(notifications, alice) == []
    refused(lambda: unregister(notifications, alice, tablet.id), grpc.StatusCode.NOT_FOUND)


def test_admin_unregisters_and_other_marketplace_sees_nothing(api, identity_server, notifications):
    customer = sign_up(api, identity_server.marketplace_id(MARA))
    device = register(notifications, customer, "admin-removes-" + customer.account_id)
    outsider = sign_up(api, identity_server.marketplace_id(OTHER))
    refused(lambda: unregister(notifications, outsider, device.id), grpc.StatusCode.NOT_FOUND)
    # The same token in another marketplace is a device of its own there.
    elsewhere = register(notifications, outsider, device.token)
    assert elsewhere.id != device.id
    assert [d.id for d in devices(notifications, customer)] == [device.id]

    admin = login_party(api, identity_server.demo_login(MARA, "admin"))
    unregister(notifications, admin, device.id)
    assert devices(notifications, customer) == []


def test_register_names_every_bad_field(api, identity_server, notifications):
    customer = sign_up(api, identity_server.marketplace_id(MARA))
    error = refused(lambda: register(notifications, customer, "", platform=0, app_id="", device_name="x" * 101),
                    grpc.StatusCode.INVALID_ARGUMENT)
    assert {"token", "platform", "app_id", "device_name"} <= {v.field for v in field_violations(error)}
    refused(lambda: register(notifications, customer, "t" * 4097), grpc.StatusCode.INVALID_ARGUMENT, field="token")
    assert devices(notifications, customer) == []


def test_concurrent_registrations_of_one_token_leave_one_device(api, identity_server, notifications):
    """Eight accounts register the same phone's token at once: the token ends on exactly one
    device, owned by one of them, and every first write of one account's settings at once leaves
    one settings record (the version counts every write)."""
    from concurrent.futures import ThreadPoolExecutor
    market = identity_server.marketplace_id(MARA)
    parties = [sign_up(api, market) for _ in range(8)]
    token = "race-token-" + parties[0].account_id
    with ThreadPoolExecutor(len(parties)) as pool:
        answers = list(pool.map(lambda party: register(notifications, party, token), parties))
    assert len({answer.id for answer in answers}) == 1, "one device for one token"
    owners = [party for party in parties if any(d.token == token for d in devices(notifications, party))]
    assert len(owners) == 1

    customer = parties[0]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: update_settings(notifications, customer, ["push_disabled"], push_disabled=True), range(8)))
    assert get_settings(notifications, customer).version == 8
