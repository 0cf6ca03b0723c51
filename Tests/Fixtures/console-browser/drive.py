"""Drives the operators' console in a real headless Chromium (Debian's chromium and
chromium-driver, through Selenium) and reports what a person would see.

Usage: drive.py CONFIG.json: the console's URL (and the same console as http://localhost, for
passkeys), a screenshot folder, four operators (admin, viewer, one only for the lockout check
and one for passkeys: email, password, TOTP secret), a tenant id, the views to look at and the
hostile strings seeded into the data (as the page must show them).
Writes {"checks": [{"name", "ok", "detail"}], "keySecret": "ghk_..."} to stdout (and to the
config's "report" file, if it names one) and exits 0
whatever the checks say (the Swift test asserts); exits 2 when it cannot set up at all.

Selenium Manager must never run (nothing may be downloaded): driver and browser are named by
path. Each operator signs in with a code once a run, since a TOTP code is accepted once per 30 s
step; the console allows 10 sign-ins a minute from one address, and a check that needs more
than the minute has left waits for the next (`room_for_sign_ins`).
"""
import base64
import hashlib
import hmac
import html
import http.server
import json
import os
import re
import struct
import shutil
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, UnexpectedAlertPresentException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
except ImportError as error:  # a setup failure: scripts/install-deps.sh test installs it
    print(f"selenium is not installed: {error}", file=sys.stderr)
    sys.exit(2)

# The h1 of a page that is not the one asked for (ConsoleFailure, and the sign-in redirect).
PROBLEM_TITLES = {"Forbidden", "Not found", "Not accepted", "Refused", "Something went wrong", "Too many requests", "Sign in"}
WRONG_SIGN_IN = "The email, password or code is wrong."
LOCKED = "Too many failed sign-ins"


def totp(secret, at):
    """RFC 6238 with the console's parameters: SHA-1, 6 digits, 30 s steps."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def fresh_code(secret):
    """A code with a few seconds of its step left, so it is still current when it arrives."""
    if 30 - time.time() % 30 < 4:
        time.sleep(30 - time.time() % 30 + 0.2)
    return totp(secret, time.time())


def code_after(secret, step):
    """A code of a step later than `step` (a code is accepted once per step), still current
    when it arrives. The console accepts the steps either side of now, as clocks drift, so
    when `step` is the current one the next step's code is taken at once instead of waiting
    up to 30 s for it: it is accepted until the end of the step after next."""
    now = int(time.time() // 30)
    if step == now:
        return totp(secret, (now + 1) * 30)
    while int(time.time() // 30) <= step:
        time.sleep(30 - time.time() % 30 + 0.2)
    return fresh_code(secret)


class Run:
    def __init__(self, config):
        self.config = config
        self.base = config["url"].rstrip("/")
        self.shots = Path(config["screenshots"])
        self.checks = []
        self.alerts = []  # texts of dialogs nobody asked for (a hostile string run as script)
        self.logs = {}  # browser console entries per session
        self.pages = {}  # path -> (innerText, DOM problems), for the hostile-string check
        self.key_secret = None
        self.sign_ins = []  # when each sign-in was posted (the console counts them per minute)
        self.drivers = []
        # Chromium leaves its singleton socket folder in TMPDIR when chromedriver ends it:
        # give the browsers a TMPDIR of this run's own, removed at the end.
        self.tmp = tempfile.mkdtemp(prefix="console-browser-")

    def record(self, name, ok, detail):
        self.checks.append({"name": name, "ok": bool(ok), "detail": detail})

    def attempt(self, name, step):
        """Runs one check; an exception fails that check only, so the others still run."""
        try:
            step()
        except UnexpectedAlertPresentException as error:
            self.alerts.append(error.alert_text)
            self.record(name, False, f"an alert opened: {error.alert_text!r}")
            for driver in self.drivers:  # "ignore" left it open: close it for the next check
                self.probe_alert(driver, note=False)
        except Exception as error:  # noqa: BLE001 — reported, never raised
            self.record(name, False, f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=3)}")

    # Browser plumbing

    def browser(self, label):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # A dialog stays open for the check that expects one (the pin's confirm); any other
        # fails the next command with UnexpectedAlertPresentException, which `attempt` notes.
        options.unhandled_prompt_behavior = "ignore"
        service = Service("/usr/bin/chromedriver", env=dict(os.environ, TMPDIR=self.tmp))
        driver = webdriver.Chrome(service=service, options=options)
        driver.set_page_load_timeout(30)
        driver.label = label
        self.logs[label] = []
        self.drivers.append(driver)
        return driver

    def close(self, driver):
        self.drivers.remove(driver)
        try:
            self.logs[driver.label] += driver.get_log("browser")
        except WebDriverException as error:  # a crashed browser: its log cannot be vouched for
            self.logs[driver.label].append({"level": "SEVERE", "source": "driver", "message": f"log unreadable: {error.msg}"})
        driver.quit()

    def load(self, driver, path):
        driver.get(path if path.startswith("http") else self.base + path)
        self.probe_alert(driver)
        return page(driver)

    def room_for_sign_ins(self, needed, allowed=10):
        """Waits for the console's next minute window (aligned to the epoch, as its counter is)
        when this one has no room for `needed` more sign-ins."""
        window = int(time.time() // 60)
        if sum(1 for at in self.sign_ins if int(at // 60) == window) + needed > allowed:
            time.sleep((window + 1) * 60 - time.time() + 0.5)

    def probe_alert(self, driver, note=True):
        try:
            alert = driver.switch_to.alert
            if note:
                self.alerts.append(alert.text)
            alert.dismiss()
        except NoAlertPresentException:
            pass


def page(driver):
    """What the browser shows: status (Navigation Timing), h1, visible text, path."""
    return driver.execute_script("""
        var nav = performance.getEntriesByType("navigation")[0];
        var h1 = document.querySelector("h1");
        return {status: nav ? nav.responseStatus : null, h1: h1 ? h1.innerText.trim() : "",
                text: document.body ? document.body.innerText : "", path: location.pathname + location.search};""")


def submitted(driver, action, timeout=15):
    """Runs `action` (a click or a key) and waits for the page it leads to."""
    mark(driver)
    action()
    return arrived(driver, timeout)


def mark(driver):
    driver.execute_script("window.driveOldPage = true")


def arrived(driver, timeout=15):
    """Waits for a new, loaded document: the mark goes with the old one. (An old element's
    staleness can fail with "Node with given id does not belong to the document".)"""
    def loaded(d):
        try:
            return d.execute_script("return !window.driveOldPage && document.readyState === 'complete'")
        except UnexpectedAlertPresentException:
            raise
        except WebDriverException:
            return False  # between two documents
    WebDriverWait(driver, timeout).until(loaded)
    return page(driver)


def dom_problems(driver):
    """Script elements other than console.js, and event-handler attributes: injected markup."""
    return driver.execute_script("""
        var found = [];
        document.querySelectorAll("script").forEach(function (s) {
          if (s.getAttribute("src") !== "/assets/console.js") found.push("script: " + s.outerHTML.slice(0, 120));
        });
        document.querySelectorAll("*").forEach(function (e) {
          for (var i = 0; i < e.attributes.length; i++)
            if (/^on/i.test(e.attributes[i].name)) found.push(e.tagName + " @" + e.attributes[i].name);
        });
        return found;""")


def sign_in(run, driver, account, base=""):
    """Signs in by keyboard alone: the email field has autofocus, Tab moves on, Enter sends.
    Returns (page after, notes on the keyboard path)."""
    run.load(driver, base + "/sign-in")
    notes = []
    focused = lambda: driver.execute_script("return document.activeElement && document.activeElement.name")
    for _ in range(10):  # should be 0 presses: the email field is autofocused
        if focused() == "email":
            break
        notes.append("Tab (email field not focused)")
        ActionChains(driver).send_keys(Keys.TAB).perform()
    ActionChains(driver).send_keys(account["email"], Keys.TAB).perform()
    notes.append(f"after email+Tab: {focused()}")
    ActionChains(driver).send_keys(account["password"], Keys.TAB).perform()
    notes.append(f"after password+Tab: {focused()}")
    code = fresh_code(account["totpSecret"])
    account["usedStep"] = int(time.time() // 30)
    run.sign_ins.append(time.time())
    after = submitted(driver, lambda: ActionChains(driver).send_keys(code, Keys.ENTER).perform())
    return after, notes


def check_admin_sign_in(run, driver):
    account = run.config["admin"]
    after, notes = sign_in(run, driver, account)
    if WRONG_SIGN_IN in after["text"]:
        # The code may have been spent in this step by the caller: one more try, next step.
        time.sleep(30 - time.time() % 30 + 0.2)
        after, more = sign_in(run, driver, account)
        notes += ["refused once, retried in the next step"] + more
    ok = after["path"] == "/" and after["h1"] == "Overview" and account["email"] in after["text"]
    run.record("admin signs in with the keyboard only", ok, {"page": after["path"], "h1": after["h1"], "status": after["status"], "keys": notes})


def check_views(run, driver):
    run.shots.mkdir(parents=True, exist_ok=True)
    for view in run.config.get("views", []):
        def one(view=view):
            shown = run.load(driver, view["path"])
            missing = [text for text in view.get("contains", []) if text not in shown["text"]]
            present = [text for text in view.get("absent", []) if text in shown["text"]]
            shot = run.shots / (view["name"] + ".png")
            driver.save_screenshot(str(shot))
            run.pages[view["path"]] = (shown["text"], dom_problems(driver))
            ok = shown["status"] == 200 and shown["h1"] not in PROBLEM_TITLES and not missing and not present
            run.record("view " + view["name"], ok, {"status": shown["status"], "h1": shown["h1"], "path": shown["path"],
                                                     "missing": missing, "present but should not be": present, "screenshot": str(shot)})
        run.attempt("view " + view["name"], one)


def check_key_created_once(run, driver):
    tenant_page = "/tenants/" + run.config["tenantId"]
    run.load(driver, tenant_page)
    form = driver.find_element(By.CSS_SELECTOR, "form[action$='/keys']")
    form.find_element(By.NAME, "label").send_keys("browser test key")
    shown = submitted(driver, lambda: form.find_element(By.XPATH, ".//button[normalize-space()='Create key']").click())
    secrets = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "output.secret")]
    secret = secrets[0] if len(secrets) == 1 and re.fullmatch(r"ghk_[0-9a-f]+\.[A-Za-z0-9_-]+", secrets[0]) else None
    again = run.load(driver, tenant_page)
    leaked = secret is not None and secret in driver.page_source
    run.key_secret = secret
    ok = secret is not None and shown["h1"] == "Key created" and again["status"] == 200 and not leaked
    run.record("key created and shown once", ok, {"h1": shown["h1"], "status": shown["status"], "path": shown["path"],
                                                   "secret shown": bool(secret), "in the reloaded tenant page": leaked})


def check_pin_and_lift(run, driver):
    tenant, prefix = run.config["tenantId"], "447400"
    run.load(driver, "/prefix-blocks?tenant=" + tenant)
    form = driver.find_element(By.CSS_SELECTOR, "form[action='/prefix-blocks/pin']")
    form.find_element(By.NAME, "prefix").send_keys(prefix)
    # The select starts on the application the page shows, not on "every application".
    Select(form.find_element(By.NAME, "application")).select_by_value("")
    mark(driver)  # before the dialog: it blocks scripts
    form.find_element(By.XPATH, ".//button[normalize-space()='Pin']").click()
    alert = WebDriverWait(driver, 5).until(EC.alert_is_present())  # console.js asks first
    question = alert.text
    alert.accept()
    pinned = arrived(driver)
    states = tenant_pins(driver, prefix)
    ok = "done=block-pinned" in pinned["path"] and "active" in states
    run.record("prefix 447400 pinned for the whole tenant", ok, {"confirm asked": question, "path": pinned["path"], "h1": pinned["h1"],
                                                                 "states of its tenant-wide rows": states})
    lift = driver.find_element(By.XPATH, f"//form[@action='/prefix-blocks/lift'][.//input[@name='prefix'][@value='{prefix}']]"
                                         "[.//input[@name='application'][@value='']]")
    lifted = submitted(driver, lambda: lift.find_element(By.TAG_NAME, "button").click())
    states = tenant_pins(driver, prefix)
    # A lifted tenant pin leaves the list (its row is deleted); a lifted application block stays, "lifted".
    ok = "done=block-lifted" in lifted["path"] and "Block lifted." in lifted["text"] and "active" not in states
    run.record("prefix 447400 lifted", ok, {"path": lifted["path"], "h1": lifted["h1"], "states of its tenant-wide rows": states})


def tenant_pins(driver, prefix):
    """The State cell of each row of the blocks table for `prefix` on every application."""
    rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in driver.find_elements(By.CSS_SELECTOR, "table tbody tr")]
    return [cells[7] for cells in rows if len(cells) > 7 and cells[0] == "+" + prefix and cells[2] == "every application"]


def post_refused(run, name, shown, why):
    ok = shown["status"] == 403 and shown["h1"] == "Forbidden"
    run.record(name, ok, {"status": shown["status"], "h1": shown["h1"], "path": shown["path"], "says": why(shown["text"])})


def check_viewer(run):
    driver = run.browser("viewer")
    try:
        after, notes = sign_in(run, driver, run.config["viewer"])
        run.record("viewer signs in", after["path"] == "/" and after["h1"] == "Overview", {"page": after["path"], "h1": after["h1"], "keys": notes})
        listed = run.load(driver, "/tenants")
        forms = driver.find_elements(By.CSS_SELECTOR, "form[action='/tenants']")
        run.record("viewer sees no create form", listed["h1"] == "Tenants" and not forms and "Create a tenant" not in listed["text"],
                   {"h1": listed["h1"], "create forms": len(forms)})
        shown = submitted(driver, lambda: driver.execute_script("""
            var form = document.createElement("form");
            form.method = "post"; form.action = "/tenants";
            [["csrf", document.querySelector("input[name=csrf]").value], ["name", "made by a viewer"]].forEach(function (pair) {
              var input = document.createElement("input"); input.type = "hidden"; input.name = pair[0]; input.value = pair[1];
              form.appendChild(input);
            });
            document.body.appendChild(form); form.submit();"""))
        post_refused(run, "viewer's POST is refused", shown, lambda text: "needs an admin" in text)
    finally:
        run.close(driver)


def check_post_without_token(run, driver):
    run.load(driver, "/tenants")
    shown = submitted(driver, lambda: driver.execute_script("""
        var form = document.querySelector("form[action='/tenants']");
        form.querySelector("input[name=csrf]").remove();
        form.querySelector("input[name=name]").value = "made without a token";
        form.submit();"""))
    post_refused(run, "POST without a token is refused", shown, lambda text: "token is missing" in text)


def check_cross_origin(run, driver):
    """A page on another origin (another port of 127.0.0.1: same site, so the SameSite cookie
    goes along) posts the console's form with a valid token: only the origin check can refuse."""
    run.load(driver, "/tenants")
    token = driver.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    markup = ("<!DOCTYPE html><title>Elsewhere</title><form method='post' action='%s/tenants'>"
              "<input name='name' value='made from elsewhere'><input type='hidden' name='csrf' value='%s'>"
              "<button type='submit' id='send'>Send</button></form>" % (html.escape(run.base), html.escape(token))).encode()

    class Elsewhere(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(markup)))
            self.end_headers()
            self.wfile.write(markup)

        def log_message(self, *args):  # keep stderr for setup failures
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        run.load(driver, "http://127.0.0.1:%d/" % server.server_address[1])
        shown = submitted(driver, lambda: driver.find_element(By.ID, "send").click())
    finally:
        server.shutdown()
    post_refused(run, "cross-origin POST is refused", shown, lambda text: "another site" in text)
    listed = run.load(driver, "/tenants")
    made = [name for name in ("made from elsewhere", "made without a token", "made by a viewer") if name in listed["text"]]
    run.record("refused POSTs created nothing", not made, {"tenants made anyway": made})


def check_lockout(run):
    driver = run.browser("lockout")
    account = run.config["lockout"]
    try:
        said = []
        for _ in range(5):
            after, _ = sign_in(run, driver, dict(account, password=account["password"] + " wrong"))
            said.append((after["status"], WRONG_SIGN_IN in after["text"], LOCKED in after["text"]))
        after, _ = sign_in(run, driver, account)
        ok = LOCKED in after["text"] and after["h1"] == "Sign in" and after["path"] == "/sign-in"
        run.record("lockout after five wrong passwords", ok, {"wrong attempts (status, 'wrong', 'locked')": said,
                                                              "right password then": {"status": after["status"], "h1": after["h1"], "locked": LOCKED in after["text"]}})
    finally:
        run.close(driver)


def passkey_sign_in(run, driver, base, email, password):
    """The sign-in page's passkey form: email and password typed, the code left to the
    authenticator (console.js asks it, puts its answer in the form and sends it)."""
    run.load(driver, base + "/sign-in")
    form = driver.find_element(By.CSS_SELECTOR, "form[data-passkey-get]")
    form.find_element(By.NAME, "email").send_keys(email)
    form.find_element(By.NAME, "password").send_keys(password)
    run.sign_ins.append(time.time())
    return submitted(driver, lambda: form.find_element(By.TAG_NAME, "button").click())


def check_passkey(run):
    """An operator adds a passkey from their account page (Chromium's virtual authenticator, a
    platform one with user verification; the forms show only where the browser has passkeys),
    with a current code, signs out and back in with password and passkey; the
    passkey with a wrong password is refused; once removed, the passkey signs no one in.
    On http://localhost: an rpId is a host name, and the browser refuses 127.0.0.1."""
    account, base = run.config["passkey"], run.config["passkeyUrl"].rstrip("/")
    driver = run.browser("passkey")
    try:
        driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
            protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True, has_user_verification=True, is_user_verified=True))
        run.room_for_sign_ins(5)
        after, _ = sign_in(run, driver, account, base=base)
        run.record("passkey operator signs in with the code on localhost", after["path"] == "/" and after["h1"] == "Overview",
                   {"page": after["path"], "h1": after["h1"], "status": after["status"]})
        run.load(driver, base + "/account")
        form = driver.find_element(By.CSS_SELECTOR, "form[data-passkey-create]")
        name = form.find_element(By.NAME, "name")
        name.clear()
        name.send_keys("Browser passkey")
        # A passkey is a new way in: the authenticator's code is asked too, one of a later step.
        form.find_element(By.NAME, "code").send_keys(code_after(account["totpSecret"], account["usedStep"]))
        added = submitted(driver, lambda: form.find_element(By.TAG_NAME, "button").click())
        held = driver.get_credentials()
        run.record("a passkey is added from the account page",
                   "done=passkey-added" in added["path"] and "Browser passkey" in added["text"] and len(held) == 1 and held[0].is_resident_credential,
                   {"path": added["path"], "h1": added["h1"], "status": added["status"], "credentials in the authenticator": len(held)})

        submitted(driver, lambda: driver.find_element(By.CSS_SELECTOR, "form[action='/sign-out'] button").click())
        wrong = passkey_sign_in(run, driver, base, account["email"], account["password"] + " wrong")
        run.record("the passkey with a wrong password is refused", WRONG_SIGN_IN in wrong["text"] and wrong["path"] == "/sign-in",
                   {"path": wrong["path"], "h1": wrong["h1"], "status": wrong["status"]})
        right = passkey_sign_in(run, driver, base, account["email"], account["password"])
        used = driver.get_credentials()
        run.record("the operator signs in with password and passkey",
                   right["path"] == "/" and right["h1"] == "Overview" and account["email"] in right["text"] and used and used[0].sign_count >= 1,
                   {"page": right["path"], "h1": right["h1"], "status": right["status"], "sign count": used[0].sign_count if used else None})

        run.load(driver, base + "/account")
        remove = driver.find_element(By.CSS_SELECTOR, "form[action^='/account/passkeys/'][action$='/remove']")
        mark(driver)  # before the dialog: it blocks scripts
        remove.find_element(By.TAG_NAME, "button").click()
        WebDriverWait(driver, 5).until(EC.alert_is_present()).accept()
        removed = arrived(driver)
        run.record("the passkey is removed", "done=passkey-removed" in removed["path"] and "No passkeys." in removed["text"],
                   {"path": removed["path"], "h1": removed["h1"], "status": removed["status"]})
        submitted(driver, lambda: driver.find_element(By.CSS_SELECTOR, "form[action='/sign-out'] button").click())
        gone = passkey_sign_in(run, driver, base, account["email"], account["password"])
        run.record("a removed passkey signs no one in", WRONG_SIGN_IN in gone["text"] and gone["path"] == "/sign-in",
                   {"path": gone["path"], "h1": gone["h1"], "status": gone["status"]})
    finally:
        run.close(driver)


def check_hostile(run, driver):
    """Each seeded string shows as text on some page; no page has injected script or handlers."""
    paths = ["/", "/tenants", "/prefix-blocks", "/operators", "/audit"]
    run.load(driver, "/tenants")
    paths += [a.get_attribute("pathname") for a in driver.find_elements(By.CSS_SELECTOR, "main a[href^='/tenants/']")][:20]
    for path in paths:
        if path not in run.pages:
            shown = run.load(driver, path)
            run.pages[path] = (shown["text"], dom_problems(driver))
    squeeze = lambda text: " ".join(text.split())  # innerText folds runs of white space
    found = {s: [p for p, (text, _) in run.pages.items() if s in text or squeeze(s) in squeeze(text)] for s in run.config.get("hostile", [])}
    missing = [s for s, where in found.items() if not where]
    injected = {p: problems for p, (_, problems) in run.pages.items() if problems}
    run.record("hostile strings shown as text, never run", not missing and not injected and not run.alerts,
               {"found on": found, "missing": missing, "injected markup": injected, "alerts": run.alerts})


def check_console_logs(run):
    """No CSP refusal and no script error in any session; refused requests (401/403) that the
    checks provoke on purpose show as network entries and are listed, not failed."""
    bad = []
    for label, entries in run.logs.items():
        for entry in entries:
            message = entry.get("message", "")
            # Chromium 156 words a CSP refusal "... violates the following Content Security
            # Policy directive ... The action has been blocked." with source "security".
            if ("Content Security Policy" in message or "Refused to" in message or "Uncaught" in message
                    or entry.get("source") in ("javascript", "security", "driver")):
                bad.append(f"{label}: {message}")
    run.record("no CSP violation or script error in the browser console", not bad,
               {"offending": bad, "entries": {label: [f"{e.get('level')} {e.get('source')}: {e.get('message')}" for e in entries]
                                              for label, entries in run.logs.items()}})


def main():
    run = None
    try:
        run = Run(json.loads(Path(sys.argv[1]).read_text()))
        admin = run.browser("admin")
    except Exception as error:  # noqa: BLE001 — no config or no browser: nothing to test
        print(f"setup failed: {type(error).__name__}: {error}", file=sys.stderr)
        if run:
            shutil.rmtree(run.tmp, ignore_errors=True)
        sys.exit(2)
    try:
        run.attempt("admin signs in with the keyboard only", lambda: check_admin_sign_in(run, admin))
        # Destructive actions first, while the sign-in still counts as the password confirmation.
        run.attempt("key created and shown once", lambda: check_key_created_once(run, admin))
        run.attempt("prefix 447400 pinned and lifted", lambda: check_pin_and_lift(run, admin))
        check_views(run, admin)
        run.attempt("POST without a token is refused", lambda: check_post_without_token(run, admin))
        run.attempt("cross-origin POST is refused", lambda: check_cross_origin(run, admin))
        run.attempt("viewer", lambda: check_viewer(run))
        run.attempt("lockout after five wrong passwords", lambda: check_lockout(run))
        run.attempt("passkey as the second factor", lambda: check_passkey(run))
        run.attempt("hostile strings shown as text, never run", lambda: check_hostile(run, admin))
    finally:
        run.close(admin)
        shutil.rmtree(run.tmp, ignore_errors=True)
    check_console_logs(run)
    report = {"checks": run.checks, "keySecret": run.key_secret}
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    # Also to a file when asked: the caller's output also holds Chromium's own messages.
    if run.config.get("report"):
        Path(run.config["report"]).write_text(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    main()
