#!/usr/bin/env bash
# The tests: set up, then pytest (every claim at the quick profile, property tests, CLI, reports).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
python -m pytest "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  exit 1
fi
exit "$code"
