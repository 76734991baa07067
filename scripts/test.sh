#!/usr/bin/env bash
# The tests: set up, then pytest (every claim at the quick profile, property tests, CLI, reports), then the worked
# example outside the five sources (examples/hastie2019), installed as a user installs a claims package and tested
# through the pytest plugin.  The example is installed only for its own tests and uninstalled on exit, so that the
# suite's tests and `scripts/verify.sh` in the same .venv see the built-in claims only, as before (an installed
# claims package joins every `verify run`).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
# Two pytest workers (pytest-xdist), file by file: tests/test_claims.py (the quick run of every claim, in two
# processes of its own, and every test that reads it) in one, the other files beside it; a later -n overrides this
# (`bash scripts/test.sh -n 0`: one process).
python -m pytest -n 2 --dist loadfile "$@"
code=$?
if [ "$code" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  code=1
fi
set -e
python -m pip install -q -e examples/hastie2019
trap 'python -m pip uninstall -q -y ftverify-hastie2019 >/dev/null 2>&1 || true' EXIT
set +e
# the example's own tests (its claims pinned in examples/hastie2019/tests/expected_verdicts.json); the arguments
# of this script go to the suite's pytest only (they may name its test files)
(cd examples/hastie2019 && python -m pytest -q -p no:cacheprovider)
example=$?
set -e
if [ "$example" -ne 0 ]; then
  echo "examples/hastie2019: its tests failed (exit $example)" >&2
  [ "$code" -eq 0 ] && code=$example
fi
exit "$code"
