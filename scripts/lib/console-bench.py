#!/usr/bin/env python3
"""The console's bench row: a month of traffic seeded into a development server's database,
then an operator signed in through the console's own form, so that wrk can load the overview
with the session cookie.

  console-bench.py seed DATABASE      DATABASE: a SQLite file, or a postgres:// URL (psql)
  console-bench.py sign-in CONSOLE_URL EMAIL PASSWORD TOTP_URI   prints the Cookie header value

The traffic is what the overview reads: hourly sent/verified counts per country (4 shards, as
busy nodes write them) and per prefix, a blocked prefix every few hours, workflow runs and
subscriptions, all for the development tenant's OTP applications, over the 31 days to now.
"""
import base64, hashlib, hmac, html.parser, http.cookiejar, struct, subprocess, sys, time, urllib.parse, urllib.request
import sqlite3

DAYS = 31
COUNTRIES = [("US", "1"), ("GB", "44"), ("DE", "49"), ("FR", "33"), ("IN", "91"), ("BR", "55"), ("NG", "234"), ("ID", "62"),
             ("MX", "52"), ("CA", "1"), ("ES", "34"), ("IT", "39"), ("PH", "63"), ("VN", "84"), ("TR", "90"), ("PK", "92")]


def seed_sql(now_us):
    hour_us = 3_600_000_000
    start = (now_us // hour_us - DAYS * 24) * hour_us
    hours = DAYS * 24
    # One recursive series of hours, crossed with the countries and shards: the same SQL text
    # runs on SQLite and PostgreSQL.
    countries = " UNION ALL ".join(f"SELECT '{code}' AS c, '{cc}' AS cc, {i} AS k" for i, (code, cc) in enumerate(COUNTRIES))
    series = f"WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < {hours - 1})"
    apps = "(SELECT id FROM otp_applications)"
    # The development tenant, the first made: the bench's tenant row adds some 200,000 more,
    # and crossing the series with every one of them took the seed tens of minutes.
    tenant = "(SELECT id FROM tenants ORDER BY created_at, id LIMIT 1)"
    return f"""
{series}, countries AS ({countries}), shards(s) AS (SELECT 0 UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)
INSERT INTO verification_conversion_counts (application_id, scope, value, hour_start, shard, sent, verified)
SELECT a.id, 'country', countries.c, {start} + h.n * {hour_us}, shards.s, 20 + (h.n * 7 + countries.k * 13) % 40, 12 + (h.n * 5 + countries.k) % 20
FROM h, countries, shards, {apps} a WHERE 1 = 1 ON CONFLICT DO NOTHING;
{series}, countries AS ({countries}), shards(s) AS (SELECT 0 UNION ALL SELECT 1)
INSERT INTO verification_conversion_counts (application_id, scope, value, hour_start, shard, sent, verified)
SELECT a.id, 'prefix', countries.cc || '7' || CAST(countries.k AS TEXT), {start} + h.n * {hour_us}, shards.s, 40, 25
FROM h, countries, shards, {apps} a WHERE 1 = 1 ON CONFLICT DO NOTHING;
{series}
INSERT INTO verification_prefix_blocks (application_id, prefix, country, reason, sent, verified, baseline_permille, blocked_at, blocked_until, lifted_at)
SELECT a.id, '9' || CAST(100000 + h.n AS TEXT), 'GB', 'conversion', 60, 2, 620, {start} + h.n * {hour_us}, {start} + h.n * {hour_us} + 43200000000, NULL
FROM h, {apps} a WHERE h.n % 5 = 0 ON CONFLICT DO NOTHING;
{series}, per(r) AS (SELECT 0 UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)
INSERT INTO workflow_runs (id, tenant_id, account_id, workflow_id, status, input, files, credits, credits_refunded, attempts, available_at,
  created_at, started_at, finished_at, files_removed)
SELECT 'bench-run-' || CAST(h.n AS TEXT) || '-' || CAST(per.r AS TEXT), t.id, 'bench-account-' || CAST(h.n % 50 AS TEXT), 'wf-url-001',
  CASE WHEN per.r = 3 AND h.n % 3 = 0 THEN 'failed' ELSE 'succeeded' END, '{{}}', '[]', 1, 0, 1,
  {start} + h.n * {hour_us}, {start} + h.n * {hour_us}, {start} + h.n * {hour_us}, {start} + h.n * {hour_us} + 2000000, {false_literal()}
FROM h, per, {tenant} t WHERE 1 = 1 ON CONFLICT DO NOTHING;
{series}
INSERT INTO commerce_subscriptions (id, tenant_id, original_transaction_id, account_id, plan_id, platform_product_id, product_type, environment,
  ownership_type, latest_transaction_id, purchased_at, expires_at, last_event_at, updated_at)
SELECT 'bench-sub-' || CAST(h.n AS TEXT), t.id, 'bench-otx-' || CAST(h.n AS TEXT), 'bench-account-' || CAST(h.n % 50 AS TEXT), 'pro', 'pro.monthly',
  'Auto-Renewable Subscription', 'Production', 'PURCHASED', 'bench-tx-' || CAST(h.n AS TEXT), {start} + h.n * {hour_us},
  {start} + h.n * {hour_us} + 2592000000000, {start} + h.n * {hour_us}, {start} + h.n * {hour_us}
FROM h, {tenant} t WHERE h.n % 2 = 0 ON CONFLICT DO NOTHING;
"""


BOOLEAN = {"sqlite": "0", "postgres": "false"}
kind = "sqlite"


def false_literal():
    return BOOLEAN[kind]


def seed(database):
    global kind
    now_us = int(time.time() * 1_000_000)
    if database.startswith("postgres"):
        kind = "postgres"
        subprocess.run(["psql", database, "-v", "ON_ERROR_STOP=1", "-q"], input=seed_sql(now_us), text=True, check=True)
    else:
        connection = sqlite3.connect(database, timeout=30)
        connection.executescript(seed_sql(now_us))
        connection.commit()
        connection.close()


class CSRF(html.parser.HTMLParser):
    token = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "input" and values.get("name") == "csrf":
            self.token = values.get("value")


def totp(uri, at):
    secret = urllib.parse.parse_qs(urllib.parse.urlparse(uri).query)["secret"][0]
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def sign_in(url, email, password, uri):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    parser = CSRF()
    parser.feed(opener.open(url + "/sign-in").read().decode())
    form = urllib.parse.urlencode({"csrf": parser.token, "email": email, "password": password, "code": totp(uri, time.time())}).encode()
    request = urllib.request.Request(url + "/sign-in", data=form, headers={"Origin": url, "Sec-Fetch-Site": "same-origin"})
    try:
        opener.open(request)
    except urllib.error.HTTPError as error:
        if error.code != 303:
            sys.exit("console sign-in answered %d" % error.code)
    cookies = [c for c in jar if c.name == "gatehouse-console"]
    if not cookies:
        sys.exit("console sign-in set no session cookie")
    print("%s=%s" % (cookies[0].name, cookies[0].value))


if __name__ == "__main__":
    if sys.argv[1] == "seed":
        seed(sys.argv[2])
    elif sys.argv[1] == "sign-in":
        sign_in(*sys.argv[2:6])
    else:
        sys.exit(__doc__)
