"""Vonage's SMS API and Voice API as their references describe them.

SMS: `POST /sms/json` with `api_key`, `api_secret`, `from`, `to` (digits), `text`, optional
`type`, `client-ref`, `callback`; always a 200 whose `messages[].status` says ("0" sent).
Voice: `POST /v1/calls` with `Authorization: Bearer <RS256 application JWT>` and a JSON call
(`to`, `from`, `ncco`, optional `event_url`); 201 with the call's `uuid`, problem documents
for errors. The application's key pair is made at start-up, as the dashboard makes one.
"""
import base64
import json
import os
import re
import secrets
import time
import uuid

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from flask import request

from fixture_serve import load_own_private_key
from provider_state import STATE, Config, answer, json_response

DIGITS = re.compile(r"^[1-9][0-9]{6,14}$")
URL = re.compile(r"^https?://[^\s/]+(/\S*)?$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$")
# The application's key, made once with `openssl genpkey` beside this file: generating a 2048-bit
# key at every start cost each test that starts these APIs most of a second of CPU.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "vonage-application-key.pem"), "rb") as key_file:
    APPLICATION_KEY = load_own_private_key(key_file.read())
PRIVATE_KEY_PEM = APPLICATION_KEY.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode("ascii")
NCCO_ACTIONS = {"talk", "stream", "input", "record", "conversation", "connect", "notify", "wait"}


# ------------------------------------------------------------------ SMS API

def sms_answer(parts):
    return json_response({"message-count": str(len(parts)), "messages": parts}, 200)


def sms_refusal(status, text):
    return sms_answer([{"status": status, "error-text": text}])


def sms_scripted(kind):
    if kind.startswith("refuse:"):
        status = kind[len("refuse:"):]
        texts = {"1": "Throughput Rate Exceeded - please wait [ 1000 ] and retry", "4": "Bad Credentials",
                 "5": "Internal Error", "29": "Non-Whitelisted Destination"}
        return sms_refusal(status, texts.get(status, "Invalid Parameters"))
    if kind == "429":
        return json_response({"type": "https://developer.nexmo.com/api-errors#throttled", "title": "Throttled",
                              "detail": "Please wait, then retry your request"}, 429, {"Retry-After": "2"})
    status = int(kind) if kind.isdigit() else 500
    return json_response({"type": "https://developer.nexmo.com/api-errors#internal-error", "title": "Internal Error",
                          "detail": "Something went wrong"}, status)


def send_sms():
    content_type = request.headers.get("Content-Type", "")
    if content_type.startswith("application/json"):
        fields = request.get_json(silent=True) or {}
    elif content_type.startswith("application/x-www-form-urlencoded"):
        fields = request.form
    else:
        fields = {}
    if not fields.get("api_key"):
        return sms_refusal("2", "Missing api_key")
    if fields.get("api_key") != Config.vonage_api_key or fields.get("api_secret") != Config.vonage_api_secret:
        return sms_refusal("4", "Bad Credentials")
    for name in ("from", "to"):
        if not fields.get(name):
            return sms_refusal("2", f"Missing {name} param")
    kind = fields.get("type", "text")
    if kind not in ("text", "unicode"):
        return sms_refusal("3", "Invalid type param")
    text = fields.get("text")
    if not text:
        return sms_refusal("2", "Missing text param")
    if not DIGITS.match(fields["to"]):
        return sms_refusal("3", "Invalid to address")
    reference = fields.get("client-ref")
    if reference is not None and len(reference) > 100:
        return sms_refusal("3", "client-ref is longer than 100 characters")
    if fields.get("callback") and not URL.match(fields["callback"]):
        return sms_refusal("23", "Invalid Callback Url")
    single, part = (70, 67) if kind == "unicode" else (160, 153)
    count = 1 if len(text) <= single else -(-len(text) // part)
    parts = []
    for _ in range(count):
        part_answer = {"to": fields["to"], "message-id": secrets.token_hex(8).upper(), "status": "0",
                       "remaining-balance": "3.14159265", "message-price": "0.03330000", "network": "12345"}
        if reference is not None:
            part_answer["client-ref"] = reference
        parts.append(part_answer)
    return sms_answer(parts)


# ------------------------------------------------------------------ Voice API

def problem(status, title, detail, kind, invalid=None):
    body = {"type": f"https://developer.nexmo.com/api-errors{kind}", "title": title, "detail": detail,
            "instance": str(uuid.uuid4())}
    if invalid:
        body["invalid_parameters"] = [{"name": name, "reason": reason} for name, reason in invalid]
    return json_response(body, status)


def voice_scripted(kind):
    if kind == "429":
        response = problem(429, "Too Many Requests", "You have exceeded the rate limit", "#throttled")
        response.headers["Retry-After"] = "2"
        return response
    if kind == "400":
        return problem(400, "Bad Request", "The request failed due to validation errors", "/voice#validation",
                       [("to", "not a valid phone number")])
    status = int(kind) if kind.isdigit() else 500
    return problem(status, "Internal Server Error", "An internal error occurred", "#internal-error")


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def token_problem():
    """None when the bearer token is an RS256 JWT of the application, fresh and unused."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Bearer" or token.count(".") != 2:
        return "missing bearer token"
    header_part, payload_part, signature_part = token.split(".")
    try:
        header, claims = json.loads(b64url(header_part)), json.loads(b64url(payload_part))
        APPLICATION_KEY.public_key().verify(b64url(signature_part), f"{header_part}.{payload_part}".encode("ascii"),
                                            padding.PKCS1v15(), hashes.SHA256())
    except (ValueError, InvalidSignature):
        return "invalid token"
    now = time.time()
    if header.get("alg") != "RS256" or claims.get("application_id") != Config.vonage_application_id:
        return "wrong algorithm or application"
    if not isinstance(claims.get("iat"), int) or claims["iat"] > now + 60:
        return "bad iat"
    if not isinstance(claims.get("exp"), int) or claims["exp"] <= now:
        return "expired"
    if not isinstance(claims.get("jti"), str) or not claims["jti"] or not STATE.first_use_of(claims["jti"]):
        return "jti missing or reused"
    return None


def check_call(call):
    """[(field, reason)] for what the Voice API would refuse in a call request."""
    invalid = []
    to = call.get("to")
    if not isinstance(to, list) or len(to) != 1 or not isinstance(to[0], dict):
        invalid.append(("to", "must be a list of one endpoint"))
    elif to[0].get("type") != "phone" or not DIGITS.match(str(to[0].get("number", ""))):
        invalid.append(("to", "not a valid phone number"))
    sender = call.get("from")
    if not isinstance(sender, dict) or sender.get("type") != "phone" or not DIGITS.match(str(sender.get("number", ""))):
        invalid.append(("from", "not a valid phone number"))
    ncco = call.get("ncco")
    if ncco is None and not call.get("answer_url"):
        invalid.append(("ncco", "ncco or answer_url is required"))
    for action in ncco or []:
        if not isinstance(action, dict) or action.get("action") not in NCCO_ACTIONS:
            invalid.append(("ncco", "unknown action"))
        elif action["action"] == "talk":
            text = action.get("text")
            if not isinstance(text, str) or not text or len(text) > 1500:
                invalid.append(("ncco", "talk needs a text of 1 to 1500 characters"))
            if "language" in action and not LANGUAGE.match(str(action["language"])):
                invalid.append(("ncco", "unsupported language"))
    urls = call.get("event_url")
    if urls is not None and (not isinstance(urls, list) or len(urls) != 1 or not URL.match(str(urls[0]))):
        invalid.append(("event_url", "must be a list of one URL"))
    if call.get("event_method", "POST") not in ("GET", "POST"):
        invalid.append(("event_method", "must be GET or POST"))
    return invalid


def create_call():
    if token_problem():
        return problem(401, "Unauthorized", "You did not provide correct credentials.", "#unauthorized")
    if not request.headers.get("Content-Type", "").startswith("application/json"):
        return problem(415, "Unsupported Media Type", "The request body must be JSON", "#unsupported-media-type")
    call = request.get_json(silent=True)
    if not isinstance(call, dict):
        return problem(400, "Bad Request", "The request body is not valid JSON", "/voice#validation")
    invalid = check_call(call)
    if invalid:
        return problem(400, "Bad Request", "The request failed due to validation errors", "/voice#validation", invalid)
    call_uuid = str(uuid.uuid4())
    return json_response({"uuid": call_uuid, "status": "started", "direction": "outbound",
                          "conversation_uuid": "CON-" + str(uuid.uuid4())}, 201)


def register(app):
    @app.post("/sms/json")
    def vonage_sms():
        return answer("vonage-sms", sms_scripted, send_sms)

    @app.post("/v1/calls")
    def vonage_calls():
        return answer("vonage-calls", voice_scripted, create_call)
