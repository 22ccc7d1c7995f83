#!/usr/bin/env bash
# Verifier: Harbor runs it in the task's container (/app); Zi's oracle-replay runner
# (bench/lib/task-suite.mjs) sets APP_DIR and REWARD_FILE. Writes the reward: 1 passed, 0 failed.
cd "${APP_DIR:-/app}" || exit 1
REWARD_FILE="${REWARD_FILE:-/logs/verifier/reward.txt}"
mkdir -p "$(dirname "$REWARD_FILE")"
if ! grep -rqE "\bgreet\(|\{ greet \}" src && [ "$(node src/cli.js Ada)" = "Hello, Ada!" ] && node -e 'import("./src/batch.js").then((m) => process.exit(m.greetAll(["a"])[0] === "Hello, a!" ? 0 : 1))' && grep -q "export function welcome" src/greet.js; then
  echo 1 > "$REWARD_FILE"
else
  echo 0 > "$REWARD_FILE"
fi
