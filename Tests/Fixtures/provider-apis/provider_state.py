"""What the provider APIs test service remembers, and the helpers its endpoints share.

Everything lives in memory under one lock: the requests received (secrets masked), the
scripted answers still to give, the Vonage token ids already used. Nothing here logs a
credential, and a recorded request never carries one.
"""
import base64
import json
import threading
import time

from flask import Response, request

# Form and JSON fields whose values are credentials: recorded as "<redacted>".
SECRET_FIELDS = {"api_secret", "sig"}


class Config:
    """The credentials the fake providers accept (overridable with command-line flags)."""
    port = 0
    twilio_account_sid = "AC" + "0123456789abcdef" * 2
    twilio_auth_token = "twilio-auth-token-0123456789abcdef"
    twilio_api_key_sid = "SK" + "fedcba9876543210" * 2
    twilio_api_key_secret = "twilio-api-key-secret-0123456789"
    vonage_api_key = "a1b2c3d4"
    vonage_api_secret = "vonage-api-secret-0123"
    vonage_application_id = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
    vonage_signature_secret = "vonage-signature-secret-0123456789abcdef"


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.received = []
            self.scripts = {}     # target -> [answer, ...], each used once, in order
            self.jtis = set()     # Vonage application token ids already seen

    def script(self, target, answers):
        with self.lock:
            self.scripts.setdefault(target, []).extend(answers)

    def next_scripted(self, target):
        with self.lock:
            queue = self.scripts.get(target) or []
            return queue.pop(0) if queue else None

    def record(self, entry):
        with self.lock:
            self.received.append(entry)
            return len(self.received) - 1

    def finish(self, index, status, body):
        with self.lock:
            self.received[index]["status"] = status
            self.received[index]["answer"] = body

    def first_use_of(self, jti):
        with self.lock:
            if jti in self.jtis:
                return False
            self.jtis.add(jti)
            return True


STATE = State()


def received_entry(target):
    """The request as the test may read it: method, path, headers that matter, fields."""
    content_type = request.headers.get("Content-Type", "")
    entry = {"target": target, "method": request.method, "path": request.path, "content_type": content_type,
             "accept": request.headers.get("Accept"), "authorization": auth_summary(), "form": None, "json_text": None,
             "received_at": time.time(), "status": None, "answer": None}
    if content_type.startswith("application/x-www-form-urlencoded"):
        entry["form"] = [[name, "<redacted>" if name in SECRET_FIELDS else value]
                         for name, value in request.form.items(multi=True)]
    elif content_type.startswith("application/json"):
        body = request.get_json(silent=True)
        if isinstance(body, dict):
            body = {name: "<redacted>" if name in SECRET_FIELDS else value for name, value in body.items()}
        entry["json_text"] = json.dumps(body, sort_keys=True)
    return entry


def auth_summary():
    """`basic <user>` or `bearer` (the token itself is checked, not kept), or None."""
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "basic":
        user, _, _ = basic_credentials(value)
        return f"basic {user}"
    return scheme.lower()


def basic_credentials(value):
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return "", "", False
    user, colon, password = decoded.partition(":")
    return user, password, bool(colon)


def json_response(body, status, headers=None):
    return Response(json.dumps(body), status=status, headers=headers or {}, content_type="application/json")


def drop_connection():
    """Closes the socket without an answer, as a provider's load balancer sometimes does."""
    sock = request.environ.get("werkzeug.socket")
    if sock is not None:
        import socket
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    return Response(b"", status=500)


def answer(target, scripted_error, handler):
    """Records the request, then gives the next scripted answer for `target` if there is one
    (`drop`, `slow:<seconds>` then the real answer, or a status `scripted_error` renders in
    the provider's own error format), else the real answer from `handler`."""
    index = STATE.record(received_entry(target))
    scripted = STATE.next_scripted(target)
    if scripted == "drop":
        STATE.finish(index, "dropped", None)
        return drop_connection()
    if scripted and scripted.startswith("slow:"):
        time.sleep(float(scripted[len("slow:"):]))
        scripted = None
    response = scripted_error(scripted) if scripted else handler()
    STATE.finish(index, response.status_code, response.get_data(as_text=True))
    return response
