// 11. The task suite (bench/tasks/, bench/lib/task-suite.mjs): every task's oracle replayed through
// Zi's tools by the scripted model, then its tests. Rows: pass rate and resume integrity (target: all),
// and Zi's replay time against the same solution run as a shell script (informational).
import { runTaskSuite } from "./task-suite.mjs";
import { median } from "./stats.mjs";

export async function measureTasks(report, { ziScript }) {
  const records = await runTaskSuite({ ziScript });
  report.extra.tasks = records;
  const total = records.length;
  const passed = records.filter((record) => record.passed && record.oraclePassed && record.unsolvedFails).length;
  const resumed = records.filter((record) => record.resume && !record.resume.skipped);
  report.ratio({ name: `tasks: passed (${passed}/${total})`, unit: "tasks", zi: passed, baseline: total, better: "higher", target: 1, details: { failed: records.filter((r) => !r.passed).map((r) => r.task) } });
  report.ratio({
    name: `tasks: resume after SIGKILL (${resumed.filter((r) => r.resume.passed).length}/${resumed.length})`,
    unit: "tasks",
    zi: resumed.filter((record) => record.resume.passed).length,
    baseline: resumed.length,
    better: "higher",
    target: 1,
  });
  report.ratio({
    name: "tasks: time per task, Zi replay vs solve.sh",
    unit: "ms",
    zi: median(records.map((record) => record.ziMs)),
    baseline: median(records.map((record) => record.oracleMs)),
    better: "lower",
    target: null,
  });
  const toolErrors = records.reduce((sum, record) => sum + record.toolErrors, 0);
  const toolCalls = records.reduce((sum, record) => sum + record.toolCalls, 0);
  report.notes.push(`tasks: ${toolErrors} tool error(s) in ${toolCalls} tool calls`);
  if (passed < total) throw new Error(`tasks failed: ${records.filter((r) => !(r.passed && r.oraclePassed && r.unsolvedFails)).map((r) => r.task).join(", ")}`);
}
