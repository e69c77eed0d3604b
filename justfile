# Developer recipes. Install just with `cargo install just` (optional: every recipe
# is a plain cargo command you can run yourself).

# Run the service in development mode (private database under ./.data).
run:
    cargo run

# Run every test (the same command CI runs).
test:
    cargo test --workspace

# Lints as CI runs them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Format the code.
fmt:
    cargo fmt --all

# Regenerate the committed OpenAPI snapshot (crates/api/openapi.json) from the handlers.
openapi:
    UPDATE_OPENAPI_SNAPSHOT=1 cargo test -p opinion-api --test openapi

# Fuzz the operator API from its OpenAPI document (schemathesis, installed under
# target/fuzz/venv if missing) against the release service, with a full-access key and a
# restricted one. FUZZ_SMOKE=1 for a quick run, FUZZ_MAX_EXAMPLES=<n> to go further.
fuzz:
    scripts/fuzz.sh

# Open psql on the private development database (start the service once first).
db-shell:
    psql "postgres://postgres@127.0.0.1:$(sed -n 4p .data/pg/postmaster.pid)/opinion"

# The benchmark suite: release build, private PostgreSQL, every scenario against the
# pgbench and /healthz baselines; writes bench/results/latest.{json,md} (~10 minutes).
bench:
    cargo run --release -p opinion-bench

# The benchmark suite with the reads growth curve's 10M point: after the other
# scenarios, seeds up to 100,000 trades per operator (10,000,000 in all) and measures the
# trades pages again (several minutes more of seeding).
bench-growth:
    OPINION_BENCH_GROWTH=true cargo run --release -p opinion-bench

# The soak: two instances of the release service on one private PostgreSQL for 30 minutes
# under trading load, with a wallet that times out, fails, answers garbage and drops
# connections, webhook receivers that fail and recover, and the second instance killed
# and restarted every 4 minutes; then a reconciliation of money and events, and memory.
# Exits non-zero on any loss, double application or growth. SOAK_DURATION, SOAK_KILL_EVERY,
# SOAK_FAULT_* and more (docs/reliability.md); SOAK_SMOKE=1 for a two-minute run.
soak:
    cargo run -p opinion-bench --bin opinion-soak
