#!/usr/bin/env bash
# Harbor's oracle: the reference solution in the shell. Zi's replay of it through its own tools is
# solution/zi-steps.json (bench/lib/task-suite.mjs).
set -euo pipefail
cd "${APP_DIR:-/app}"
sed -i -E 's/\bgreet\(/welcome(/g; s/\{ greet \}/{ welcome }/g' src/greet.js src/cli.js src/batch.js
