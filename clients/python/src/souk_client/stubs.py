"""The generated stubs of every souk.v1 service, by name, and calls wrapped to add metadata,
a default deadline and SoukError."""
from __future__ import annotations

import importlib
import pkgutil
import re
from types import SimpleNamespace
from typing import Callable

import grpc

from souk_client import v1
from souk_client.errors import SoukError


def _modules() -> list:
    """Every generated messages module (souk_client.v1.*_pb2)."""
    return [importlib.import_module(f"souk_client.v1.{info.name}")
            for info in sorted(pkgutil.iter_modules(v1.__path__), key=lambda m: m.name) if info.name.endswith("_pb2")]


class Messages(SimpleNamespace):
    """Every souk.v1 message class and enum by its short name, whichever file declares it:
    `pb.AddressChoice(...)`, `pb.OrderStatus.ORDER_STATUS_APPROVED`."""


pb = Messages(**{name: getattr(module, name) for module in _modules()
                 for name in (*module.DESCRIPTOR.message_types_by_name, *module.DESCRIPTOR.enum_types_by_name)})


def _services() -> dict:
    """{"souk.v1.Accounts": (AccountsStub class, ServiceDescriptor)} for every generated module."""
    found = {}
    for messages in _modules():
        info = SimpleNamespace(name=messages.__name__.rsplit(".", 1)[-1])
        services = messages.DESCRIPTOR.services_by_name
        if not services:
            continue
        grpc_module = importlib.import_module(f"souk_client.v1.{info.name}_grpc")
        for name, service in services.items():
            found[service.full_name] = (getattr(grpc_module, f"{name}Stub"), service)
    return found


SERVICES = _services()


def stub(channel: grpc.Channel, service: str):
    """The generated stub of a souk.v1 service ("souk.v1.Catalog" or "Catalog") on a channel."""
    full = service if "." in service else f"souk.v1.{service}"
    try:
        return SERVICES[full][0](channel)
    except KeyError:
        raise KeyError(f"no souk.v1 service {service!r}; known: {sorted(SERVICES)}") from None


def attribute_name(service: str) -> str:
    """The Session attribute of a service: "souk.v1.Marketplaces" -> "marketplaces"."""
    short = service.rsplit(".", 1)[-1]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", short).lower()


class Stream:
    """A server stream whose failure raises SoukError; everything else (cancel(), code(),
    initial_metadata(), ...) is grpcio's call object."""

    def __init__(self, call):
        self._call = call

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._call)
        except grpc.RpcError as error:
            raise SoukError.from_rpc_error(error) from None

    def __getattr__(self, name):
        return getattr(self._call, name)


class Service:
    """The methods of one service; each call goes through `invoke(multicallable, streaming,
    request, kwargs)` of its session."""

    def __init__(self, raw_stub, descriptor, invoke: Callable):
        self.raw = raw_stub
        self.descriptor = descriptor
        for method in descriptor.methods:
            callable_ = getattr(raw_stub, method.name)
            setattr(self, method.name, _bound(invoke, callable_, method))


def _bound(invoke, callable_, method):
    def call(request, **kwargs):
        return invoke(callable_, method, request, kwargs)
    call.__name__ = method.name
    call.__doc__ = f"{method.full_name}({method.input_type.name}) -> {method.output_type.name}"
    return call
