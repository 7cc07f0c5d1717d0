"""Python client for Souk.

    from souk_client import Session, SoukError, pb

    with Session.sign_in("localhost:50051", "Aqua Hub", "customer@aquahub.example", "...") as session:
        services = session.catalog.ListServices(pb.ListServicesRequest())

`souk_client.v1` holds the generated messages (`*_pb2`) and grpcio stubs (`*_pb2_grpc`) of every
souk.v1 service, and `pb` every souk.v1 message and enum by its short name; `Session` signs in and keeps the token fresh; `SoukError` carries the status and
the error details of a failed call.
"""
from souk_client import v1
from souk_client.errors import FieldViolation, SoukError, raising
from souk_client.session import Session, connect, request_id, resolve_marketplace
from souk_client.stubs import SERVICES, Stream, pb, stub

__all__ = ["v1", "Session", "SoukError", "FieldViolation", "raising", "connect", "request_id", "resolve_marketplace",
           "SERVICES", "Stream", "pb", "stub"]
