"""Twilio's REST API 2010-04-01 as its reference describes it: Programmable Messaging
(`Messages.json`) and Voice (`Calls.json`) under `/2010-04-01/Accounts/{AccountSid}/`, HTTP
Basic with the Account SID and Auth Token or an API key SID and secret, form-encoded
parameters, 201 with the new resource, errors as `{"code", "message", "more_info", "status"}`.
"""
import email.utils
import re
import secrets
import xml.etree.ElementTree as ElementTree

from flask import request

from provider_state import Config, answer, basic_credentials, json_response

E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")
URL = re.compile(r"^https?://[^\s/]+(/\S*)?$")
SPOKEN_LANGUAGE = re.compile(r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,2}$")


def error(code, message, status, headers=None):
    return json_response({"code": code, "message": message, "more_info": f"https://www.twilio.com/docs/errors/{code}",
                          "status": status}, status, headers)


def scripted_error(kind):
    if kind == "429":
        return error(20429, "Too Many Requests", 429, {"Retry-After": "2"})
    if kind == "400":
        return error(21211, f"The 'To' number {request.form.get('To', '')} is not a valid phone number.", 400)
    if kind == "503":
        return error(20503, "Service Unavailable", 503)
    return error(20500, "An internal server error has occurred", int(kind) if kind.isdigit() else 500)


def authenticate(account_sid):
    """None when the Basic credentials belong to `account_sid`, else Twilio's refusal."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    user, password, ok = basic_credentials(value) if scheme.lower() == "basic" else ("", "", False)
    valid = ok and ((user == Config.twilio_account_sid and password == Config.twilio_auth_token)
                    or (user == Config.twilio_api_key_sid and password == Config.twilio_api_key_secret))
    if not valid:
        body = {"code": 20003, "detail": "Your AccountSid or AuthToken was incorrect.", "message": "Authenticate",
                "more_info": "https://www.twilio.com/docs/errors/20003", "status": 401}
        return json_response(body, 401, {"WWW-Authenticate": 'Basic realm="Twilio API"'})
    if account_sid != Config.twilio_account_sid:
        return error(20404, f"The requested resource {request.path} was not found", 404)
    return None


def form():
    # Twilio reads only form-encoded parameters; anything else arrives as no parameters at all.
    if not request.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
        return {}
    return request.form


def resource(account_sid, kind, sid, extra):
    now = email.utils.formatdate(usegmt=True).replace("GMT", "+0000")
    base = {"account_sid": account_sid, "api_version": "2010-04-01", "date_created": now, "date_updated": now,
            "direction": "outbound-api", "price": None, "price_unit": "USD", "sid": sid,
            "uri": f"/2010-04-01/Accounts/{account_sid}/{kind}/{sid}.json"}
    base.update(extra)
    return base


def create_message(account_sid):
    refusal = authenticate(account_sid)
    if refusal:
        return refusal
    fields = form()
    to, sender, service, body = (fields.get(name) for name in ("To", "From", "MessagingServiceSid", "Body"))
    callback = fields.get("StatusCallback")
    if not to:
        return error(21604, "A 'To' phone number is required.", 400)
    if not E164.match(to):
        return error(21211, f"The 'To' number {to} is not a valid phone number.", 400)
    if not sender and not service:
        return error(21603, "A 'From' phone number is required.", 400)
    if service and not re.match(r"^MG[0-9a-f]{32}$", service):
        return error(21705, "The Messaging Service Sid is invalid.", 400)
    if not body:
        return error(21602, "Message body is required.", 400)
    if len(body) > 1600:
        return error(21617, "The concatenated message body exceeds the 1600 character limit.", 400)
    if callback and not URL.match(callback):
        return error(21609, "The StatusCallback URL is not a valid URL.", 400)
    sid = "SM" + secrets.token_hex(16)
    segments = 1 if len(body) <= 160 else -(-len(body) // 153)
    return json_response(resource(account_sid, "Messages", sid, {
        "body": body, "date_sent": None, "error_code": None, "error_message": None, "from": sender,
        "messaging_service_sid": service, "num_media": "0", "num_segments": str(segments),
        "status": "accepted" if service else "queued", "to": to,
        "subresource_uris": {"media": f"/2010-04-01/Accounts/{account_sid}/Messages/{sid}/Media.json"}}), 201)


def check_twiml(twiml):
    """None for TwiML made of <Say> (with a well-formed language) and <Pause>, else why not."""
    try:
        root = ElementTree.fromstring(twiml.encode("utf-8"))
    except ElementTree.ParseError as problem:
        return f"Document parse failure: {problem}"
    if root.tag != "Response":
        return "The root element must be Response"
    for verb in root:
        if verb.tag == "Say":
            if not (verb.text or "").strip() or len(verb) or not SPOKEN_LANGUAGE.match(verb.get("language", "en-US")):
                return "Invalid Say"
        elif verb.tag != "Pause" or not (verb.get("length") or "1").isdigit():
            return f"Invalid verb {verb.tag}"
    return None


def create_call(account_sid):
    refusal = authenticate(account_sid)
    if refusal:
        return refusal
    fields = form()
    to, sender, twiml = fields.get("To"), fields.get("From"), fields.get("Twiml")
    callback = fields.get("StatusCallback")
    if not to:
        return error(21201, "No 'To' number is specified", 400)
    if not E164.match(to):
        return error(21211, f"Invalid 'To' Phone Number: {to}", 400)
    if not sender:
        return error(21213, "No 'From' number is specified", 400)
    if not E164.match(sender):
        return error(21212, f"Invalid 'From' Phone Number: {sender}", 400)
    if not twiml and not fields.get("Url") and not fields.get("ApplicationSid"):
        return error(21205, "Url, Twiml or ApplicationSid is required", 400)
    if twiml and len(twiml) > 4000:
        return error(21220, "Twiml is longer than 4000 characters", 400)
    problem = check_twiml(twiml) if twiml else None
    if problem:
        return error(12100, problem, 400)
    if callback and not URL.match(callback):
        return error(21609, "The StatusCallback URL is not a valid URL.", 400)
    sid = "CA" + secrets.token_hex(16)
    return json_response(resource(account_sid, "Calls", sid, {
        "answered_by": None, "caller_name": None, "duration": None, "end_time": None, "from": sender,
        "from_formatted": sender, "parent_call_sid": None, "start_time": None, "status": "queued", "to": to,
        "to_formatted": to, "subresource_uris": {
            "recordings": f"/2010-04-01/Accounts/{account_sid}/Calls/{sid}/Recordings.json"}}), 201)


def register(app):
    @app.post("/2010-04-01/Accounts/<account_sid>/Messages.json")
    def twilio_messages(account_sid):
        return answer("twilio-messages", scripted_error, lambda: create_message(account_sid))

    @app.post("/2010-04-01/Accounts/<account_sid>/Calls.json")
    def twilio_calls(account_sid):
        return answer("twilio-calls", scripted_error, lambda: create_call(account_sid))
