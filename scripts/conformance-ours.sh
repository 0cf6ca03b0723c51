#!/usr/bin/env bash
# Fuzzes Gatehouse's own OpenAPI documents, fetched from the running server's
# /openapi/<name>.json, with schemathesis (stateful phase on). Called by conformance.sh with the
# server's address and its development credentials; makes the objects the runs' parameters
# name (scripts/openapi-fuzz.toml) through the real API first.
#
# Checks: no 5xx, every response matches its schema, content types and status codes are the
# documented ones; a "missing test data" warning fails the run. Left out of fuzzing, and said
# so in the documents: the managed API proxy (it passes on whatever the upstream answers), the
# report stream (it does not end) and the worker's callback and file routes (they need a run's
# own signature or signed link).
set -euo pipefail
cd "$(dirname "$0")/.."
base=$1
creds=$2
st=.build/conformance-venv/bin/st
examples=${CONFORMANCE_EXAMPLES_OURS:-${CONFORMANCE_EXAMPLES:-25}}

field() { python3 -c 'import json, sys; v = json.load(sys.stdin)
for k in sys.argv[1].split("."): v = v[int(k)] if k.isdigit() else v[k]
print(v)' "$1"; }
call() { # method path auth-header [json body]
    curl -sS --fail-with-body -X "$1" -H "$3" -H 'Content-Type: application/json' ${4:+-d "$4"} "$base$2"
}
claim() { python3 -c 'import base64, json, sys; p = sys.argv[1].split(".")[1]; print(json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))[sys.argv[2]])' "$1" "$2"; }

admin="Authorization: Bearer $(field adminToken <"$creds")"
export FUZZ_TENANT; FUZZ_TENANT=$(field tenantId <"$creds")
tenant=/admin/v1/tenants/$FUZZ_TENANT
ios="x-api-key: $(field apiKeys.IOS <"$creds")"

# Verification: a test number with a fixed code, starts without a cooldown, one verification.
export FUZZ_NUMBER=14155550123 FUZZ_TEST_NUMBER=+14155550123
call POST "$tenant/test-numbers" "$admin" '{"destination":"+14155550123","code":"246810"}' >/dev/null
export FUZZ_OTP_APP; FUZZ_OTP_APP=$(call GET "$tenant/otp-applications" "$admin" | field data.0.id)
call PATCH "$tenant/otp-applications/$FUZZ_OTP_APP" "$admin" '{"cooldownSeconds":0}' >/dev/null
basic="Authorization: Basic $(printf '%s:%s' "$(field verification.appKey <"$creds")" "$(field verification.secret <"$creds")" | base64 -w0)"
export FUZZ_VERIFICATION; FUZZ_VERIFICATION=$(call POST /api/v1/verifications "$basic" \
    '{"data":{"destination":"+14155550123","delivery_method":"sms"}}' | field data.id)

# Datacove: a session for the runs, one to refresh, one to sign out by id, another account to
# sign out and delete (sign-in codes go once a minute per number, hence a test number each); a
# finished run to report; a plan to delete.
sign_in() {
    call POST "$tenant/test-numbers" "$admin" "{\"destination\":\"$1\",\"code\":\"246810\"}" >/dev/null
    call POST /api/auth/v1/mobile/request-otp "$ios" "{\"phoneNumber\":\"$1\"}" >/dev/null
    call POST /api/auth/v1/mobile/verify-otp "$ios" "{\"phoneNumber\":\"$1\",\"otp\":\"246810\"}"
}
session=$(sign_in +14155550126 | field accessToken)
export FUZZ_ACCOUNT FUZZ_REFRESH FUZZ_EVENT
FUZZ_ACCOUNT=$(claim "$session" sub)
FUZZ_REFRESH=$(sign_in +14155550125 | field refreshToken)
doomed=$(sign_in +14155550124 | field accessToken)
signed_out=$(sign_in +14155550127 | field accessToken)
export FUZZ_SESSION; FUZZ_SESSION=$(claim "$signed_out" sid)
bearer="Authorization: Bearer $session"
curl -sS --fail-with-body -H "$bearer" -H 'X-App-Version: 1.0' -H 'Content-Type: application/json' "$base/api/workflows/v1/execute" \
    -d "{\"id\":\"wf-url-001\",\"input\":{\"url\":\"$base/healthz\"}}" >/dev/null
FUZZ_EVENT=$(call GET /api/workflows/reports/v1/history/1/1 "$bearer" | field data.0.eventId)
export FUZZ_PLAN; FUZZ_PLAN=$(call POST "/api/tenants/v1/$FUZZ_TENANT/service-entitlement-products" "$admin" \
    '{"displayName":"Fuzz","interval":"monthly","platformProductIds":{"apple":"com.example.fuzz"}}' | field productId)

# Passkeys: the tenant's relying party, and a passkey of the session's account to rename,
# another (with a session of its own) to delete.
call PUT "/api/tenants/v1/$FUZZ_TENANT/passkey-config" "$admin" \
    '{"rpId":"localhost","rpName":"Fuzz","origins":["http://localhost"],"iosAppIds":[],"enabled":true}' >/dev/null
export FUZZ_PASSKEY FUZZ_PASSKEY_DOOMED
FUZZ_PASSKEY=$(python3 scripts/lib/passkey-register.py "$base" "$session" http://localhost)
passkey_owner=$(sign_in +14155550128 | field accessToken)
FUZZ_PASSKEY_DOOMED=$(python3 scripts/lib/passkey-register.py "$base" "$passkey_owner" http://localhost)

# SubscriptionFlow: a live account token for the app's calls, another one to revoke.
server="Authorization: Bearer $(field apiKey <"$creds")"
account=$(call POST /api/v1/mobile-stores/account-tokens "$server" '{"customer_id":"fuzz-customer"}')
export FUZZ_SF_REVOKED; FUZZ_SF_REVOKED=$(call POST /api/v1/mobile-stores/account-tokens "$server" '{"customer_id":"fuzz-revoked"}' | field data.account_token)

# Possession: the client's access token, a flow to validate, one to begin, a device token.
export FUZZ_PROVE_CLIENT FUZZ_PROVE_SECRET FUZZ_CORRELATION FUZZ_KEY FUZZ_POSSESSION_CLIENT
FUZZ_PROVE_CLIENT=$(field possession.clientId <"$creds")
FUZZ_PROVE_SECRET=$(field possession.clientSecret <"$creds")
access=$(curl -sS --fail-with-body "$base/token" -d "grant_type=client_credentials&client_id=$FUZZ_PROVE_CLIENT&client_secret=$FUZZ_PROVE_SECRET" | field access_token)
# A new flow for a number ends its last one: numbers of their own, none the examples use.
start() { call POST /v3/start "Authorization: Bearer $access" "{\"flowType\":\"mobile\",\"phoneNumber\":\"$1\",\"finalTargetUrl\":\"https://example.com/done\"}"; }
FUZZ_CORRELATION=$(start +12025550191 | field correlationId)
auth_token=$(start +12025550192 | field authToken)
device=$(call POST /api/possession/v1/begin "Authorization: Bearer $(start +12025550193 | field authToken)" '{"testMode":true}' | field deviceToken)

# Admin: a key and a possession client of its own to revoke, the prefix blocks the lifts draw
# (openapi-fuzz.toml, pinned-prefixes).
FUZZ_KEY=$(call POST "$tenant/keys" "$admin" '{"label":"fuzz"}' | field key.id)
FUZZ_POSSESSION_CLIENT=$(call POST "$tenant/possession/clients" "$admin" '{"label":"fuzz"}' | field clientId)
for n in $(seq -f %03g 0 59); do call POST "$tenant/prefix-blocks" "$admin" "{\"prefix\":\"+4474$n\",\"applicationId\":\"$FUZZ_OTP_APP\"}" >/dev/null; done

checks=not_a_server_error,response_schema_conformance,content_type_conformance,status_code_conformance
run() { # document, what the run covers, then schemathesis options (credentials stay out of the log)
    local document=$1 part=$2
    shift 2
    echo "conformance: schemathesis on /openapi/$document.json: $part"
    "$st" --config-file scripts/openapi-fuzz.toml run "$base/openapi/$document.json" --url "$base" --checks "$checks" \
        --max-examples "$examples" --seed 20261201 --no-color "$@"
}
# Runs whose operations have no links between them (each needs a token of its own) skip the
# stateful phase, which has nothing to follow there.
unlinked=examples,coverage,fuzzing
run verification "start, status, report" --auth "$(field verification.appKey <"$creds"):$(field verification.secret <"$creds")"
run datacove "the app's calls" -H "$bearer" -H "$ios" -H 'X-App-Version: 1.0' \
    --exclude-path-regex '^/api/tenants/|/reports/v1/stream$|/callbacks/|/files/|/logout$|/users/v1/account$|/sessions/|/passkeys/\{id\}$'
run datacove "renaming a passkey" -H "$bearer" --phases "$unlinked" --include-name 'PATCH /api/auth/v1/passkeys/{id}'
# What ends a session, on sessions of their own: once ended, the rest of each run meets a
# closed session.
run datacove "signing a device out" -H "Authorization: Bearer $signed_out" --phases "$unlinked" --include-path-regex '/sessions/'
# Deleting a passkey, on one of its own: once deleted, the rest of the run meets a 404.
run datacove "deleting a passkey" -H "Authorization: Bearer $passkey_owner" --phases "$unlinked" \
    --include-name 'DELETE /api/auth/v1/passkeys/{id}'
run datacove "logout and account deletion" -H "Authorization: Bearer $doomed" --phases "$unlinked" \
    --include-path-regex '/logout$|/users/v1/account$'
run datacove "store setup" -H "$admin" --include-path-regex '^/api/tenants/'
run subscriptionflow "backend and app" -H "$server" -H "X-SF-Account-Token: $(field data.account_token <<<"$account")" \
    -H "X-SF-Client-Secret: $(field data.client_secret <<<"$account")"
run managed-apis "list and definition" -H "$bearer" --exclude-path-regex '/proxy'
run possession "token and v3" -H "Authorization: Bearer $access" --include-path-regex '^/(token|v3/)'
run possession "device begin" -H "Authorization: Bearer $auth_token" --phases "$unlinked" --include-path-regex '/begin$'
run possession "device steps" -H "Authorization: Bearer $device" --phases "$unlinked" --include-path-regex '^/api/possession/v1/' \
    --exclude-path-regex '/begin$'
# Last: the admin run disables and changes the tenant the others use.
run admin "every operation" -H "$admin"
