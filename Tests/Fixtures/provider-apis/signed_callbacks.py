"""The status callbacks the providers send, signed as each provider signs them, computed
here independently of the Swift code that checks them.

Twilio: a form POST to the StatusCallback URL with `X-Twilio-Signature` =
base64(HMAC-SHA1(auth token, url + each parameter's name and value, sorted by name)).
Vonage Voice (and JSON receipts): a JSON POST with `Authorization: Bearer` HS256 JWT under the
signature secret, `payload_hash` = hex SHA-256 of the body. Vonage SMS form receipts: a `sig`
parameter, the hex MD5 of the sorted `&name=value` text followed by the secret (`md5hash`),
or its HMAC under the secret.
"""
import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from urllib.parse import urlencode

from provider_state import Config


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def twilio_signature(url, params, token):
    signed = url + "".join(name + value for name, value in sorted(params.items()))
    return base64.b64encode(hmac.new(token.encode(), signed.encode(), hashlib.sha1).digest()).decode("ascii")


def twilio(spec, call):
    number_from, number_to = "+15005550006", "+" + spec.get("to", "447700900123")
    if call:
        params = {"AccountSid": Config.twilio_account_sid, "ApiVersion": "2010-04-01", "CallSid": spec["id"],
                  "CallStatus": spec["status"], "Called": number_to, "Caller": number_from, "Direction": "outbound-api",
                  "From": number_from, "To": number_to, "CallbackSource": "call-progress-events", "SequenceNumber": "0",
                  "Timestamp": time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime())}
    else:
        params = {"AccountSid": Config.twilio_account_sid, "ApiVersion": "2010-04-01", "From": number_from,
                  "MessageSid": spec["id"], "MessageStatus": spec["status"], "SmsSid": spec["id"],
                  "SmsStatus": spec["status"], "To": number_to}
    if spec.get("error_code"):
        params["ErrorCode"] = str(spec["error_code"])
    token = spec.get("secret", Config.twilio_auth_token)
    return {"url": spec["url"], "body": urlencode(params),
            "headers": {"Content-Type": "application/x-www-form-urlencoded",
                        "X-Twilio-Signature": twilio_signature(spec["url"], params, token)}}


def vonage_jwt(spec):
    if spec.get("kind") == "vonage-call":
        event = {"from": "15005550006", "to": spec.get("to", "447700900123"), "uuid": spec["id"],
                 "conversation_uuid": "CON-" + str(uuid.uuid4()), "status": spec["status"], "direction": "outbound",
                 "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())}
    else:
        event = {"msisdn": spec.get("to", "447700900123"), "to": "Gatehouse", "network-code": "23410",
                 "messageId": spec["id"], "price": "0.03330000", "status": spec["status"],
                 "scts": time.strftime("%y%m%d%H%M", time.gmtime()), "err-code": str(spec.get("error_code", "0")),
                 "api-key": Config.vonage_api_key, "message-timestamp": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())}
    body = json.dumps(event)
    claims = {"iat": int(spec.get("timestamp", time.time())), "jti": str(uuid.uuid4()), "iss": "Vonage",
              "payload_hash": hashlib.sha256(body.encode()).hexdigest(), "api_key": Config.vonage_api_key,
              "application_id": Config.vonage_application_id}
    signing_input = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode())
    secret = spec.get("secret", Config.vonage_signature_secret).encode()
    token = signing_input + "." + b64url(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())
    return {"url": spec["url"], "body": body,
            "headers": {"Content-Type": "application/json", "Authorization": "Bearer " + token}}


def vonage_sig(spec):
    params = {"msisdn": spec.get("to", "447700900123"), "to": "Gatehouse", "network-code": "23410",
              "messageId": spec["id"], "price": "0.03330000", "status": spec["status"],
              "scts": time.strftime("%y%m%d%H%M", time.gmtime()), "err-code": str(spec.get("error_code", "0")),
              "api-key": Config.vonage_api_key, "message-timestamp": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
              "timestamp": str(int(spec.get("timestamp", time.time()))), "nonce": secrets.token_hex(8)}
    signed = "".join(f"&{name}={value.replace('&', '_').replace('=', '_')}" for name, value in sorted(params.items()))
    secret = spec.get("secret", Config.vonage_signature_secret)
    method = spec.get("method", "md5hash")
    if method == "md5hash":
        params["sig"] = hashlib.md5((signed + secret).encode()).hexdigest()
    else:
        params["sig"] = hmac.new(secret.encode(), signed.encode(), getattr(hashlib, method)).hexdigest().upper()
    return {"url": spec["url"], "body": urlencode(params), "headers": {"Content-Type": "application/x-www-form-urlencoded"}}


def build(spec):
    kind = spec.get("kind")
    if kind in ("twilio-message", "twilio-call"):
        return twilio(spec, kind == "twilio-call")
    if kind in ("vonage-call", "vonage-sms-jwt"):
        return vonage_jwt(spec)
    if kind == "vonage-sms-sig":
        return vonage_sig(spec)
    raise ValueError(f"unknown callback kind {kind!r}")
