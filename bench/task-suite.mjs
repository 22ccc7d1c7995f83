// `node bench/task-suite.mjs [--only a,b] [--no-resume]`: runs the task suite (bench/lib/task-suite.mjs)
// against the built zi and prints one JSON record per task on stdout; exits 1 unless every task passed.
import { parseArgs } from "node:util";
import { listTasks, runTaskSuite } from "./lib/task-suite.mjs";

const { values } = parseArgs({ options: { only: { type: "string" }, "no-resume": { type: "boolean", default: false } } });
const only = values.only ? values.only.split(",").map((name) => name.trim()) : listTasks();
const records = await runTaskSuite({ only, resume: !values["no-resume"] });
for (const record of records) process.stdout.write(`${JSON.stringify(record)}\n`);
const ok = records.every((record) => record.passed && record.oraclePassed && record.unsolvedFails && (record.resume === null || record.resume.skipped || record.resume.passed));
process.exitCode = ok ? 0 : 1;
