#!/usr/bin/env python3
"""Registers a passkey for a signed-in account, as a platform authenticator would (ES256,
attestation none, a synced passkey's flags), and prints its credential id: the conformance run
fuzzes the passkey routes with a real one.

Usage: passkey-register.py BASE_URL ACCESS_TOKEN ORIGIN
"""
import base64
import hashlib
import json
import os
import sys
import urllib.request

from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def cbor(value):
    """Definite-length CBOR of ints, bytes, text and maps: all an attestation object holds."""
    def head(major, n):
        if n < 24:
            return bytes([major << 5 | n])
        for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if n < 1 << (8 * size):
                return bytes([major << 5 | info]) + n.to_bytes(size, "big")
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        return head(3, len(value.encode())) + value.encode()
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(value)


def post(url, token, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))


def main():
    base, token, origin = sys.argv[1:4]
    options = post(base + "/api/auth/v1/passkeys/registration-options", token, {})
    numbers = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
    key = cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
    credential_id = os.urandom(16)
    client_data = json.dumps({"type": "webauthn.create", "challenge": options["challenge"], "origin": origin, "crossOrigin": False}).encode()
    auth_data = (hashlib.sha256(options["rp"]["id"].encode()).digest() + bytes([0x5D]) + (0).to_bytes(4, "big") + bytes(16)
                 + len(credential_id).to_bytes(2, "big") + credential_id + key)
    attestation = cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
    made = post(base + "/api/auth/v1/passkeys", token, {"name": "Fuzz", "credential": {
        "id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
        "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation)}}})
    print(made["id"])


if __name__ == "__main__":
    main()
