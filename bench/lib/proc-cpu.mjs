// A child's CPU time so far (user + system, ms) from /proc/<pid>/stat: unlike wall-clock time it does not
// grow with the other work on a shared machine. Undefined where /proc is not there (not Linux).
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on

export function cpuMs(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

// Means, not medians: the kernel counts CPU time in 10 ms ticks, and a median of a few such samples
// moves in whole ticks.
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Mean CPU ms of each side at its timed answer, and their ratio (absent without /proc). */
export function cpuDetails(cpu) {
  if (cpu.zi.length === 0 || cpu.baseline.length === 0) return {};
  const zi = mean(cpu.zi);
  const baseline = mean(cpu.baseline);
  return { cpuMs: { zi, baseline, ratio: zi / baseline, samples: cpu } };
}

/** An informational row of the same comparison in CPU time (none without /proc). */
export function cpuRow(report, name, cpu) {
  if (cpu.zi.length === 0 || cpu.baseline.length === 0) return;
  report.ratio({ name, unit: "ms", zi: mean(cpu.zi), baseline: mean(cpu.baseline), better: "lower", target: null, samples: cpu });
}
