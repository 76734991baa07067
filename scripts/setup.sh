#!/usr/bin/env bash
# Create .venv (if missing) and install the suite into it, CPU torch first.
# Sourced by scripts/verify.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q --upgrade pip
# the CPU build of torch 2.13.0 first: an unpinned resolution may pull a multi-GB CUDA build
python -m pip install -q -c constraints.txt "torch==2.13.0"
# constraints.txt: the versions the committed results were made with (the reference environment), so that a
# fresh clone reads the committed power records as measured
python -m pip install -q -c constraints.txt -e ".[test]"
