#!/usr/bin/env bash
# Harbor's oracle: the reference solution in the shell. Zi's replay of it through its own tools is
# solution/zi-steps.json (bench/lib/task-suite.mjs).
set -euo pipefail
cd "${APP_DIR:-/app}"
cat > src/slugify.js <<'EOF'
export const slugify = (text) => text.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
EOF
