#!/usr/bin/env python3
"""Gatehouse CAMARA operator: a local stand-in for a mobile operator's Number Verification API
(OAuth 2.0 authorization server plus /number-verification/v0/verify), for the end-to-end tests.

Started by the tests (Tests/GatehouseTesting/CamaraOperator.swift) as
`python3 operator.py --port 0 --client-id ID --client-secret SECRET --redirect-uri URI [--msisdn +E164]`;
it prints one line `PORT <n>` on stdout once it listens on 127.0.0.1 and serves until SIGTERM.
Needs Flask and Authlib (pip: authlib==1.6.5).

A real operator authenticates the device by the connection it arrives on; on one loopback box
the test's carrier check says so instead: `X-Test-Network: cellular` (anything else is Wi-Fi,
VPN, ...) and `X-Test-MSISDN: +E164` (the line's number, default --msisdn). The authorization
code grant and client authentication are Authlib's own. /_control/* lets a test read what the
operator saw. Everything lives in memory under one lock; stderr never carries codes or tokens.
"""
import argparse
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import signal
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture_serve import serve  # noqa: E402 (the shared start-up, beside this folder)

# posix_spawn hands down the test runner's signal mask (SIGTERM blocked); clear it before any
# thread starts so stop() ends the server at once.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
# Loopback only: let Authlib accept plain http whatever Host a caller sends.
os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")

try:
    from authlib.common.urls import add_params_to_uri
    from authlib.integrations.flask_oauth2 import AuthorizationServer
    from authlib.oauth2 import OAuth2Error
    from authlib.oauth2.rfc6749 import ClientMixin, InvalidScopeError, grants
    from authlib.oauth2.rfc6749.util import scope_to_list
    from authlib.oauth2.rfc6750 import BearerTokenGenerator
    from flask import Flask, Response, g, redirect, request
    from werkzeug.serving import WSGIRequestHandler
except ImportError as missing:
    sys.stderr.write(f"operator.py: {missing}; install with: python3 -m pip install authlib==1.6.5 flask\n")
    sys.exit(3)

log = logging.getLogger("operator")
SCOPES = ["number-verification:verify", "number-verification:device-phone-number:read"]
E164 = re.compile(r"\+[0-9]{7,15}")
SHA256_HEX = re.compile(r"[0-9a-fA-F]{64}")
CODE_LIFETIME = 60
HOPS = 2  # carriers bounce the device through their own hosts before the client's redirect URI
LOCK = threading.RLock()
CODES, TOKENS, HOP_SESSIONS, LOG = {}, {}, {}, []
CLIENTS, CONFIG = {}, argparse.Namespace()

# ---------------------------------------------------------------- models

class Line:
    """The resource owner: a mobile line, known by its MSISDN."""

    def __init__(self, msisdn): self.msisdn = msisdn
    def get_user_id(self): return self.msisdn

class Client(ClientMixin):
    def __init__(self, client_id, secret, redirect_uri):
        self.client_id, self.secret, self.redirect_uri = client_id, secret, redirect_uri

    def get_client_id(self): return self.client_id
    def get_default_redirect_uri(self): return None  # redirect_uri is always required
    def check_grant_type(self, grant_type): return grant_type == "authorization_code"
    def check_response_type(self, kind): return kind == "code"
    def check_endpoint_auth_method(self, method, endpoint): return method in ("client_secret_basic", "client_secret_post")
    def get_allowed_scope(self, scope): return " ".join(s for s in scope_to_list(scope) or [] if s in SCOPES)

    def check_client_secret(self, secret):
        return hmac.compare_digest(self.secret.encode(), secret.encode())

    def check_redirect_uri(self, uri):
        if uri == self.redirect_uri:
            return True
        # http://127.0.0.1/path registered: any port matches (RFC 8252 §7.3), so a test can
        # start the operator before the server whose callback it redirects to.
        mine, theirs = urlsplit(self.redirect_uri), urlsplit(uri)
        try:
            theirs.port
        except ValueError:
            return False
        return (mine.scheme == theirs.scheme == "http" and mine.netloc == "127.0.0.1" and theirs.hostname == "127.0.0.1"
                and (mine.path, mine.query) == (theirs.path, theirs.query) and not theirs.fragment)

class AuthorizationCode:
    def __init__(self, code, client_id, redirect_uri, scope, msisdn):
        self.code, self.client_id, self.redirect_uri, self.scope, self.msisdn = code, client_id, redirect_uri, scope, msisdn
        self.expires_at = time.time() + CODE_LIFETIME

    def get_redirect_uri(self): return self.redirect_uri
    def get_scope(self): return self.scope

class AuthorizationCodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def validate_requested_scope(self):  # Authlib only checks scopes against the server's list
        if not set(scope_to_list(self.request.payload.scope) or []) <= set(SCOPES):
            raise InvalidScopeError()
        super().validate_requested_scope()

    def save_authorization_code(self, code, req):
        with LOCK:
            CODES[code] = AuthorizationCode(code, req.client.client_id, req.payload.redirect_uri, req.payload.scope, req.user.msisdn)

    def query_authorization_code(self, code, client):
        with LOCK:
            item = CODES.get(code)
        ok = item is not None and item.client_id == client.client_id and time.time() < item.expires_at
        return item if ok else None

    def delete_authorization_code(self, item):  # one use: a second exchange is invalid_grant
        with LOCK:
            CODES.pop(item.code, None)

    def authenticate_user(self, item):
        return Line(item.msisdn)

def save_token(fields, req):
    with LOCK:  # the token itself carries nothing: the MSISDN stays on the operator's side
        TOKENS[fields["access_token"]] = {"msisdn": req.user.msisdn, "scope": fields.get("scope") or "",
                                          "expires_at": time.time() + fields["expires_in"]}

# ---------------------------------------------------------------- app

app = Flask(__name__, static_folder=None)
app.config["OAUTH2_SCOPES_SUPPORTED"] = SCOPES
server = AuthorizationServer(app, query_client=lambda client_id: CLIENTS.get(client_id), save_token=save_token)
server.register_grant(AuthorizationCodeGrant)
BEARER = BearerTokenGenerator(lambda **_: secrets.token_urlsafe(32))
server.register_token_generator("default", lambda grant_type, client, user=None, scope=None, **_: dict(
    BEARER(grant_type, client, user, scope, CONFIG.access_ttl, False), expires_in=CONFIG.access_ttl))

def json_response(body, status=200):
    return Response(json.dumps(body), status=status, mimetype="application/json")

def camara_error(status, code, message):
    return json_response({"status": status, "code": code, "message": message}, status)

def on_cellular():
    return request.headers.get("X-Test-Network", "").strip().lower() == "cellular"

def login_required(redirect_uri, state):
    # prompt=none and no network authentication: the client learns so at its redirect URI
    # (OIDC Core §3.1.2.6), never from a page it would have to show.
    params = [("error", "login_required"), ("error_description", "not authenticated by the mobile network")]
    if state:
        params.append(("state", state))
    return redirect(add_params_to_uri(redirect_uri, params), 302)

@app.before_request
def note_request():
    if not request.path.startswith("/_control/"):
        g.entry = {"method": request.method, "path": request.path, "cellular": on_cellular(),
                   "network": request.headers.get("X-Test-Network"), "time": time.time()}

@app.after_request
def finish_request(response):
    if request.headers.get("X-Correlator"):  # CAMARA: echoed on every answer
        response.headers["X-Correlator"] = request.headers["X-Correlator"]
    entry = g.pop("entry", None)
    if entry is not None:
        location = response.headers.get("Location")  # kept with its code masked: the log holds no credential
        entry.update(status=response.status_code, location=location and re.sub(r"([?&]code=)[^&]*", r"\1[redacted]", location))
        with LOCK:
            LOG.append(entry)
    return response

@app.get("/authorize")
def authorize():
    g.entry.update({key: request.args.get(key) for key in ("client_id", "redirect_uri", "scope", "state", "prompt", "login_hint")})
    try:  # unknown client or redirect URI: Authlib answers 400 itself, never redirects (RFC 6749 §4.1.2.1)
        grant = server.get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return server.handle_error_response(None, error)
    redirect_uri, state = grant.redirect_uri, request.args.get("state")
    if not on_cellular():
        return login_required(redirect_uri, state)
    msisdn = request.headers.get("X-Test-MSISDN", CONFIG.msisdn).strip()
    if not E164.fullmatch(msisdn):
        return json_response({"error": "server_error", "error_description": "X-Test-MSISDN is not +E164"}, 400)
    g.entry["msisdn"] = msisdn
    answer = server.create_authorization_response(grant=grant, grant_user=Line(msisdn))
    final = answer.headers.get("Location", "")
    code = parse_qs(urlsplit(final).query).get("code", [None])[0]
    if answer.status_code != 302 or code is None:
        return answer
    # The code exists now but reaches the client only after the last hop.
    session = secrets.token_urlsafe(16)
    with LOCK:
        HOP_SESSIONS[session] = {"next": 1, "final": final, "code": code, "redirect_uri": redirect_uri, "state": state,
                                 "expires_at": time.time() + CODE_LIFETIME}
    return redirect(f"{request.host_url}hop/1?session={session}", 302)

@app.get("/hop/<int:number>")
def hop(number):
    with LOCK:
        session = HOP_SESSIONS.get(request.args.get("session", ""))
        if session is None or session["next"] != number or time.time() >= session["expires_at"]:
            return json_response({"error": "invalid_request", "error_description": "unknown, replayed or expired hop"}, 400)
        if not on_cellular():  # the device left the mobile network mid-way: that code is void
            HOP_SESSIONS.pop(request.args["session"])
            CODES.pop(session["code"], None)
            return login_required(session["redirect_uri"], session["state"])
        if number < HOPS:
            session["next"] = number + 1
            return redirect(f"{request.host_url}hop/{number + 1}?session={request.args['session']}", 302)
        HOP_SESSIONS.pop(request.args["session"])
        return redirect(session["final"], 302)

@app.post("/token")
def token():
    header = request.headers.get("Authorization", "")
    used = [name for name, present in (("client_secret_basic", header.lower().startswith("basic ")),
                                       ("client_secret_post", "client_secret" in request.form)) if present]
    g.entry.update(grant_type=request.form.get("grant_type"), client_auth=" ".join(used) or "none")
    with LOCK:
        return server.create_token_response()

@app.post("/number-verification/v0/verify")
def verify():
    body = request.get_json(force=True, silent=True)
    g.entry.update(body=body if body is not None else request.get_data(as_text=True), correlator=request.headers.get("X-Correlator"))
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    with LOCK:
        grant = TOKENS.get(value.strip()) if scheme.lower() == "bearer" else None
    if grant is None or time.time() >= grant["expires_at"]:
        return camara_error(401, "UNAUTHENTICATED", "Request not authenticated due to missing, invalid, or expired credentials.")
    if "number-verification:verify" not in grant["scope"].split():
        return camara_error(403, "PERMISSION_DENIED", "Client does not have sufficient permissions to perform this action.")
    if not isinstance(body, dict) or ("phoneNumber" in body) == ("hashedPhoneNumber" in body):
        return camara_error(400, "INVALID_ARGUMENT", "Exactly one of phoneNumber and hashedPhoneNumber is required.")
    if "phoneNumber" in body:
        given = body["phoneNumber"]
        if not isinstance(given, str) or not E164.fullmatch(given):
            return camara_error(400, "INVALID_ARGUMENT", "phoneNumber must be E.164: '+' and 7 to 15 digits.")
        verified = hmac.compare_digest(given, grant["msisdn"])
    else:
        given = body["hashedPhoneNumber"]
        if not isinstance(given, str) or not SHA256_HEX.fullmatch(given):
            return camara_error(400, "INVALID_ARGUMENT", "hashedPhoneNumber must be the SHA-256 hex of an E.164 number.")
        verified = hmac.compare_digest(given.lower(), hashlib.sha256(grant["msisdn"].encode()).hexdigest())
    return json_response({"devicePhoneNumberVerified": verified})

# ---------------------------------------------------------------- control (tests only)

@app.get("/_control/log")
def control_log():
    with LOCK:
        return json_response({"requests": LOG})

@app.post("/_control/reset")
def control_reset():  # forgets what was seen and every code, hop and token: a fresh operator
    with LOCK:
        for store in (LOG, CODES, TOKENS, HOP_SESSIONS):
            store.clear()
    return json_response({"ok": True})

@app.post("/_control/expire-tokens")
def control_expire():  # lets a test see its stored access token refused (401) at once
    with LOCK:
        for grant in TOKENS.values():
            grant["expires_at"] = 0
    return json_response({"ok": True})

# ---------------------------------------------------------------- serving

class QuietHandler(WSGIRequestHandler):
    """Request log without query strings (they carry states, codes and hop sessions)."""

    def log_request(self, code="-", size="-"):
        log.info("%s %s %s", getattr(self, "command", "-"), getattr(self, "path", "?").split("?", 1)[0], code)

    def log_error(self, format, *args):
        log.info("http error: %s", re.sub(r"\?[^\s'\"]*", "?<query>", format % args))

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--msisdn", default="+447700900123", help="the line's number when X-Test-MSISDN is absent")
    parser.add_argument("--access-ttl", type=int, default=300)
    parser.parse_args(namespace=CONFIG)
    if not E164.fullmatch(CONFIG.msisdn):
        parser.error("--msisdn must be '+' and 7 to 15 digits")
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="operator: %(message)s")
    logging.getLogger("authlib").setLevel(logging.WARNING)  # its debug lines print tokens
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    CLIENTS[CONFIG.client_id] = Client(CONFIG.client_id, CONFIG.client_secret, CONFIG.redirect_uri)

    serve(app, CONFIG.port, QuietHandler, log)

if __name__ == "__main__":
    main()
