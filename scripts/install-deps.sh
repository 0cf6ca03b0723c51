#!/usr/bin/env bash
# Installs the Debian packages a task needs, touching apt only when one is missing,
# so repeated `make` runs stay fast and quiet.
# Usage: scripts/install-deps.sh build|test|bench
# DRY_RUN=1 prints what would be installed instead of installing it.
set -euo pipefail

# poppler-utils (pdfinfo) and unzip: the built-in document-digest workflow reads PDFs and DOCX files with them.
# libqrencode-dev: the console draws an operator's TOTP URI as a QR code.
# libpsl-dev: a passkey's relying party id must be a registrable domain (the Public Suffix List).
build=(libmicrohttpd-dev libsqlite3-dev libpq-dev libssl-dev libcurl4-openssl-dev ca-certificates libphonenumber-dev pkg-config poppler-utils unzip
    libqrencode-dev libpsl-dev)
case "${1:-}" in
    build) wanted=("${build[@]}") ;;
    # python3 picks free ports and reads JSON in the test and bench scripts.
    # librsvg2-bin and zbar-tools: the QR code tests draw the SVG as PNG and read it back with zbarimg.
    # chromium and chromium-driver: the console's browser test drives a real headless Chromium
    # through Selenium (Tests/Fixtures/console-browser); Debian's build, since nothing else may
    # be downloaded, so Selenium is pointed at /usr/bin/chromium and /usr/bin/chromedriver.
    # gdb: a test process whose concurrency pool stops is reported with its threads' stacks.
    test) wanted=("${build[@]}" postgresql wrk curl python3 librsvg2-bin zbar-tools chromium chromium-driver gdb) ;;
    # linux-perf: `perf record` for profiling a bench row (see README, Benchmark).
    bench) wanted=("${build[@]}" postgresql wrk curl python3 linux-perf) ;;
    *) echo "usage: $0 build|test|bench" >&2; exit 2 ;;
esac
# From PyPI, on exit, once apt has provided python3 (a failed pip install fails the script):
# aiosmtpd, the real SMTP server the SMTP delivery tests talk to; Authlib and Flask, on which
# the tests' OAuth 2.0 authorization server (Tests/Fixtures/oauth-provider) is built.
python_packages() {
    python3 -c "import aiosmtpd" 2>/dev/null || python3 -m pip install --quiet aiosmtpd==1.4.6 || return 1
    python3 -c "import authlib, flask" 2>/dev/null || python3 -m pip install --quiet authlib==1.6.5 "flask>=3,<4" || return 1
    # Google's own libraries: google-auth checks the service-account grants of the Google Play
    # stand-in, whose purchases are checked against the Play API's discovery document.
    python3 -c "import google.auth, googleapiclient" 2>/dev/null ||
        python3 -m pip install --quiet google-auth==2.63.0 google-api-python-client==2.202.0 || return 1
    # Selenium, which drives Debian's chromium in the console's browser test. 4.51.0: 4.52 and
    # later require a certifi newer than PyPI serves here, so they cannot install.
    python3 -c "import selenium" 2>/dev/null || python3 -m pip install --quiet selenium==4.51.0 || return 1
    # py_webauthn, an independent relying party the passkey checks are compared with, case by case.
    python3 -c "import webauthn" 2>/dev/null || python3 -m pip install --quiet webauthn==3.0.1 || return 1
}
[[ $1 == test && -z "${DRY_RUN:-}" ]] && trap 'python_packages || exit 1' EXIT

# dpkg-query exits non-zero for a package it has never heard of; both cases mean "missing".
is_installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

missing=()
for package in "${wanted[@]}"; do
    is_installed "$package" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ -n "${DRY_RUN:-}" ]]; then
    echo "would install: ${missing[*]}"
    exit 0
fi

echo "installing: ${missing[*]}" >&2
# Root on CI and dev machines; sudo only where someone runs this as a user.
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
