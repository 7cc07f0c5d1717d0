"""gRPC-Web on the gRPC port: an independent gRPC-Web client (sonora, over HTTP/1.1), the base64
text format by hand, HTTP/2 with prior knowledge, CORS, and the same answers and errors as gRPC."""
import base64
import http.client
import struct

import grpc
import pytest
import sonora.client
from souk_client import pb

import rawh2
from conftest import IdentityServer, stop_cleanly
from souk_identity import Api, Party, bearer
from souk_protos import interop_stub, message

TIMEOUT = 10
ORIGIN = "https://admin.souk.example"

SimpleRequest = message("grpc.testing.SimpleRequest")
SimpleResponse = message("grpc.testing.SimpleResponse")
Empty = message("grpc.testing.Empty")
StreamingOutputCallRequest = message("grpc.testing.StreamingOutputCallRequest")
StreamingOutputCallResponse = message("grpc.testing.StreamingOutputCallResponse")
ResponseParameters = message("grpc.testing.ResponseParameters")
Status = message("google.rpc.Status")


@pytest.fixture(scope="module")
def web_server():
    s = IdentityServer(600, "--cors-origin", ORIGIN)
    yield s
    stop_cleanly(s)


@pytest.fixture(scope="module")
def api(web_server):
    with web_server.channel() as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        yield Api(ch)


@pytest.fixture(scope="module")
def web(web_server):
    with sonora.client.insecure_web_channel(f"http://{web_server.address}") as ch:
        yield ch


@pytest.fixture(scope="module")
def wine_shop(web_server):
    return web_server.marketplace_id("Chateau Du Nox")


def web_unary(web, path, request, response_type, metadata=None):
    call = web.unary_unary(path, request_serializer=type(request).SerializeToString,
                           response_deserializer=response_type.FromString)
    return call(request, timeout=TIMEOUT, metadata=metadata)


def frames(body: bytes):
    """(flags, payload) of each gRPC-Web frame of a body."""
    out, offset = [], 0
    while offset < len(body):
        flags, length = struct.unpack(">BI", body[offset:offset + 5])
        out.append((flags, body[offset + 5:offset + 5 + length]))
        offset += 5 + length
    assert offset == len(body), "the body ends inside a frame"
    return out


def trailer_block(payload: bytes) -> dict:
    lines = payload.decode("ascii").split("\r\n")
    assert lines[-1] == "", "every trailer line ends with CRLF"
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in lines[:-1])}


def decode_text(body: bytes) -> bytes:
    """A grpc-web-text body: base64 segments, each padded on its own."""
    out, segment = b"", b""
    for i in range(0, len(body), 4):
        segment += body[i:i + 4]
        if segment.endswith(b"="):
            out, segment = out + base64.b64decode(segment), b""
    return out + base64.b64decode(segment)


def post(server, path, body: bytes, content_type: str, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    conn.request("POST", path, body=body, headers={"content-type": content_type, "x-grpc-web": "1", **(headers or {})})
    response = conn.getresponse()
    return conn, response, response.read()


def grpc_frame(message_bytes: bytes) -> bytes:
    return struct.pack(">BI", 0, len(message_bytes)) + message_bytes


def test_sonora_calls_unary_and_server_streaming_methods(web):
    reply = web_unary(web, "/grpc.testing.TestService/UnaryCall",
                      SimpleRequest(response_size=300, payload=message("grpc.testing.Payload")(body=b"x" * 10)), SimpleResponse)
    assert len(reply.payload.body) == 300
    assert web_unary(web, "/grpc.testing.TestService/EmptyCall", Empty(), Empty) == Empty()

    stream = web.unary_stream("/grpc.testing.TestService/StreamingOutputCall",
                              request_serializer=StreamingOutputCallRequest.SerializeToString,
                              response_deserializer=StreamingOutputCallResponse.FromString)
    sizes = [7, 0, 2048]
    replies = list(stream(StreamingOutputCallRequest(
        response_parameters=[ResponseParameters(size=size) for size in sizes]), timeout=TIMEOUT))
    assert [len(r.payload.body) for r in replies] == sizes


def test_the_same_journey_step_answers_the_same_through_grpc_and_grpc_web(api, web, web_server, wine_shop):
    request = pb.ListProductsRequest(marketplace_id=wine_shop, page_size=20)
    over_grpc = api.catalog.ListProducts(request, timeout=TIMEOUT)
    over_web = web_unary(web, "/souk.v1.Catalog/ListProducts", request, pb.ListProductsResponse)
    assert over_grpc.products and over_web == over_grpc

    customer = Party.login(api, wine_shop, web_server.demo_login("Chateau Du Nox", "customer").email,
                           web_server.demo_login("Chateau Du Nox", "customer").password)
    me = web_unary(web, "/souk.v1.Accounts/GetMe", pb.GetMeRequest(marketplace_id=wine_shop), pb.Account,
                   metadata=bearer(customer.session.access_token))
    assert me == api.accounts.GetMe(pb.GetMeRequest(marketplace_id=wine_shop), metadata=customer.md(), timeout=TIMEOUT)


def test_an_error_reads_the_same_through_grpc_and_grpc_web(api, web_server, wine_shop):
    request = pb.ListProductsRequest(marketplace_id=wine_shop, order_by="colour")
    with pytest.raises(grpc.RpcError) as refused:
        api.catalog.ListProducts(request, timeout=TIMEOUT, metadata=(("grpc-accept-language", "ar"),))
    grpc_details = dict(refused.value.trailing_metadata())["grpc-status-details-bin"]

    _, response, body = post(web_server, "/souk.v1.Catalog/ListProducts", grpc_frame(request.SerializeToString()),
                             "application/grpc-web+proto", {"grpc-accept-language": "ar"})
    assert response.status == 200
    # A call refused before any message is a Trailers-Only answer: the status is in the headers.
    status = response.getheader("grpc-status") or trailer_block(frames(body)[-1][1])["grpc-status"]
    assert int(status) == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    details = response.getheader("grpc-status-details-bin") or trailer_block(frames(body)[-1][1])["grpc-status-details-bin"]
    padded = details + "=" * (-len(details) % 4)
    assert Status.FromString(base64.b64decode(padded)) == Status.FromString(grpc_details)


def test_text_format_round_trips_base64_bodies(web_server):
    request = SimpleRequest(response_size=1000).SerializeToString()
    body = base64.b64encode(grpc_frame(request))
    _, response, raw = post(web_server, "/grpc.testing.TestService/UnaryCall", body, "application/grpc-web-text")
    assert response.status == 200
    assert response.getheader("content-type") == "application/grpc-web-text+proto"
    (flags, payload), (trailer_flags, trailer) = frames(decode_text(raw))
    assert flags == 0 and len(SimpleResponse.FromString(payload).payload.body) == 1000
    assert trailer_flags == 0x80 and trailer_block(trailer)["grpc-status"] == "0"


def test_text_format_accepts_a_request_in_several_padded_segments(web_server):
    frame = grpc_frame(SimpleRequest(response_size=5).SerializeToString())
    body = base64.b64encode(frame[:4]) + base64.b64encode(frame[4:])
    _, response, raw = post(web_server, "/grpc.testing.TestService/UnaryCall", body, "application/grpc-web-text+proto")
    (_, payload), (_, trailer) = frames(decode_text(raw))
    assert len(SimpleResponse.FromString(payload).payload.body) == 5
    assert trailer_block(trailer)["grpc-status"] == "0"


def test_binary_format_streams_messages_then_a_trailer_frame(web_server):
    request = StreamingOutputCallRequest(response_parameters=[ResponseParameters(size=s) for s in (1, 2, 3)])
    _, response, raw = post(web_server, "/grpc.testing.TestService/StreamingOutputCall",
                            grpc_frame(request.SerializeToString()), "application/grpc-web")
    assert response.getheader("content-type") == "application/grpc-web+proto"
    parsed = frames(raw)
    assert [len(StreamingOutputCallResponse.FromString(p).payload.body) for f, p in parsed[:-1]] == [1, 2, 3]
    assert parsed[-1][0] == 0x80 and trailer_block(parsed[-1][1])["grpc-status"] == "0"


def test_streaming_requests_are_refused_with_a_clear_status(web_server):
    _, response, _ = post(web_server, "/grpc.testing.TestService/StreamingInputCall", b"", "application/grpc-web+proto")
    assert response.getheader("grpc-status") == str(grpc.StatusCode.UNIMPLEMENTED.value[0])
    assert "gRPC-Web" in response.getheader("grpc-message").replace("%20", " ")


def test_grpc_web_over_http2(web_server):
    conn = rawh2.Connection(web_server.port)
    try:
        stream_id = conn.send_request([
            (":method", "POST"), (":scheme", "http"), (":path", "/grpc.testing.TestService/UnaryCall"),
            (":authority", web_server.address), ("content-type", "application/grpc-web+proto"), ("x-grpc-web", "1"),
        ], grpc_frame(SimpleRequest(response_size=64).SerializeToString()))
        answer = conn.wait(stream_id)
        (_, payload), (flags, trailer) = frames(answer.data)
        assert len(SimpleResponse.FromString(payload).payload.body) == 64
        assert flags == 0x80 and trailer_block(trailer)["grpc-status"] == "0"
        assert not answer.trailers, "gRPC-Web carries its status in the body, not in HTTP trailers"
    finally:
        conn.close()


def test_cors_preflight_and_exposed_status_headers(web_server):
    conn = http.client.HTTPConnection("127.0.0.1", web_server.port, timeout=TIMEOUT)
    conn.request("OPTIONS", "/souk.v1.Catalog/ListProducts", headers={
        "origin": ORIGIN, "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-grpc-web,authorization"})
    preflight = conn.getresponse()
    preflight.read()
    assert preflight.status == 204
    assert preflight.getheader("access-control-allow-origin") == ORIGIN
    assert "authorization" in preflight.getheader("access-control-allow-headers")

    conn.request("OPTIONS", "/souk.v1.Catalog/ListProducts", headers={
        "origin": "https://elsewhere.example", "access-control-request-method": "POST"})
    other = conn.getresponse()
    other.read()
    assert other.status == 403 and other.getheader("access-control-allow-origin") is None

    # The same keep-alive connection then carries a call from the allowed page.
    conn.request("POST", "/grpc.testing.TestService/EmptyCall", body=grpc_frame(b""),
                 headers={"content-type": "application/grpc-web+proto", "origin": ORIGIN})
    call = conn.getresponse()
    raw = call.read()
    assert call.getheader("access-control-allow-origin") == ORIGIN
    assert "grpc-status" in call.getheader("access-control-expose-headers")
    assert trailer_block(frames(raw)[-1][1])["grpc-status"] == "0"
    conn.close()


def test_plain_grpc_still_served_on_the_same_port(api, wine_shop):
    assert api.catalog.ListProducts(pb.ListProductsRequest(marketplace_id=wine_shop), timeout=TIMEOUT).products
    assert interop_stub(api.channel).EmptyCall(Empty(), timeout=TIMEOUT) == Empty()


# ---- Connect unary calls: JSON (and protobuf) over plain HTTP POST ----

from google.protobuf import json_format  # noqa: E402
import json  # noqa: E402


def post_json(server, path, body, headers=None):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    _, response, raw = post(server, path, data, "application/json", headers)
    return response, json.loads(raw) if raw else None


def test_json_answers_the_same_step_as_grpc_and_grpc_web(api, web, web_server, wine_shop):
    request = pb.ListProductsRequest(marketplace_id=wine_shop, page_size=20)
    over_grpc = api.catalog.ListProducts(request, timeout=TIMEOUT)
    response, body = post_json(web_server, "/souk.v1.Catalog/ListProducts", {"marketplaceId": wine_shop, "pageSize": 20})
    assert response.status == 200 and response.getheader("content-type") == "application/json"
    assert json_format.ParseDict(body, pb.ListProductsResponse()) == over_grpc
    assert body == json_format.MessageToDict(over_grpc)
    assert web_unary(web, "/souk.v1.Catalog/ListProducts", request, pb.ListProductsResponse) == over_grpc


def test_json_calls_carry_the_callers_token(api, web_server, wine_shop):
    login = web_server.demo_login("Chateau Du Nox", "customer")
    customer = Party.login(api, wine_shop, login.email, login.password)
    response, me = post_json(web_server, "/souk.v1.Accounts/GetMe", {"marketplaceId": wine_shop},
                             {"authorization": f"Bearer {customer.session.access_token}"})
    assert response.status == 200 and me["email"] == login.email

    response, error = post_json(web_server, "/souk.v1.Accounts/GetMe", {"marketplaceId": wine_shop})
    assert response.status == 401 and error["code"] == "unauthenticated"


def test_json_errors_carry_the_same_details_as_grpc(api, web_server, wine_shop):
    request = pb.ListProductsRequest(marketplace_id=wine_shop, order_by="colour")
    with pytest.raises(grpc.RpcError) as refused:
        api.catalog.ListProducts(request, timeout=TIMEOUT, metadata=(("accept-language", "vi"),))
    grpc_status = Status.FromString(dict(refused.value.trailing_metadata())["grpc-status-details-bin"])

    response, error = post_json(web_server, "/souk.v1.Catalog/ListProducts", {"marketplaceId": wine_shop, "orderBy": "colour"},
                                {"accept-language": "vi"})
    assert response.status == 400
    assert error["code"] == "invalid_argument" and error["message"] == grpc_status.message
    assert [d["type"] for d in error["details"]] == [a.type_url.split("/")[-1] for a in grpc_status.details]
    for detail, packed in zip(error["details"], grpc_status.details):
        assert base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4)) == packed.value
    bad_request = next(d for d in error["details"] if d["type"] == "google.rpc.BadRequest")
    assert bad_request["debug"]["fieldViolations"][0]["field"] == "order_by"


def test_json_that_does_not_fit_the_request_names_the_field(web_server, wine_shop):
    response, error = post_json(web_server, "/souk.v1.Catalog/ListProducts", {"marketplaceId": wine_shop, "pageSize": "many"})
    assert response.status == 400 and error["code"] == "invalid_argument"
    violation = next(d for d in error["details"] if d["type"] == "google.rpc.BadRequest")["debug"]["fieldViolations"][0]
    assert violation["field"] == "page_size"

    response, error = post_json(web_server, "/souk.v1.Catalog/ListProducts", b"{not json")
    assert response.status == 400 and error["code"] == "invalid_argument"


def test_json_reaches_unary_methods_only(web_server):
    response, error = post_json(web_server, "/grpc.testing.TestService/StreamingOutputCall", {})
    assert response.status == 501 and error["code"] == "unimplemented"
    response, error = post_json(web_server, "/souk.v1.Nowhere/Nothing", {})
    assert response.status == 501 and error["code"] == "unimplemented"


def test_connect_protobuf_bodies(web_server):
    _, response, raw = post(web_server, "/grpc.testing.TestService/UnaryCall",
                            SimpleRequest(response_size=12).SerializeToString(), "application/proto")
    assert response.status == 200 and response.getheader("content-type") == "application/proto"
    assert len(SimpleResponse.FromString(raw).payload.body) == 12


# ---- gRPC-Web with JSON messages (what a page without a protobuf library sends) ----

def json_frame(message: dict) -> bytes:
    return grpc_frame(json.dumps(message).encode())


def test_grpc_web_json_unary_answers_as_grpc_does(api, web_server, wine_shop):
    over_grpc = api.catalog.ListProducts(pb.ListProductsRequest(marketplace_id=wine_shop, page_size=5), timeout=TIMEOUT)
    _, response, raw = post(web_server, "/souk.v1.Catalog/ListProducts", json_frame({"marketplaceId": wine_shop, "pageSize": 5}),
                            "application/grpc-web+json", {"origin": ORIGIN})
    assert response.status == 200 and response.getheader("content-type") == "application/grpc-web+json"
    assert response.getheader("access-control-allow-origin") == ORIGIN
    (flags, payload), (trailer_flags, trailer) = frames(raw)
    assert flags == 0 and json.loads(payload) == json_format.MessageToDict(over_grpc)
    assert trailer_flags == 0x80 and trailer_block(trailer)["grpc-status"] == "0"


def test_grpc_web_json_streams_json_messages(web_server):
    request = {"responseParameters": [{"size": 3}, {"size": 4}]}
    _, _, raw = post(web_server, "/grpc.testing.TestService/StreamingOutputCall", json_frame(request), "application/grpc-web+json")
    parsed = frames(raw)
    bodies = [base64.b64decode(json.loads(p)["payload"]["body"]) for _, p in parsed[:-1]]
    assert [len(b) for b in bodies] == [3, 4]
    assert trailer_block(parsed[-1][1])["grpc-status"] == "0"


def test_grpc_web_json_that_does_not_fit_names_the_field(web_server, wine_shop):
    _, response, raw = post(web_server, "/souk.v1.Catalog/ListProducts", json_frame({"marketplaceId": wine_shop, "pageSize": "x"}),
                            "application/grpc-web+json")
    status = response.getheader("grpc-status") or trailer_block(frames(raw)[-1][1])["grpc-status"]
    assert int(status) == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    details = response.getheader("grpc-status-details-bin")
    status_proto = Status.FromString(base64.b64decode(details + "=" * (-len(details) % 4)))
    bad_request = message("google.rpc.BadRequest")()
    assert any(d.Unpack(bad_request) for d in status_proto.details)
    assert bad_request.field_violations[0].field == "page_size"


def test_json_deadlines_come_from_connect_timeout_ms(web_server, wine_shop):
    body = {"marketplaceId": wine_shop, "pageSize": 1}
    response, answer = post_json(web_server, "/souk.v1.Catalog/ListProducts", body, {"connect-timeout-ms": "30000000000"[:10]})
    assert response.status == 200 and answer["products"]
    response, error = post_json(web_server, "/souk.v1.Catalog/ListProducts", body, {"connect-timeout-ms": "soon"})
    assert response.status == 400 and error["code"] == "invalid_argument"
    violation = next(d for d in error["details"] if d["type"] == "google.rpc.BadRequest")["debug"]["fieldViolations"][0]
    assert violation["field"] == "connect-timeout-ms"
