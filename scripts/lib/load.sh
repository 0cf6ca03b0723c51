# Shared by the scripts that drive the release server under load (bench.sh, lock-waits.sh).
# Source it after `cd` to the repository; `$who` names the calling script in messages.

# A free TCP port on loopback.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# need_tools TOOL...: stops, naming the install step, when a tool is missing.
need_tools() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$who: $tool not found (scripts/install-deps.sh bench)" >&2; exit 1; }
    done
}

# need_release PRODUCT...: stops when a release binary is missing.
need_release() {
    local product
    for product in "$@"; do
        [[ -x ".build/release/$product" ]] || { echo "$who: .build/release/$product missing (swift build -c release --product $product)" >&2; exit 1; }
    done
}
