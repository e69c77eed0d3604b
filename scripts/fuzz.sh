#!/usr/bin/env bash
# Property-based HTTP fuzzing of the operator API from its own OpenAPI document
# (schemathesis): the release service on a private data directory and a free loopback
# port, fuzzed once with the demo operator's full-access key and once with a restricted
# key made over the API. Exits non-zero on any failure (a server error, an answer that
# breaks the document, a schema-valid request refused, ...).
#
#   FUZZ_MAX_EXAMPLES  examples per operation and phase (default 100)
#   FUZZ_SMOKE=1       a quick run: 10 examples
#   FUZZ_SEED          schemathesis seed (default: a new one, printed)
#   FUZZ_KEEP=1        keep target/fuzz/data (the service's data) after the run
#   FUZZ_PROFILE=debug fuzz the debug build instead of the release one (quicker to build)
#   FUZZ_SERVICE_BINARY a service binary built beforehand, fuzzed as it is (nothing built)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/target/fuzz"
data="$work/data"
venv="$work/venv"
schemathesis_version="4.32.5"
max_examples="${FUZZ_MAX_EXAMPLES:-100}"
if [[ "${FUZZ_SMOKE:-0}" == "1" ]]; then
    max_examples=10
fi

# Operations left out, and why (printed with every run).
#  - revoking a key: the stateful phase would revoke the key it fuzzes with (it finds
#    the key's own id in the key list) and every later request would only see 401.
excluded_paths='^/api/operator/api-keys/\{id\}/revoke$'
echo "fuzz: excluded: POST /api/operator/api-keys/{id}/revoke (it would revoke the fuzzing key itself)"
# Refusals no schema can announce, each excluded for one check and one problem answer
# (scripts/fuzz_hooks.py, which also corrects the fuzzer's spelling of integers).
python3 "$root/scripts/fuzz_hooks.py"

profile="${FUZZ_PROFILE:-release}"
if [[ -n "${FUZZ_SERVICE_BINARY:-}" ]]; then
    binary="$FUZZ_SERVICE_BINARY"
    if [[ ! -x "$binary" ]]; then
        echo "fuzz: FUZZ_SERVICE_BINARY=$binary is not an executable file" >&2
        exit 2
    fi
    echo "fuzz: using the service binary $binary"
elif [[ "$profile" == "release" ]]; then
    echo "fuzz: building the release service"
    cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin opinion
    binary="$root/target/release/opinion"
else
    echo "fuzz: building the debug service"
    cargo build --quiet --manifest-path "$root/Cargo.toml" --bin opinion
    binary="$root/target/debug/opinion"
fi

if [[ ! -x "$venv/bin/schemathesis" ]]; then
    echo "fuzz: installing schemathesis $schemathesis_version into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "schemathesis==$schemathesis_version"
fi

rm -rf "$data"
mkdir -p "$data"
log="$work/service.log"
service_pid=""
stop_service() {
    if [[ -n "$service_pid" ]] && kill -0 "$service_pid" 2>/dev/null; then
        kill -TERM "$service_pid"
        wait "$service_pid" 2>/dev/null || true
    fi
    if [[ "${FUZZ_KEEP:-0}" != "1" ]]; then
        rm -rf "$data"
    fi
}
trap stop_service EXIT

# The service refuses OPINION_* variables it does not know, and the fuzzer's own must not
# leak into it.
env -u DATABASE_URL \
    OPINION_ENV=development \
    OPINION_HOST=127.0.0.1 \
    OPINION_PORT=0 \
    OPINION_DATA_DIR="$data" \
    OPINION_OPERATOR_RATE_LIMIT_PER_MINUTE=1000000 \
    RUST_LOG=warn \
    "$binary" >"$log" 2>&1 &
service_pid=$!

base=""
for _ in $(seq 1 300); do
    base="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$log" | head -n 1)"
    [[ -n "$base" ]] && break
    if ! kill -0 "$service_pid" 2>/dev/null; then
        echo "fuzz: the service stopped before listening:" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    sleep 0.2
done
if [[ -z "$base" ]]; then
    echo "fuzz: the service did not print its listen address within 60 s" >&2
    exit 1
fi
echo "fuzz: service at $base"

full_key="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["apiKey"])' "$data/dev-credentials.json")"
restricted_key="$(curl --silent --show-error --fail \
    -H "Authorization: Bearer $full_key" -H 'Content-Type: application/json' \
    -d '{"name":"fuzz restricted","scopes":["markets:read","trades:read"]}' \
    "$base/api/operator/api-keys" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')"

seed_args=()
if [[ -n "${FUZZ_SEED:-}" ]]; then
    seed_args=(--seed "$FUZZ_SEED")
fi

status=0
run() {
    local name="$1" key="$2"
    echo "fuzz: === $name key, $max_examples examples per operation ==="
    # Run from target/fuzz: schemathesis keeps its cache in the working directory.
    (cd "$work" && SCHEMATHESIS_HOOKS="$root/scripts/fuzz_hooks.py" "$venv/bin/schemathesis" \
        --config-file "$root/scripts/fuzz.toml" run "$base/api/operator/openapi.json" \
        --url "$base" \
        -H "Authorization: Bearer $key" \
        --checks all \
        --max-examples "$max_examples" \
        --exclude-path-regex "$excluded_paths" \
        --report junit --report-dir "$work/report-$name" \
        --no-color \
        "${seed_args[@]}") || status=1
}
run full "$full_key"
run restricted "$restricted_key"

if [[ "$status" -ne 0 ]]; then
    echo "fuzz: FAILED (reports under $work/report-*)" >&2
else
    echo "fuzz: no failure"
fi
exit "$status"
