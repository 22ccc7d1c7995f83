#!/usr/bin/env bash
# Harbor's oracle: the reference solution in the shell. Zi's replay of it through its own tools is
# solution/zi-steps.json (bench/lib/task-suite.mjs).
set -euo pipefail
cd "${APP_DIR:-/app}"
mv src/utils/old-name.js src/utils/strings.js
sed -i 's#./utils/old-name.js#./utils/strings.js#' src/a.js src/b.js
