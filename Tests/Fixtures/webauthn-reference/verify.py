"""Verifies passkey ceremonies with py_webauthn (the `webauthn` package on PyPI), as an
independent reference for Gatehouse's own checks.

Usage: verify.py CASES.json  -> prints [{"name", "accepted", "error"}] as JSON on stdout.

Each case: {"name", "kind": "registration"|"assertion", "credential": <the WebAuthn JSON form>,
"challenge", "rpId", "origins", "requireUserVerification", and for a registration "algorithms",
for an assertion "publicKey" (base64url COSE) and "signCount"}. py_webauthn keeps no state: it
does not store or spend challenges, find credentials or compare user handles.
"""
import base64
import json
import sys

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.cose import COSEAlgorithmIdentifier


def decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verify(case):
    common = dict(
        expected_challenge=decode(case["challenge"]), expected_rp_id=case["rpId"], expected_origin=case["origins"],
        require_user_verification=case["requireUserVerification"])
    credential = json.dumps(case["credential"])
    if case["kind"] == "registration":
        verify_registration_response(
            credential=credential, supported_pub_key_algs=[COSEAlgorithmIdentifier(a) for a in case["algorithms"]], **common)
    else:
        verify_authentication_response(
            credential=credential, credential_public_key=decode(case["publicKey"]), credential_current_sign_count=case["signCount"], **common)


def main():
    results = []
    for case in json.load(open(sys.argv[1])):
        try:
            verify(case)
            results.append({"name": case["name"], "accepted": True, "error": ""})
        except Exception as error:  # noqa: BLE001 — every refusal is an answer here
            results.append({"name": case["name"], "accepted": False, "error": f"{type(error).__name__}: {error}"})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
