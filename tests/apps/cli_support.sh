# Sourced by the tests/apps/cli_*.sh scripts: a scratch directory $t (removed on exit), fail, and
# expect_exit <code> <pattern> <command...> (the exit code, and stderr matching the pattern).
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_exit() {
  local code=$1 pattern=$2; shift 2
  set +e; "$@" 2> "$t/err" > /dev/null; local got=$?; set -e
  [ "$got" = "$code" ] || fail "$* exited $got, expected $code: $(cat "$t/err")"
  grep -q -- "$pattern" "$t/err" || fail "$*: stderr lacks '$pattern': $(cat "$t/err")"
}
