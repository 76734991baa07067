#!/usr/bin/env bash
# The main job: set up, run every claim at the standard profile, write ftverify-out/ (git-ignored; the committed
# reference run is in reports/, written only by an explicit --out reports).
# Extra arguments go to `python -m verify run` (e.g. 'tahir2024.*' --profile quick).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# one worker process per core (override with e.g. --jobs 1 among the arguments: the last one wins)
python -m verify run --jobs "$(nproc 2>/dev/null || echo 1)" "$@"
