// A child's CPU time as Linux reports it: user+sys of all its threads (/proc/<pid>/stat, in clock
// ticks of 10 ms), and its main thread's time on CPU (/proc/<pid>/task/<pid>/schedstat, in ns). Less
// swayed by the machine's load than wall-clock times; NaN once the process is gone.
import { readFileSync } from "node:fs";

const CLOCK_TICKS = 100;

export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

export function mainThreadCpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
