#!/usr/bin/env python3
"""Gatehouse's Google stand-in, for the tests of the Google Play store: the OAuth 2.0 token
endpoint a service account's JWT bearer grant goes to (RFC 7523, as Google runs it at
https://oauth2.googleapis.com/token), and the purchases part of the Play Developer API
(androidpublisher v3: subscriptionsv2.get, products.get, and the acknowledge and consume calls),
and Google's certificate endpoint (https://www.googleapis.com/oauth2/v1/certs) whose keys sign
the OpenID Connect tokens of Pub/Sub pushes, which google-auth mints here (POST /_control/push-token).

Started by the tests (Tests/GatehouseTesting/GoogleStandIn.swift) as `python3 standin.py --port 0`;
it prints one line `PORT <n>` on stdout once it listens on 127.0.0.1 and serves until SIGTERM.
Needs google-auth (pip: google-auth==2.63.0), google-api-python-client (2.202.0) and Flask.

The assertion is checked by google-auth's own `jwt.decode` (signature by `kid`, `aud`, `iat`,
`exp`), against the public keys a test registers with POST /_control/accounts
({client_email: {kid, publicKeyPEM}}). The API answers only the access tokens it issued, from
purchases a test registers with POST /_control/purchases; each is checked first against the
schema of the Play API's own discovery document (as google-api-python-client ships it), so the
fixtures are Google's shapes, not ours: a field Google does not define, a value outside an enum
or of the wrong type is refused with the problems listed. /_control/* also makes endpoints fail
and reads what the stand-in saw. Tokens never reach stderr.
"""
import argparse
import datetime
import json
import logging
import os
import secrets
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture_serve import load_own_private_key, serve  # noqa: E402 (the shared start-up, beside this folder)

signal.pthread_sigmask(signal.SIG_SETMASK, [])

try:
    from flask import Flask, Response, request
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID
    from google.auth import crypt as google_crypt
    from google.auth import exceptions as google_exceptions
    from google.auth import jwt as google_jwt
    from googleapiclient.discovery_cache import get_static_doc
    from werkzeug.serving import WSGIRequestHandler
except ImportError as missing:
    sys.stderr.write(f"standin.py: {missing}; install with: python3 -m pip install google-auth==2.63.0 google-api-python-client==2.202.0 flask\n")
    sys.exit(3)

log = logging.getLogger("google")
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
# google-auth keeps Google's own token URL as the audience whatever token_uri says.
AUDIENCE = "https://oauth2.googleapis.com/token"
SCOPE = "https://www.googleapis.com/auth/androidpublisher"
LOCK = threading.RLock()
ACCOUNTS, LOG, ISSUED = {}, [], set()
SUBSCRIPTIONS, PRODUCTS = {}, {}
VOIDED = {}  # package -> [VoidedPurchase], in the order Google saw them voided
CONTROL = {"tokenStatus": None, "expiresIn": 3599, "apiStatus": None, "settleStatus": None}
PUSH_KEYS = {}  # kid -> (private key PEM, certificate PEM), the newest last
DISCOVERY = json.loads(get_static_doc("androidpublisher", "v3"))
SCHEMAS = DISCOVERY["schemas"]
app = Flask(__name__)


def answer(status, body):
    return Response(json.dumps(body), status=status, mimetype="application/json")


def record(entry):
    with LOCK:
        LOG.append(entry)


@app.post("/token")
def token():
    entry = {"path": "/token", "grantType": request.form.get("grant_type")}
    with LOCK:
        forced = CONTROL["tokenStatus"]
        expires_in = CONTROL["expiresIn"]
    if forced:
        entry["status"] = forced
        record(entry)
        return answer(forced, {"error": "internal_failure"})
    if request.content_type != "application/x-www-form-urlencoded" or entry["grantType"] != GRANT:
        entry["status"] = 400
        record(entry)
        return answer(400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type"})
    assertion = request.form.get("assertion", "")
    try:
        header = google_jwt.decode_header(assertion)
        unverified = google_jwt.decode(assertion, verify=False)
        entry.update(kid=header.get("kid"), alg=header.get("alg"), iss=unverified.get("iss"), scope=unverified.get("scope"))
        with LOCK:
            account = ACCOUNTS.get(unverified.get("iss"))
        if account is None:
            raise ValueError("unknown service account")
        claims = google_jwt.decode(assertion, certs={account["kid"]: account["publicKeyPEM"]}, audience=AUDIENCE)
        if header.get("alg") != "RS256" or claims.get("scope") != SCOPE:
            raise ValueError("wrong algorithm or scope")
        entry["lifetime"] = claims["exp"] - claims["iat"]
    except (ValueError, google_exceptions.GoogleAuthError) as error:
        entry.update(status=400, error=str(error))
        record(entry)
        return answer(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
    entry["status"] = 200
    record(entry)
    issued = "ya29." + secrets.token_urlsafe(32)
    with LOCK:
        ISSUED.add(issued)
    return answer(200, {"access_token": issued, "expires_in": expires_in, "token_type": "Bearer"})


def problems(value, schema, where="$"):
    """What in `value` the discovery `schema` does not allow (google-datetime and int64 are
    strings, as Google's JSON writes them)."""
    if "$ref" in schema:
        return problems(value, SCHEMAS[schema["$ref"]], where)
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        known = schema.get("properties")
        found = []
        for key, member in value.items():
            if known is not None and key not in known:
                found.append(f"{where}.{key}: not in the schema")
            elif known is not None:
                found += problems(member, known[key], f"{where}.{key}")
            elif "additionalProperties" in schema:
                found += problems(member, schema["additionalProperties"], f"{where}.{key}")
        return found
    if kind == "array":
        if not isinstance(value, list):
            return [f"{where}: not an array"]
        return [p for index, item in enumerate(value) for p in problems(item, schema["items"], f"{where}[{index}]")]
    if kind == "string":
        if not isinstance(value, str):
            return [f"{where}: not a string"]
        if "enum" in schema and value not in schema["enum"]:
            return [f"{where}: {value!r} is not one of the enum"]
        if schema.get("format") == "int64" and not value.lstrip("-").isdigit():
            return [f"{where}: not an int64 string"]
        return []
    if kind == "integer":
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: not an integer"]
    if kind == "boolean":
        return [] if isinstance(value, bool) else [f"{where}: not a boolean"]
    if kind == "number":
        return [] if isinstance(value, (int, float)) and not isinstance(value, bool) else [f"{where}: not a number"]
    return []


def premade_push_keys():
    """The keys made once with `openssl genpkey` beside this file: generating a 2048-bit key at
    every start cost each test that starts the stand-in most of a second of CPU."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "push-keys.pem")
    with open(path, "rb") as pem:
        blocks = pem.read().split(b"-----END PRIVATE KEY-----")
    return [block + b"-----END PRIVATE KEY-----\n" for block in blocks if b"BEGIN PRIVATE KEY" in block]


PREMADE_PUSH_KEYS = premade_push_keys()


def new_push_key():
    """A signing key not used before by this stand-in (one made ahead while they last) and a
    self-signed certificate for it, as Google publishes them."""
    with LOCK:
        pem = PREMADE_PUSH_KEYS.pop(0) if PREMADE_PUSH_KEYS else None
    key = load_own_private_key(pem) if pem else rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "federated-signon.system.gserviceaccount.com")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=14)).sign(key, hashes.SHA256()))
    kid = secrets.token_hex(20)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    with LOCK:
        PUSH_KEYS[kid] = (private, certificate.public_bytes(serialization.Encoding.PEM).decode())
    return kid


@app.get("/oauth2/v1/certs")
def certificates():
    record({"path": "/oauth2/v1/certs", "status": 200})
    with LOCK:
        body = {kid: pair[1] for kid, pair in PUSH_KEYS.items()}
        max_age = CONTROL.get("certsMaxAge", 3600)
    response = answer(200, body)
    response.headers["Cache-Control"] = f"public, max-age={max_age}, must-revalidate, no-transform"
    return response


@app.post("/_control/push-token")
def push_token():
    """A push token as Pub/Sub sends it, minted by google-auth with the newest push key:
    {"claims": {...}} are merged over Google's (iss, aud, email, email_verified, iat, exp, sub)."""
    given = request.get_json()
    with LOCK:
        kid, (private, _) = list(PUSH_KEYS.items())[-1]
    now = int(time.time())
    claims = {"iss": "https://accounts.google.com", "aud": given.get("audience"), "email": given.get("email"),
              "email_verified": True, "iat": now, "exp": now + 3600, "sub": "112233445566778899000", "azp": "112233445566778899000"}
    claims.update(given.get("claims", {}))
    claims = {k: v for k, v in claims.items() if v is not None}
    signer = google_crypt.RSASigner.from_string(private, key_id=kid)
    token = google_jwt.encode(signer, claims)
    return answer(200, {"token": token.decode() if isinstance(token, bytes) else token, "kid": kid})


@app.post("/_control/rotate-push-key")
def rotate_push_key():
    return answer(200, {"kid": new_push_key()})


API = "/androidpublisher/v3/applications/<package>/purchases/<path:rest>"


@app.route(API, methods=["GET", "POST"])
def play_api(package, rest):
    entry = {"path": request.path, "method": request.method, "package": package}
    bearer = request.headers.get("Authorization", "")
    with LOCK:
        authorized = bearer.startswith("Bearer ") and bearer[7:] in ISSUED
        forced = CONTROL["apiStatus"]
    if not authorized:
        entry["status"] = 401
        record(entry)
        return answer(401, {"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}})
    if forced:
        entry["status"] = forced
        record(entry)
        return answer(forced, {"error": {"code": forced, "message": "Backend Error", "status": "UNAVAILABLE"}})
    if rest == "voidedpurchases" and request.method == "GET":
        return voided_list(package, entry)
    parts = rest.split("/")
    verb = None
    if ":" in parts[-1]:
        parts[-1], verb = parts[-1].split(":", 1)
    entry["verb"] = verb
    with LOCK:
        settle_forced = CONTROL["settleStatus"]
    if verb is not None and settle_forced:
        entry["status"] = settle_forced
        record(entry)
        return answer(settle_forced, {"error": {"code": settle_forced, "message": "Backend Error", "status": "UNAVAILABLE"}})
    status, body = 404, {"error": {"code": 404, "message": "The purchase token was not found.", "status": "NOT_FOUND"}}
    with LOCK:
        if request.method == "GET" and len(parts) == 3 and parts[:2] == ["subscriptionsv2", "tokens"] and verb is None:
            found = SUBSCRIPTIONS.get((package, parts[2]))
            if found is not None:
                status, body = 200, found
        elif request.method == "GET" and len(parts) == 4 and parts[0] == "products" and parts[2] == "tokens" and verb is None:
            found = PRODUCTS.get((package, parts[1], parts[3]))
            if found is not None:
                status, body = 200, found
        elif request.method == "POST" and len(parts) == 4 and parts[0] == "subscriptions" and parts[2] == "tokens" and verb == "acknowledge":
            found = SUBSCRIPTIONS.get((package, parts[3]))
            if found is not None:
                found["acknowledgementState"] = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
                found.pop("outOfAppPurchaseContext", None)
                status, body = 204, None
        elif request.method == "POST" and len(parts) == 4 and parts[0] == "products" and parts[2] == "tokens" and verb in ("acknowledge", "consume"):
            found = PRODUCTS.get((package, parts[1], parts[3]))
            if found is not None:
                found["acknowledgementState"] = 1
                if verb == "consume":
                    found["consumptionState"] = 1
                status, body = 204, None
    entry["status"] = status
    record(entry)
    return Response(status=204) if body is None else answer(status, body)


def voided_list(package, entry):
    """purchases.voidedpurchases.list: the package's voided purchases seen since startTime (ms),
    `maxResults` a page (token pagination), `type` 0 one-time only (the default) or 1 with subscriptions."""
    args = request.args
    entry["query"] = dict(args)
    start = int(args.get("startTime", "0"))
    kinds = (0,) if args.get("type", "0") == "0" else (0, 1)
    size = int(args.get("maxResults", "1000"))
    offset = int(args.get("token", "0") or "0")
    with LOCK:
        seen = [item for item, kind in VOIDED.get(package, []) if int(item["voidedTimeMillis"]) >= start and kind in kinds]
    page = seen[offset:offset + size]
    body = {"voidedPurchases": page}
    if offset + size < len(seen):
        body["tokenPagination"] = {"nextPageToken": str(offset + size)}
    entry["status"] = 200
    record(entry)
    return answer(200, body)


@app.post("/_control/voided")
def add_voided():
    """{"package": name, "voided": [{"purchase": VoidedPurchase, "subscription": bool}]}"""
    given = request.get_json()
    found = []
    for index, item in enumerate(given.get("voided", [])):
        found += problems(item["purchase"], {"$ref": "VoidedPurchase"}, f"voided[{index}]")
    if found:
        return answer(400, {"problems": found})
    with LOCK:
        for item in given.get("voided", []):
            VOIDED.setdefault(given["package"], []).append((item["purchase"], 1 if item.get("subscription") else 0))
    return answer(200, {})


@app.post("/_control/purchases")
def add_purchases():
    """{"package": name, "subscriptions": {token: SubscriptionPurchaseV2},
    "products": [{"productId", "token", "purchase": ProductPurchase}]}"""
    given = request.get_json()
    package = given["package"]
    found = []
    for token, purchase in given.get("subscriptions", {}).items():
        found += problems(purchase, {"$ref": "SubscriptionPurchaseV2"}, f"subscriptions[{token}]")
    for item in given.get("products", []):
        found += problems(item["purchase"], {"$ref": "ProductPurchase"}, f"products[{item['token']}]")
    if found:
        return answer(400, {"problems": found})
    with LOCK:
        for token, purchase in given.get("subscriptions", {}).items():
            SUBSCRIPTIONS[(package, token)] = purchase
        for item in given.get("products", []):
            PRODUCTS[(package, item["productId"], item["token"])] = item["purchase"]
    return answer(200, {})


@app.get("/_control/purchase")
def read_purchase():
    """What the API would answer now for ?package=&token= (and &productId= for a product)."""
    with LOCK:
        if request.args.get("productId"):
            found = PRODUCTS.get((request.args["package"], request.args["productId"], request.args["token"]))
        else:
            found = SUBSCRIPTIONS.get((request.args["package"], request.args["token"]))
        return answer(200 if found is not None else 404, found or {})


@app.post("/_control/accounts")
def add_accounts():
    with LOCK:
        ACCOUNTS.update(request.get_json())
    return answer(200, {})


@app.post("/_control/revoke-tokens")
def revoke_tokens():
    with LOCK:
        ISSUED.clear()
    return answer(200, {})


@app.post("/_control/configure")
def configure():
    with LOCK:
        CONTROL.update(request.get_json())
    return answer(200, {})


@app.get("/_control/log")
def read_log():
    with LOCK:
        return answer(200, LOG)


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):
        pass


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    new_push_key()
    serve(app, arguments.port, QuietHandler, log)
