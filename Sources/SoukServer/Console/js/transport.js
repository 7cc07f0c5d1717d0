// The one place the console speaks to Souk: gRPC-Web with JSON messages
// (application/grpc-web+json) on the server's own origin. Each message is a gRPC-Web frame
// (flag byte, 4-byte big-endian length, proto3 JSON); the status comes in a trailer frame
// (flag 0x80), or in the response headers of a Trailers-Only answer.

const CODES = [
  "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
  "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
];

/** A call that ended with a status other than OK, with what google.rpc.Status carried. */
export class RpcError extends Error {
  constructor(code, message, details = {}) {
    super(details.localizedMessage || message || CODES[code] || `status ${code}`);
    this.code = code;
    this.codeName = CODES[code] || String(code);
    this.grpcMessage = message;
    this.reason = details.reason || "";
    this.fieldViolations = details.fieldViolations || [];
    this.localizedMessage = details.localizedMessage || "";
  }
}

function encodeFrame(message) {
  const json = new TextEncoder().encode(JSON.stringify(message));
  const frame = new Uint8Array(5 + json.length);
  new DataView(frame.buffer).setUint32(1, json.length);
  frame.set(json, 5);
  return frame;
}

/** The frames of a response body as they arrive: {flags, payload}. */
async function* readFrames(body) {
  const reader = body.getReader();
  let buffer = new Uint8Array(0);
  for (;;) {
    while (buffer.length >= 5) {
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
      if (buffer.length < 5 + length) break;
      yield { flags: buffer[0], payload: buffer.slice(5, 5 + length) };
      buffer = buffer.slice(5 + length);
    }
    const { done, value } = await reader.read();
    if (done) {
      if (buffer.length) throw new RpcError(13, "the response ended inside a frame");
      return;
    }
    const joined = new Uint8Array(buffer.length + value.length);
    joined.set(buffer);
    joined.set(value, buffer.length);
    buffer = joined;
  }
}

function parseTrailerBlock(bytes) {
  const fields = {};
  for (const line of new TextDecoder().decode(bytes).split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) fields[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return fields;
}

// ---- google.rpc.Status from grpc-status-details-bin: a few protobuf fields read by hand ----

function readVarint(bytes, at) {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at.i++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return value;
}

/** field number → list of raw values (numbers for varints, byte arrays for length-delimited). */
function protoFields(bytes) {
  const fields = {};
  const at = { i: 0 };
  while (at.i < bytes.length) {
    const key = readVarint(bytes, at);
    const number = Math.floor(key / 8), type = key & 7;
    let value;
    if (type === 0) value = readVarint(bytes, at);
    else if (type === 2) {
      const length = readVarint(bytes, at);
      value = bytes.subarray(at.i, at.i + length);
      at.i += length;
    } else if (type === 1) { value = null; at.i += 8; }
    else if (type === 5) { value = null; at.i += 4; }
    else break;
    (fields[number] ||= []).push(value);
  }
  return fields;
}

const text = (bytes) => (bytes ? new TextDecoder().decode(bytes) : "");

function base64Bytes(value) {
  const padded = value.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (value.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** ErrorInfo.reason, BadRequest's violations and LocalizedMessage.message of a Status. */
export function statusDetails(base64) {
  const details = {};
  if (!base64) return details;
  try {
    for (const any of protoFields(base64Bytes(base64))[3] || []) {
      const anyFields = protoFields(any);
      const type = text(anyFields[1]?.[0]);
      const value = protoFields(anyFields[2]?.[0] || new Uint8Array(0));
      if (type.endsWith("google.rpc.ErrorInfo")) details.reason = text(value[1]?.[0]);
      else if (type.endsWith("google.rpc.LocalizedMessage")) details.localizedMessage = text(value[2]?.[0]);
      else if (type.endsWith("google.rpc.BadRequest")) {
        details.fieldViolations = (value[1] || []).map((v) => {
          const f = protoFields(v);
          return { field: text(f[1]?.[0]), description: text(f[2]?.[0]) };
        });
      }
    }
  } catch { /* details that do not parse leave the status's own message */ }
  return details;
}

function statusError(fields) {
  const code = Number(fields["grpc-status"]);
  let message = fields["grpc-message"] || "";
  try { message = decodeURIComponent(message); } catch { /* kept as sent */ }
  return new RpcError(code, message, statusDetails(fields["grpc-status-details-bin"]));
}

function headerFields(headers) {
  const fields = {};
  for (const name of ["grpc-status", "grpc-message", "grpc-status-details-bin"]) {
    const value = headers.get(name);
    if (value !== null) fields[name] = value;
  }
  return fields;
}

/**
 * Calls `method` ("souk.v1.Accounts/Login") with `request` (a proto3 JSON object) and hands
 * each response message to `onMessage`; resolves when the call ends OK, rejects with RpcError.
 */
export async function callStream(method, request, { metadata = {}, signal, onMessage, onHeaders }) {
  let response;
  try {
    response = await fetch(`/${method}`, {
      method: "POST",
      headers: {
        "content-type": "application/grpc-web+json",
        accept: "application/grpc-web+json",
        "x-grpc-web": "1",
        ...metadata,
      },
      body: encodeFrame(request),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new RpcError(14, `the server cannot be reached: ${error.message}`);
  }
  const headerStatus = headerFields(response.headers);
  if (headerStatus["grpc-status"] !== undefined) {
    // Trailers-Only: the status is in the headers and the body is empty.
    if (headerStatus["grpc-status"] !== "0") throw statusError(headerStatus);
    return;
  }
  if (!response.ok) throw new RpcError(14, `HTTP ${response.status}`);
  onHeaders?.();
  for await (const frame of readFrames(response.body)) {
    if (frame.flags & 0x80) {
      const trailers = parseTrailerBlock(frame.payload);
      if (trailers["grpc-status"] !== "0") throw statusError(trailers);
      return;
    }
    onMessage(JSON.parse(new TextDecoder().decode(frame.payload)));
  }
  throw new RpcError(13, "the response ended without a status");
}

/** A unary call: resolves with the response message (proto3 JSON). */
export async function call(method, request, options = {}) {
  let message = {};
  await callStream(method, request, { ...options, onMessage: (m) => { message = m; } });
  return message;
}
