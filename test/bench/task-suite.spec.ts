import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ZI_BIN } from "../support/zi-process.js";

const TASKS = "bench/tasks";
const HARBOR_FILES = ["instruction.md", "task.toml", "environment/Dockerfile", "tests/test.sh", "solution/solve.sh", "solution/zi-steps.json"];

describe("the task suite (bench/tasks)", () => {
  it("has at least 12 tasks, each in the Harbor layout", () => {
    const tasks = readdirSync(TASKS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    for (const task of tasks) for (const file of HARBOR_FILES) expect([task, file, existsSync(join(TASKS, task, file))]).toEqual([task, file, true]);
  });

  it("replays tasks through the built zi: tests fail untouched, pass after the oracle and after Zi's replay, and after a SIGKILL and resume", () => {
    expect(existsSync(ZI_BIN)).toBe(true);
    const run = spawnSync(process.execPath, ["bench/task-suite.mjs", "--only", "fix-failing-test,use-mcp-server,delegate-docs"], { encoding: "utf8", timeout: 120_000 });
    const records = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    expect(records.map((record) => record.task)).toEqual(["fix-failing-test", "use-mcp-server", "delegate-docs"]);
    for (const record of records) {
      expect(record).toMatchObject({ passed: true, oraclePassed: true, unsolvedFails: true, toolErrors: 0, problems: [] });
      expect(record.resume).toMatchObject({ passed: true, journalKeptToolCalls: true, damaged: false });
    }
    expect(run.status).toBe(0);
  });
});
