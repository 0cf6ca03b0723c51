#!/usr/bin/env python3
"""Gatehouse provider APIs test service: Twilio Programmable Messaging and Voice, the Vonage
SMS API and Voice API, each checking requests as the provider's API reference describes
them and answering as the provider does, errors included, for the delivery adapters' tests.

Started by the tests (Tests/GatehouseTesting/ProviderAPIs.swift) as
`python3 providers.py --port 0 ...`; it prints one line `PORT <n>` on stdout once it listens
on 127.0.0.1 and serves until SIGTERM. Needs Flask and cryptography.

/_control/* lets a test script failures (the next answers of one API: an HTTP status in the
provider's error format, `slow:<seconds>`, `drop`, `refuse:<status>` for Vonage SMS), read
the requests received (credentials masked), fetch the Vonage application's private key, and
get provider-signed status callbacks. Logs go to stderr and never carry credentials.
"""
import argparse
import logging
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fixture_serve import serve  # noqa: E402 (the shared start-up, beside this folder)

# posix_spawn hands down the test runner's signal mask (SIGTERM blocked); clear it before any
# thread starts so stop() ends the server at once.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

try:
    from flask import Flask, request
    from werkzeug.serving import WSGIRequestHandler

    import signed_callbacks
    import twilio_api
    import vonage_api
    from provider_state import STATE, Config, json_response
except ImportError as missing:
    sys.stderr.write(f"providers.py: {missing}; install with: python3 -m pip install flask cryptography\n")
    sys.exit(3)

log = logging.getLogger("providers")
TARGETS = {"twilio-messages", "twilio-calls", "vonage-sms", "vonage-calls"}
app = Flask(__name__)
twilio_api.register(app)
vonage_api.register(app)


@app.post("/_control/script")
def control_script():
    spec = request.get_json(force=True)
    if spec.get("target") not in TARGETS or not isinstance(spec.get("answers"), list):
        return json_response({"error": f"target must be one of {sorted(TARGETS)}, answers a list"}, 400)
    STATE.script(spec["target"], [str(item) for item in spec["answers"]])
    return json_response({"ok": True}, 200)


@app.get("/_control/requests")
def control_requests():
    with STATE.lock:
        return json_response(list(STATE.received), 200)


@app.post("/_control/reset")
def control_reset():
    STATE.reset()
    return json_response({"ok": True}, 200)


@app.get("/_control/vonage-application")
def control_vonage_application():
    # What the Vonage dashboard hands over when an application is created: its id and private key.
    return json_response({"application_id": Config.vonage_application_id, "private_key": vonage_api.PRIVATE_KEY_PEM}, 200)


@app.post("/_control/status-callback")
def control_status_callback():
    try:
        return json_response(signed_callbacks.build(request.get_json(force=True)), 200)
    except (KeyError, ValueError) as problem:
        return json_response({"error": str(problem)}, 400)


class QuietHandler(WSGIRequestHandler):
    """Request log of method, path and status only (bodies carry credentials)."""

    def log_request(self, code="-", size="-"):
        log.info("%s %s %s", getattr(self, "command", "-"), getattr(self, "path", "?").split("?", 1)[0], code)

    def log_error(self, format, *args):
        log.info("http error: %s", format % args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in vars(Config).items():
        if not name.startswith("_"):
            parser.add_argument("--" + name.replace("_", "-"), type=type(default), default=default, dest=name)
    for name, value in vars(parser.parse_args()).items():
        setattr(Config, name, value)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="providers: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    serve(app, Config.port, QuietHandler, log)


if __name__ == "__main__":
    main()
