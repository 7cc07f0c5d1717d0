"""Readable text of a few common messages, for scripts and examples."""
from __future__ import annotations

import datetime

# ISO 4217 currencies without minor units among the ones Souk's marketplaces use.
_NO_MINOR_UNITS = {"VND", "JPY", "KRW", "CLP", "ISK"}


def money(m) -> str:
    """A souk.v1.Money as "SAR 25.00" or "VND 4,500,000"."""
    if m.currency_code in _NO_MINOR_UNITS:
        return f"{m.currency_code} {m.amount_minor:,}"
    sign = "-" if m.amount_minor < 0 else ""
    units, cents = divmod(abs(m.amount_minor), 100)
    return f"{m.currency_code} {sign}{units:,}.{cents:02d}"


def when(timestamp, zone: datetime.tzinfo = datetime.timezone.utc) -> str:
    """A google.protobuf.Timestamp as "2026-11-27 08:00" in `zone` (UTC unless given)."""
    moment = datetime.datetime.fromtimestamp(timestamp.seconds + timestamp.nanos / 1e9, zone)
    return moment.strftime("%Y-%m-%d %H:%M")


def enum_value(enum_type, number: int) -> str:
    """An enum number as its value name without the type prefix: ORDER_STATUS_APPROVED -> "approved"."""
    descriptor = enum_type.DESCRIPTOR
    value = descriptor.values_by_number.get(number)
    if value is None:
        return str(number)
    prefix = "".join("_" + c if c.isupper() else c.upper() for c in descriptor.name).lstrip("_") + "_"
    name = value.name[len(prefix):] if value.name.startswith(prefix) else value.name
    return name.lower().replace("_", " ")


def run(main) -> None:
    """Runs a script's `main`, ending with a Souk error's status and localized message instead
    of a traceback."""
    from .errors import SoukError

    try:
        main()
    except SoukError as error:
        raise SystemExit(f"{error}\n  {error.localized_message}")
