import { mkdtempSync, realpathSync, rmSync } from "node:fs";
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

// The process helpers live with the others that read /proc; the tool specs import them from here too.
export { isAlive, waitFor } from "./tool-processes.js";
