#!/usr/bin/env bash
# Verifier: Harbor runs it in the task's container (/app); Zi's oracle-replay runner
# (bench/lib/task-suite.mjs) sets APP_DIR and REWARD_FILE. Writes the reward: 1 passed, 0 failed.
cd "${APP_DIR:-/app}" || exit 1
REWARD_FILE="${REWARD_FILE:-/logs/verifier/reward.txt}"
mkdir -p "$(dirname "$REWARD_FILE")"
if grep -q "export const TAX_RATE = 0.2;" src/constants.js && ! grep -q "0\.2" src/price.js src/invoice.js && grep -q "TAX_RATE" src/price.js && node -e 'import("./src/invoice.js").then((m) => process.exit(m.invoiceLine("pen", 10) === "pen: 12.00 (tax 20%)" ? 0 : 1))'; then
  echo 1 > "$REWARD_FILE"
else
  echo 0 > "$REWARD_FILE"
fi
