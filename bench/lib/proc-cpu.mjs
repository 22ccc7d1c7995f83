// A process's CPU time so far (user + system, ms) from /proc: unlike wall-clock time it does not grow
// with the other work on a shared machine. Undefined where /proc is not there (not Linux).
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on

/** The fields of /proc/<pid>/stat after the command name (in parentheses, it may hold spaces): field 3 is [0]. */
function statFields(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

const ticksMs = (fields, from, to) => (fields.slice(from, to).reduce((sum, ticks) => sum + Number(ticks), 0) * 1000) / TICKS_PER_SECOND;

/** All its threads' time: utime and stime, fields 14 and 15. */
export function cpuMs(pid) {
  const fields = statFields(pid);
  return fields && ticksMs(fields, 11, 13);
}

/**
 * Its own time and its reaped children's (cutime and cstime, fields 16 and 17): a child's time is added
 * when its parent waits for it, so read it after the children's `exit`.
 */
export function cpuWithChildrenMs(pid) {
  const fields = statFields(pid);
  return fields && ticksMs(fields, 11, 15);
}

/**
 * The main thread's time on CPU alone, the critical path (/proc/<pid>/task/<pid>/schedstat counts it in
 * ns, not in ticks).
 */
export function mainThreadCpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
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
