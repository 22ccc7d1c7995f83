import { readdirSync, readFileSync } from "node:fs";

/** One process as `/proc/<pid>/stat` describes it; `start` (clock ticks after boot) tells a reused pid apart. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  start: string;
}

/**
 * A snapshot of Linux's process table, read from `/proc`. Where there is no `/proc` (macOS, a
 * sandbox without it) `available` is false and callers fall back to what a child handle tells them.
 */
export class ProcTable {
  static readonly available: boolean = (() => {
    try {
      return ProcTable.stat(process.pid) !== undefined;
    } catch {
      return false;
    }
  })();

  /** The process's entry, or undefined once it is gone (or a zombie: it holds its pid but runs nothing). */
  static stat(pid: number): ProcEntry | undefined {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return undefined;
    }
    // The command name, in parentheses, may itself contain spaces and parentheses: fields follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return undefined;
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), start: fields[19]! };
  }

  /** Every live process. */
  static all(): ProcEntry[] {
    const entries: ProcEntry[] = [];
    for (const name of readdirSync("/proc")) {
      if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
      const entry = ProcTable.stat(Number(name));
      if (entry) entries.push(entry);
    }
    return entries;
  }
}
