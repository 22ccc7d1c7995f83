#!/usr/bin/env bash
# Harbor's oracle: the reference solution in the shell. Zi's replay of it through its own tools is
# solution/zi-steps.json (bench/lib/task-suite.mjs).
set -euo pipefail
cd "${APP_DIR:-/app}"
sed -i 's/PORT = 3000/PORT = 8080/; s/HOST = "localhost"/HOST = "0.0.0.0"/' src/server.js
