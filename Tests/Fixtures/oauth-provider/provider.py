#!/usr/bin/env python3
"""Gatehouse OAuth test provider: a real OAuth 2.0 authorization server and the protected
"third-party API" behind it, for the end-to-end tests.

Started by the tests (Tests/GatehouseTesting/OAuthTestProvider.swift) as
`python3 provider.py --port 0 ...`; it prints one line `PORT <n>` on stdout once it listens on
127.0.0.1 and serves until SIGTERM. Needs Flask and Authlib (pip: authlib==1.6.5).

The OAuth parts are Authlib's own server grants: authorization code with PKCE (S256 only),
refresh token with rotation and reuse detection (RFC 9700 §4.14.2), client credentials.
/control/* lets a test change the clock-like knobs and read what the server saw. Everything
lives in memory under one lock. Logs go to stderr and never carry tokens, secrets or codes.
"""
import argparse
import hmac
import html
import itertools
import json
import logging
import os
import re
import secrets
import signal
import sys
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture_serve import serve  # noqa: E402 (the shared start-up, beside this folder)

# posix_spawn hands down the test runner's signal mask (SIGTERM blocked); clear it before any
# thread starts so stop() ends the server at once.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
# Loopback only: let Authlib accept plain http whatever Host a caller sends.
os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")

try:
    from authlib.common.urls import add_params_to_uri
    from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector
    from authlib.oauth2 import OAuth2Error
    from authlib.oauth2.rfc6749 import ClientMixin, InvalidRequestError, InvalidScopeError, TokenMixin, grants
    from authlib.oauth2.rfc6749.util import scope_to_list
    from authlib.oauth2.rfc6750 import BearerTokenGenerator, BearerTokenValidator, InsufficientScopeError
    from authlib.oauth2.rfc7636 import CodeChallenge
    from flask import Flask, Response, redirect, request
    from werkzeug.serving import WSGIRequestHandler
except ImportError as missing:
    sys.stderr.write(f"provider.py: {missing}; install with: python3 -m pip install authlib==1.6.5 flask\n")
    sys.exit(3)

log = logging.getLogger("provider")
CODE_LIFETIME = 60
ANY_METHOD = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
LOOPBACK_CALLBACK = "http://127.0.0.1/callback"  # any port (RFC 8252 §7.3)

# ---------------------------------------------------------------- state and models

class State:
    def __init__(self, ttl):
        self.lock = threading.RLock()
        self.ttl = ttl
        self.token_delay = 0.0
        self.fail_api = 0
        self.codes = {}      # code -> AuthorizationCode (kept once used, to detect reuse)
        self.access = {}     # access token -> Token
        self.refresh = {}    # refresh token -> Token
        self.consents = {}   # client_id -> {"sub": str, "scopes": set}
        self.families = itertools.count(1)
        self.reset_stats()

    def reset_stats(self):
        self.stats = {
            "authorize_requests": 0, "forced_prompts": 0,
            "token_requests": {"authorization_code": 0, "refresh_token": 0, "client_credentials": 0},
            "api_requests": 0, "api_rejections": 0, "last_api_request": None,
        }

    def bump(self, key):
        with self.lock:
            self.stats[key] += 1

    def revoke_family(self, family):
        with self.lock:
            for token in self.access.values():
                if token.family == family:
                    token.revoked = token.refresh_revoked = True

@dataclass
class User:
    sub: str

    def get_user_id(self): return self.sub

class Client(ClientMixin):
    def __init__(self, client_id, secret, grant_types, scopes, auth_methods, redirect_uris=()):
        self.client_id, self.secret = client_id, secret
        self.grant_types, self.scopes = set(grant_types), set(scopes)
        self.auth_methods, self.redirect_uris = set(auth_methods), list(redirect_uris)

    def get_client_id(self): return self.client_id
    def get_default_redirect_uri(self): return None  # redirect_uri is always required
    def check_grant_type(self, grant_type): return grant_type in self.grant_types
    def check_response_type(self, kind): return kind == "code" and "authorization_code" in self.grant_types
    def check_endpoint_auth_method(self, method, endpoint): return endpoint != "token" or method in self.auth_methods

    def get_allowed_scope(self, scope):
        return " ".join(s for s in scope_to_list(scope) or [] if s in self.scopes)

    def check_client_secret(self, secret):
        return self.secret is not None and hmac.compare_digest(self.secret.encode(), secret.encode())

    def check_redirect_uri(self, redirect_uri):
        if redirect_uri in self.redirect_uris:
            return True
        return LOOPBACK_CALLBACK in self.redirect_uris and is_loopback_callback(redirect_uri)

def is_loopback_callback(uri):
    """http://127.0.0.1:<any port>/callback: everything but the port must match."""
    try:
        parts = urlsplit(uri)
        parts.port  # raises on a malformed port
    except ValueError:
        return False
    host, _, port = parts.netloc.partition(":")
    return (parts.scheme == "http" and host == "127.0.0.1" and (port == "" or port.isdigit())
            and parts.path == "/callback" and not parts.query and not parts.fragment)

class AuthorizationCode:
    def __init__(self, code, client_id, redirect_uri, scope, sub, challenge, method, family):
        self.code, self.client_id, self.redirect_uri, self.scope, self.sub = code, client_id, redirect_uri, scope, sub
        self.code_challenge, self.code_challenge_method = challenge, method
        self.family = family
        self.expires_at = time.time() + CODE_LIFETIME
        self.used = False

    def get_redirect_uri(self): return self.redirect_uri
    def get_scope(self): return self.scope

class Token(TokenMixin):
    def __init__(self, fields, client_id, sub, family):
        self.access_token = fields["access_token"]
        self.refresh_token = fields.get("refresh_token")
        self.scope = fields.get("scope") or None
        self.expires_in = fields["expires_in"]
        self.expires_at = time.time() + self.expires_in
        self.client_id, self.sub, self.family = client_id, sub, family
        self.revoked = self.refresh_revoked = self.rotated = False

    def check_client(self, client): return self.client_id == client.client_id
    def get_scope(self): return self.scope
    def get_expires_in(self): return self.expires_in
    def is_expired(self): return time.time() >= self.expires_at
    def is_revoked(self): return self.revoked

# ---------------------------------------------------------------- grants

class ClientScopes:
    """Scopes outside the client's own set are invalid_scope (Authlib only checks the server's)."""

    def validate_requested_scope(self):
        requested = set(scope_to_list(self.request.payload.scope) or [])
        if not requested <= self.request.client.scopes:
            raise InvalidScopeError()
        super().validate_requested_scope()

class AuthorizationCodeGrant(ClientScopes, grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

    def save_authorization_code(self, code, req):
        data = req.payload.data
        item = AuthorizationCode(code, req.client.client_id, req.payload.redirect_uri, req.payload.scope,
                                 req.user.sub, data.get("code_challenge"), data.get("code_challenge_method"),
                                 next(STATE.families))
        with STATE.lock:
            STATE.codes[code] = item

    def query_authorization_code(self, code, client):
        with STATE.lock:
            item = STATE.codes.get(code)
            if item is None or item.client_id != client.client_id:
                return None
            if item.used:  # RFC 6749 §4.1.2: a reused code revokes what it issued
                log.warning("authorization code reused; its tokens are revoked")
                STATE.revoke_family(item.family)
                return None
            return item if time.time() < item.expires_at else None

    def delete_authorization_code(self, item):
        item.used = True

    def authenticate_user(self, item):
        return User(item.sub)

class RefreshTokenGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token):
        with STATE.lock:
            token = STATE.refresh.get(refresh_token)
            if token is not None and token.refresh_revoked:
                if token.rotated:  # reuse of a rotated token: assume it leaked (RFC 9700 §4.14.2)
                    log.warning("rotated refresh token presented again; its whole family is revoked")
                    STATE.revoke_family(token.family)
                return None
            return token

    def authenticate_user(self, token):
        return User(token.sub)

    def revoke_old_credential(self, token):
        token.refresh_revoked = token.rotated = True

class ClientCredentialsGrant(ClientScopes, grants.ClientCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

class StrictS256(CodeChallenge):
    """PKCE S256 on every authorization request: Authlib's required=True only insists on a
    verifier at the token endpoint, and lets a request without a challenge (or with plain) through."""
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]
    DEFAULT_CODE_CHALLENGE_METHOD = "S256"

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("Missing 'code_challenge'")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("'code_challenge_method' must be S256")
        super().validate_code_challenge(grant, redirect_uri)

def save_token(fields, req):
    if req.authorization_code is not None:
        family = req.authorization_code.family
    elif req.refresh_token is not None:
        family = req.refresh_token.family
    else:
        family = next(STATE.families)
    token = Token(fields, req.client.client_id, req.user.sub if req.user else None, family)
    with STATE.lock:
        STATE.access[token.access_token] = token
        if token.refresh_token:
            STATE.refresh[token.refresh_token] = token

def generate_token(grant_type, client, user=None, scope=None, expires_in=None, include_refresh_token=True):
    ttl = STATE.ttl
    fields = BEARER(grant_type, client, user, scope, ttl, include_refresh_token)
    fields["expires_in"] = ttl  # BearerTokenGenerator leaves expires_in out when it is 0
    return fields

class Validator(BearerTokenValidator):
    def authenticate_token(self, token_string):
        return STATE.access.get(token_string)

# ---------------------------------------------------------------- app

app = Flask(__name__, static_folder=None)  # /static/ is ours, not Flask's
app.config["OAUTH2_SCOPES_SUPPORTED"] = ["read", "write", "admin"]
server = AuthorizationServer(app, query_client=lambda client_id: CLIENTS.get(client_id), save_token=save_token)
server.register_token_generator("default", generate_token)
server.register_grant(AuthorizationCodeGrant, [StrictS256(required=True)])
server.register_grant(RefreshTokenGrant)
server.register_grant(ClientCredentialsGrant)
protector = ResourceProtector()
protector.register_token_validator(Validator())
BEARER = BearerTokenGenerator(lambda **_: secrets.token_urlsafe(32), lambda **_: secrets.token_urlsafe(48))
STATE = State(3600)
CLIENTS = {}
CONFIG = argparse.Namespace()

def json_response(body, status=200, headers=None):
    return Response(json.dumps(body), status=status, headers=headers or {}, mimetype="application/json")

def scopes_of(text):
    return set(scope_to_list(text) or [])

@app.get("/oauth/authorize")
def authorize_page():
    STATE.bump("authorize_requests")
    try:
        grant = server.get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return server.handle_error_response(None, error)
    if "none" in (request.args.get("prompt") or "").split():
        with STATE.lock:
            consent = STATE.consents.get(request.args["client_id"])
            covered = consent and scopes_of(request.args.get("scope")) <= consent["scopes"]
            user = User(consent["sub"]) if covered else None
        if user is None:
            params = [("error", "interaction_required")]
            if request.args.get("state"):
                params.append(("state", request.args["state"]))
            return redirect(add_params_to_uri(grant.redirect_uri, params), 302)
        return server.create_authorization_response(grant=grant, grant_user=user)
    fields = "\n".join(
        f'<input type="hidden" name="{html.escape(key)}" value="{html.escape(value)}">'
        for key, values in request.args.lists() for value in values)
    page = f"""<!doctype html>
<html><head><title>Authorize {html.escape(request.args.get("client_id", ""))}</title></head><body>
<h1>Allow {html.escape(request.args.get("client_id", ""))} to use: {html.escape(request.args.get("scope", ""))}?</h1>
<form method="post" action="/oauth/authorize">
{fields}
<label>User <input type="text" name="sub" value="user-1"></label>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>
"""
    return Response(page, mimetype="text/html")

@app.post("/oauth/authorize")
def authorize_decision():
    if {"login", "consent"} & set((request.values.get("prompt") or "").split()):
        STATE.bump("forced_prompts")
    try:
        grant = server.get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return server.handle_error_response(None, error)
    if request.form.get("decision") != "approve":
        return server.create_authorization_response(grant=grant, grant_user=None)
    user = User(request.form.get("sub") or "user-1")
    response = server.create_authorization_response(grant=grant, grant_user=user)
    if response.status_code == 302 and "code=" in response.headers.get("Location", ""):
        with STATE.lock:
            client_id = request.values["client_id"]
            consent = STATE.consents.get(client_id)
            scopes = scopes_of(request.values.get("scope"))
            if consent and consent["sub"] == user.sub:
                consent["scopes"] |= scopes
            else:
                STATE.consents[client_id] = {"sub": user.sub, "scopes": scopes}
    return response

@app.post("/oauth/token")
def token_endpoint():
    grant_type = request.form.get("grant_type", "")
    with STATE.lock:
        counts = STATE.stats["token_requests"]
        counts[grant_type] = counts.get(grant_type, 0) + 1
        delay = STATE.token_delay
    if delay > 0:
        time.sleep(delay)
    with STATE.lock:  # validate and issue as one step: two racing refreshes cannot both win
        return server.create_token_response()

# ---------------------------------------------------------------- control (tests only)

def number(name):
    value = (request.get_json(force=True, silent=True) or {}).get(name)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise ValueError(f"'{name}' must be a number >= 0")
    return value

def set_knob(attribute, name, kind):
    value = kind(number(name))
    setattr(STATE, attribute, value)
    return {name: value}

def expire_all():
    now = time.time()
    for token in STATE.access.values():
        token.expires_at = min(token.expires_at, now)

def revoke_all():
    for token in STATE.access.values():
        token.revoked = token.refresh_revoked = True
    STATE.consents.clear()
    STATE.codes.clear()

CONTROLS = {
    "reset-stats": STATE.reset_stats,
    "access-ttl": lambda: set_knob("ttl", "seconds", int),
    "expire-all": expire_all,
    "revoke-all": revoke_all,
    "fail-next-api": lambda: set_knob("fail_api", "count", int),
    "token-delay": lambda: set_knob("token_delay", "seconds", float),
}

@app.get("/control/stats")
def control_stats():
    with STATE.lock:
        return json_response(STATE.stats)

@app.post("/control/<action>")
def control(action):
    if action not in CONTROLS:
        return json_response({"error": "not_found"}, 404)
    try:
        with STATE.lock:
            changed = CONTROLS[action]() or {}
    except ValueError as error:
        return json_response({"error": "invalid_request", "error_description": str(error)}, 400)
    return json_response({"ok": True, **changed})

# ---------------------------------------------------------------- protected and open API

def echo(credential, subject=None, client_id=None, scope=None):
    raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or request.path
    path = raw.split("?", 1)[0] if raw.startswith("/") else urlsplit(raw).path
    record = {
        "ok": True, "method": request.method, "path": path, "query": request.environ.get("QUERY_STRING", ""),
        "headers": {name.lower(): value for name, value in request.headers.items()},
        "body": request.get_data(as_text=True), "credential": credential,
        "subject": subject, "client_id": client_id, "scope": scope,
    }
    with STATE.lock:
        STATE.stats["api_requests"] += 1
        STATE.stats["last_api_request"] = record
    # What the caller gets back names the credential but never repeats it, like a real API:
    # tests read the full request from /control/stats, and check the answer holds no secret.
    answer = dict(record, headers={k: ("[received]" if k in ("authorization", "x-api-key") else v) for k, v in record["headers"].items()},
                  query="&".join("api_key=[received]" if part.startswith("api_key=") else part for part in record["query"].split("&")))
    return json_response(answer)

def reject(status, challenge=None, error="unauthorized"):
    STATE.bump("api_rejections")
    return json_response({"error": error}, status, {"WWW-Authenticate": challenge} if challenge else None)

def same(given, expected):
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())

@app.route("/api/", defaults={"rest": ""}, methods=ANY_METHOD)
@app.route("/api/<path:rest>", methods=ANY_METHOD)
def protected_api(rest):
    with STATE.lock:
        forced = STATE.fail_api > 0
        if forced:
            STATE.fail_api -= 1
    if forced:
        return reject(401, 'Bearer error="invalid_token"', "invalid_token")
    needs_admin = rest == "admin" or rest.startswith("admin/")
    try:
        with STATE.lock:
            token = protector.acquire_token(["admin"] if needs_admin else None)
            who = (token.sub, token.client_id, token.scope)
    except InsufficientScopeError:
        return reject(403, 'Bearer error="insufficient_scope"', "insufficient_scope")
    except OAuth2Error:  # missing, malformed, unknown, expired or revoked: all invalid_token
        return reject(401, 'Bearer error="invalid_token"', "invalid_token")
    return echo("oauth", *who)

def basic_matches():
    auth = request.authorization
    return bool(auth and auth.type == "basic" and same(auth.username, CONFIG.basic_user)
                and same(auth.password, CONFIG.basic_password))

def bearer_matches():
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and same(value.strip(), CONFIG.static_bearer)

STATIC = {  # /static/<kind>/...: (credential named in the echo, check, challenge when it fails)
    "basic": ("basic", basic_matches, 'Basic realm="static"'),
    "bearer": ("bearer", bearer_matches, 'Bearer realm="static"'),
    "key-header": ("api_key_header", lambda: same(request.headers.get("X-API-Key"), CONFIG.api_key), None),
    "key-query": ("api_key_query", lambda: same(request.args.get("api_key"), CONFIG.api_key), None),
}

@app.route("/static/<kind>/", defaults={"rest": ""}, methods=ANY_METHOD)
@app.route("/static/<kind>/<path:rest>", methods=ANY_METHOD)
def static_credentials(kind, rest):
    if kind not in STATIC:
        return json_response({"error": "not_found"}, 404)
    credential, check, challenge = STATIC[kind]
    return echo(credential) if check() else reject(401, challenge)

@app.route("/open/", defaults={"rest": ""}, methods=ANY_METHOD)
@app.route("/open/<path:rest>", methods=ANY_METHOD)
def open_echo(rest):
    return echo("none")

@app.get("/open-special/big")
def open_big():
    total = request.args.get("bytes", 0, type=int)
    chunk = bytes(range(256)) * 256  # 64 KiB; byte i of the body is i % 256

    def body():
        left = total
        while left > 0:
            yield chunk[:min(left, len(chunk))]
            left -= len(chunk)
    return Response(body(), mimetype="application/octet-stream", direct_passthrough=True)

@app.get("/open-special/slow")
def open_slow():
    text = request.args.get("seconds", "1")
    try:
        seconds = int(text) if text.isdigit() else float(text)
        time.sleep(seconds)
    except ValueError:
        return json_response({"error": "seconds must be a number >= 0"}, 400)
    return json_response({"slept": seconds})

@app.get("/open-special/status/<int:code>")
def open_status(code):
    if not 200 <= code <= 599:
        return json_response({"error": "status must be 200-599"}, 400)
    headers = {"X-Upstream-Marker": "yes"}
    if code == 401:
        headers["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    body = "" if code in (204, 304) else json.dumps({"status": code})
    return Response(body, status=code, headers=headers, mimetype="application/json")

@app.get("/open-special/redirect")
def open_redirect():
    return redirect("/open/redirected", 302)

@app.get("/open-special/set-cookie")
def open_set_cookie():
    headers = {"Set-Cookie": "upstream=1", "Connection": "keep-alive, X-Hop", "X-Hop": "1", "Strict-Transport-Security": "max-age=1",
               "Access-Control-Allow-Origin": "*", "Alt-Svc": "h3=\":443\""}
    return json_response({"ok": True}, 200, headers)

@app.get("/open-special/impersonate")
def open_impersonate():
    # An upstream that dresses its 401 as Gatehouse's own refusal.
    return json_response({"statusCode": 401, "error": {"code": "TOKEN_INVALID", "message": "fake"}}, 401, {"X-Gatehouse-Error": "TOKEN_INVALID"})

# ---------------------------------------------------------------- serving

class QuietHandler(WSGIRequestHandler):
    """Request log without query strings (they carry states, challenges and API keys)."""

    def log_request(self, code="-", size="-"):
        path = getattr(self, "path", "?").split("?", 1)[0]
        log.info("%s %s %s", getattr(self, "command", "-"), path, code)

    def log_error(self, format, *args):
        log.info("http error: %s", re.sub(r"\?[^\s'\"]*", "?<query>", format % args))

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, default in [("port", 0), ("public-client-id", "device-app"), ("confidential-client-id", "server-app"),
                          ("confidential-client-secret", "server-secret"), ("access-ttl", 3600),
                          ("basic-user", "proxyuser"), ("basic-password", "proxy-pass"),
                          ("static-bearer", "static-bearer-token"), ("api-key", "static-api-key-123")]:
        parser.add_argument("--" + flag, type=type(default), default=default)
    parser.parse_args(namespace=CONFIG)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="provider: %(message)s")
    logging.getLogger("authlib").setLevel(logging.WARNING)  # its debug lines print tokens
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    STATE.ttl = CONFIG.access_ttl
    CLIENTS[CONFIG.public_client_id] = Client(
        CONFIG.public_client_id, None, ["authorization_code", "refresh_token"], ["read", "write", "admin"],
        ["none"], ["com.example.app:/oauth/callback", LOOPBACK_CALLBACK])
    CLIENTS[CONFIG.confidential_client_id] = Client(
        CONFIG.confidential_client_id, CONFIG.confidential_client_secret, ["client_credentials"],
        ["read", "write"], ["client_secret_basic", "client_secret_post"])

    serve(app, CONFIG.port, QuietHandler, log)

if __name__ == "__main__":
    main()
