// A child's memory as Linux reports it in /proc/<pid>/status (values in kB there, MiB here).
import { readFileSync, writeFileSync } from "node:fs";

export class ProcMemory {
  constructor(pid) {
    this.pid = pid;
  }

  /** { rssMiB, hwmMiB }: current resident set and its high-water mark. */
  read() {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    return { rssMiB: field(status, "VmRSS"), hwmMiB: field(status, "VmHWM") };
  }

  /**
   * Resets the high-water mark to the current RSS (writing 5 to clear_refs, Linux >= 4.0), so a later
   * VmHWM covers exactly what happened in between. Returns false where the kernel refuses.
   */
  resetPeak() {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, "5");
      return true;
    } catch {
      return false;
    }
  }
}

function field(status, name) {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match) throw new Error(`no ${name} in /proc status`);
  return Number(match[1]) / 1024;
}
