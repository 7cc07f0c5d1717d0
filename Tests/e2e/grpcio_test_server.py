"""A small grpc.testing.TestService on grpcio, an independent server for the Swift client's tests.

Run with the project's virtual environment: it listens on a free loopback port, prints the port on
one line, and exits when its standard input closes (so it never outlives the test that started it).
Messages come from the server's descriptor set (souk_protos), as in the end-to-end tests.
"""
import pathlib
import sys
import threading
from concurrent import futures

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import souk_protos  # noqa: E402
from google.rpc import error_details_pb2, status_pb2  # noqa: E402
from grpc_status import rpc_status  # noqa: E402

Empty = souk_protos.message("grpc.testing.Empty")
SimpleRequest = souk_protos.message("grpc.testing.SimpleRequest")
SimpleResponse = souk_protos.message("grpc.testing.SimpleResponse")
StreamingOutputCallRequest = souk_protos.message("grpc.testing.StreamingOutputCallRequest")
StreamingOutputCallResponse = souk_protos.message("grpc.testing.StreamingOutputCallResponse")

ECHO_INITIAL = "x-grpc-test-echo-initial"
ECHO_TRAILING = "x-grpc-test-echo-trailing-bin"


def _code(number):
    return next(code for code in grpc.StatusCode if code.value[0] == number)


def _echo(context):
    metadata = dict(context.invocation_metadata())
    if ECHO_INITIAL in metadata:
        context.send_initial_metadata([(ECHO_INITIAL, metadata[ECHO_INITIAL])])
    if ECHO_TRAILING in metadata:
        context.set_trailing_metadata([(ECHO_TRAILING, metadata[ECHO_TRAILING])])


def empty_call(request, context):
    _echo(context)
    return Empty()


def unary_call(request, context):
    _echo(context)
    if request.HasField("response_status") and request.response_status.code != 0:
        if request.response_status.message == "with details":
            # A rich error, as google.rpc and grpcio's grpc_status build it.
            status = status_pb2.Status(code=request.response_status.code, message="with details")
            info = error_details_pb2.ErrorInfo(reason="TEST_REASON", domain="grpcio.test")
            bad = error_details_pb2.BadRequest(field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field="name", description="too short")])
            status.details.add().Pack(info)
            status.details.add().Pack(bad)
            context.abort_with_status(rpc_status.to_status(status))
        context.abort(_code(request.response_status.code), request.response_status.message)
    response = SimpleResponse()
    response.payload.body = b"\0" * request.response_size
    return response


def streaming_output_call(request, context):
    _echo(context)
    for parameters in request.response_parameters:
        response = StreamingOutputCallResponse()
        response.payload.body = b"\0" * parameters.size
        yield response


def full_duplex_call(requests, context):
    _echo(context)
    for request in requests:
        for parameters in request.response_parameters:
            response = StreamingOutputCallResponse()
            response.payload.body = b"\0" * parameters.size
            yield response


def main():
    handlers = {
        "EmptyCall": grpc.unary_unary_rpc_method_handler(
            empty_call, request_deserializer=Empty.FromString, response_serializer=Empty.SerializeToString),
        "UnaryCall": grpc.unary_unary_rpc_method_handler(
            unary_call, request_deserializer=SimpleRequest.FromString,
            response_serializer=SimpleResponse.SerializeToString),
        "StreamingOutputCall": grpc.unary_stream_rpc_method_handler(
            streaming_output_call, request_deserializer=StreamingOutputCallRequest.FromString,
            response_serializer=StreamingOutputCallResponse.SerializeToString),
        "FullDuplexCall": grpc.stream_stream_rpc_method_handler(
            full_duplex_call, request_deserializer=StreamingOutputCallRequest.FromString,
            response_serializer=StreamingOutputCallResponse.SerializeToString),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("grpc.testing.TestService", handlers)])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    stopped = threading.Event()

    def watch_stdin():
        sys.stdin.read()
        stopped.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    stopped.wait()
    server.stop(grace=None)


if __name__ == "__main__":
    main()
