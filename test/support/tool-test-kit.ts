import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";

/** A fresh temporary directory (real path, so results can be compared with it) and its cleanup. */
export function makeTempDir(prefix = "zi-tools-"): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunContext extends AgentToolContext {
  updates: AgentToolResult[];
  controller: AbortController;
}

export function makeContext(cwd: string, onUpdate?: (partial: AgentToolResult) => void): RunContext {
  const controller = new AbortController();
  const updates: AgentToolResult[] = [];
  return {
    cwd,
    signal: controller.signal,
    controller,
    updates,
    onUpdate: (partial) => {
      updates.push(partial);
      onUpdate?.(partial);
    },
  };
}

export function textOf(result: AgentToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

export function run(tool: AgentTool, args: Record<string, unknown>, cwd: string): Promise<AgentToolResult> {
  return tool.execute(args, makeContext(cwd));
}

/** True while the process exists and is not a zombie (an exited child nobody has reaped yet). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls `condition` until it holds or `deadlineMs` passes; returns its last value. */
export async function waitFor(condition: () => boolean, deadlineMs = 5000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
