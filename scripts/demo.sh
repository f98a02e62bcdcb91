#!/usr/bin/env bash
# The README's first command: installs what is missing, builds bin/boardcam
# and plays the bundled demo clip through the whole pipeline (no camera
# needed), picking up the match of testdata/videos/demo.log. While it
# plays: http://localhost:8080/overlay and /umpire (password carrom-demo).
# Extra arguments go to `boardcam run`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
# A new match from the demo's stroke log, explicitly: boardcam run always
# continues the unfinished match of its journal directory, so without this
# a second demo would go on from where the first one stopped.
bin/boardcam new-match --config deploy/demo.yaml --resume testdata/videos/demo.log
exec bin/boardcam run --config deploy/demo.yaml --display term "$@"
