#!/usr/bin/env bash
# Verifier: Harbor runs it in the task's container (/app); Zi's oracle-replay runner
# (bench/lib/task-suite.mjs) sets APP_DIR and REWARD_FILE. Writes the reward: 1 passed, 0 failed.
cd "${APP_DIR:-/app}" || exit 1
REWARD_FILE="${REWARD_FILE:-/logs/verifier/reward.txt}"
mkdir -p "$(dirname "$REWARD_FILE")"
if node -e 'const c = JSON.parse(require("fs").readFileSync("config/app.json", "utf8")); process.exit(c.name === "shop" && c.port === 8080 && c.features.join() === "cart,search" && Object.keys(c).length === 3 ? 0 : 1)'; then
  echo 1 > "$REWARD_FILE"
else
  echo 0 > "$REWARD_FILE"
fi
