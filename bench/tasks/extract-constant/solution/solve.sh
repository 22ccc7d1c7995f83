#!/usr/bin/env bash
# Harbor's oracle: the reference solution in the shell. Zi's replay of it through its own tools is
# solution/zi-steps.json (bench/lib/task-suite.mjs).
set -euo pipefail
cd "${APP_DIR:-/app}"
echo 'export const TAX_RATE = 0.2;' > src/constants.js
sed -i '1i import { TAX_RATE } from "./constants.js";' src/price.js
sed -i 's/(1 + 0.2)/(1 + TAX_RATE)/' src/price.js
sed -i '1i import { TAX_RATE } from "./constants.js";' src/invoice.js
sed -i 's/0.2 \* 100/TAX_RATE * 100/' src/invoice.js
