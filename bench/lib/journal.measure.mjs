// 7. The journal benchmark (bench/journal.bench.mjs, its own baselines): run as it is, its JSON kept
// whole in the results and its ratios shown as informational rows.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const SCRIPT = fileURLToPath(new URL("../journal.bench.mjs", import.meta.url));

export async function measureJournal(report, { messages }) {
  const args = messages === undefined ? [SCRIPT] : [SCRIPT, String(messages)];
  let stdout;
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }));
  } catch (error) {
    const reason = (error.stderr || error.message).trim().split("\n").slice(-3).join(" | ");
    report.skip("journal benchmark", `journal.bench.mjs failed: ${reason}`);
    return;
  }
  const journal = JSON.parse(stdout);
  report.extra.journal = journal;
  const resume = journal.resume;
  report.ratio({
    name: `journal: resume ${journal.messages.large.toLocaleString("en-US")} messages vs read+parse`,
    unit: "ms",
    zi: resume.openMs,
    baseline: resume.readParseBaselineMs,
    better: "lower",
    target: null,
  });
  for (const position of ["first", "last"]) {
    report.ratio({
      name: `journal: warm ${position} page, ${journal.messages.large.toLocaleString("en-US")} vs ${journal.messages.small} messages`,
      unit: "ms",
      zi: journal.pageMs.large[position].warmMs,
      baseline: journal.pageMs.small[position].warmMs,
      better: "lower",
      target: null,
    });
  }
}
