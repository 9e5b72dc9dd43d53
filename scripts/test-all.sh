#!/usr/bin/env bash
# Runs every test of the workspace. Stops at the first failure (non-zero exit).
# Steps: rustfmt, clippy, docs, unit + integration + doc tests (optimised, stress included),
# loom models, the examples, Miri, ThreadSanitizer on the queue and pool tests, the README's
# main command on a bare copy of the repository (no ../shared beside it) and the quick
# benchmark (so the harness cannot rot). Tests, models and examples build with the `ci`
# profile (release optimisation, faster to link: see Cargo.toml); the tour and the quick
# benchmark run as the README shows them, with `--release`.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s  [%s]\n' "$*" "$(date -u +%T)"; }

step "rustfmt"
cargo fmt --all -- --check

step "clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

step "unit, stress and doc tests"
cargo test --workspace --profile ci

step "loom models (bounds: see the test files)"
# The FIFO Figure 9 client is one model that runs for minutes on one thread while the
# others take seconds: it runs in the background, beside the steps up to Miri (whose
# interpreter also leaves a core free), and is waited for before ThreadSanitizer.
loom_queue() {
  RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
    cargo test --profile ci -p magpie-queue --test loom_bwos --test loom_twolock "$@"
}
# The queue's loom-only code (models, shims, cfg(loom) constants) is linted too.
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
  cargo clippy -p magpie-queue --all-targets -- -D warnings
# One build; its output is shown and gives the loom_bwos binary's path.
loom_bwos=$(loom_queue --no-run 2>&1 | tee /dev/stderr |
  sed -n 's/.*Executable tests\/loom_bwos.rs (\(.*\))$/\1/p')
test -x "$loom_bwos" || { echo "the loom_bwos test binary was not found" >&2; exit 1; }
fifo_figure9_log=$(mktemp)
"$loom_bwos" --exact fifo_figure9_client >"$fifo_figure9_log" 2>&1 &
fifo_figure9_pid=$!
trap 'kill "$fifo_figure9_pid" 2>/dev/null || true' EXIT  # a failing step stops it too
loom_queue -- --skip fifo_figure9_client
# The pool's sleep protocol (crates/magpie/src/sleep.rs, module loom_tests).
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
  cargo test --profile ci -p magpie --lib loom_tests
# The async runtime's park protocol (crates/magpie-async/src/park.rs); its own cfg, since
# async-io's dependencies do not build under cfg(loom).
RUSTFLAGS="--cfg magpie_async_loom" CARGO_TARGET_DIR=target/loom-async \
  cargo test --profile ci -p magpie-async --lib park::tests

step "distributed search over MPI (feature mpi; needs OpenMPI)"
if command -v mpirun >/dev/null && command -v mpicc >/dev/null; then
  cargo clippy -p magpie-cli -p magpie-dist --features magpie-cli/mpi --all-targets -- -D warnings
  cargo test --profile ci -p magpie-cli --features mpi --test mpi
  # The distributed benchmarks in quick mode, so their harness cannot rot.
  cargo run --profile ci -q -p magpie-cli --features mpi -- bench dist --quick --out target/bench-dist
  cargo run --profile ci -q -p magpie-cli --features mpi -- bench nodepolicy --quick --out target/bench-nodepolicy
else
  echo "!!!!!!!! SKIPPED: OpenMPI is not installed (apt install libopenmpi-dev openmpi-bin libclang-dev) !!!!!!!!"
fi

step "examples"
for ex in fib quicksort par_iter; do
  cargo run --profile ci -q -p magpie --example "$ex" -- --quick
done
cargo run --profile ci -q -p magpie-queue --example tree_count -- 16 2
cargo run --profile ci -q -p magpie-search --example queens_and_subset_sum -- 9
cargo run --profile ci -q -p magpie-dist --example local_ranks -- 16
cargo run --profile ci -q -p magpie-async --example echo -- 50

step "Miri (queue unit tests, pool smoke test, search engine, async executor core)"
if cargo +nightly miri --version >/dev/null 2>&1; then
  MIRIFLAGS="-Zmiri-strict-provenance" cargo +nightly miri test -p magpie-queue --lib
  # The pool's unsafe paths at Miri size; topology detection reads sysfs, which Miri's
  # isolation refuses: the pool then falls back to a uniform topology.
  MIRIFLAGS="-Zmiri-strict-provenance -Zmiri-isolation-error=warn-nobacktrace" \
    cargo +nightly miri test -p magpie --test miri_smoke
  MIRIFLAGS="-Zmiri-strict-provenance" cargo +nightly miri test -p magpie --lib -- job_cache slot_order slab prefault
  # The search engine's pointers to the generators on a task's path (splits, hand-offs,
  # panics) on a small tree.
  MIRIFLAGS="-Zmiri-strict-provenance -Zmiri-isolation-error=warn-nobacktrace" \
    cargo +nightly miri test -p magpie-search --lib engine
  # The async executor's core (tasks, BWoS run queue, injector, registry, shutdown) on one
  # thread without the async-io reactor, whose epoll/threads are out of Miri's scope.
  MIRIFLAGS="-Zmiri-strict-provenance" cargo +nightly miri test -p magpie-async --lib tests
else
  echo "!!!!!!!! SKIPPED: Miri is not installed (rustup component add miri rust-src --toolchain nightly) !!!!!!!!"
fi

step "loom: the FIFO Figure 9 client (started with the loom models)"
fifo_figure9_status=0
wait "$fifo_figure9_pid" || fifo_figure9_status=$?
cat "$fifo_figure9_log"
rm -f "$fifo_figure9_log"
if [ "$fifo_figure9_status" -ne 0 ]; then
  echo "loom model fifo_figure9_client failed (exit $fifo_figure9_status)" >&2
  exit 1
fi

step "ThreadSanitizer (queue and pool tests on real threads)"
# Miri and loom explore interleavings of small models; TSan watches the real stress and
# unit tests, at full size, for data races the models are too small to reach. TSan's
# unoptimised frames are many times larger: a pool worker that runs stolen jobs nested
# in a join overflowed the 2 MiB default stack (a bare SIGSEGV, as TSan owns the signal
# handlers), so the threads get 16 MiB here. The iterator property tests run 8 random
# cases each instead of 64: a race shows on any input, and their unoptimised runs under
# TSan were two thirds of this step.
host=$(rustc -vV | sed -n 's/^host: //p')
if rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
  RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan RUST_MIN_STACK=16777216 PROPTEST_CASES=8 \
    cargo +nightly test -Zbuild-std --target "$host" -p magpie-queue -p magpie --lib --tests
else
  echo "!!!!!!!! SKIPPED: ThreadSanitizer needs nightly with rust-src (rustup component add rust-src --toolchain nightly) !!!!!!!!"
fi

step "the README's main command, magpie tour, on a bare copy of the repository"
# A new user's `git clone` has no ../shared beside it: copy the files git would check
# out (tracked, plus new files not ignored) to a fresh temporary folder and run the tour
# there, with MAGPIE_DATA unset. The copy shares this target directory: the release
# build of the CLI made here is reused by the quick benchmark below.
bare_root=$(mktemp -d)
trap 'rm -rf "$bare_root"' EXIT
bare="$bare_root/magpie"
mkdir "$bare"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do if [ -e "$file" ]; then printf '%s\0' "$file"; fi; done |
  tar --null -T - -cf - | tar -xf - -C "$bare"
test ! -e "$bare_root/shared" && test ! -e "$bare/../shared"
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
(cd "$bare" && env -u MAGPIE_DATA CARGO_TARGET_DIR="$target_dir" \
  cargo run --release -q -p magpie-cli -- tour --out "$bare_root/tour")
rm -rf "$bare_root"
trap - EXIT

step "quick benchmark"
cargo run --release -q -p magpie-cli -- bench all --quick --out target/bench-quick

step "all tests passed"
