/**
 * project-notes: a complete Zi extension, loaded as it is by the end-to-end tests
 * (test/e2e/extensions.e2e.spec.ts) and explained in docs/extensions.md.
 *
 * Try it: zi --mode rpc --extension examples/extensions/project-notes.ts
 * or copy it into ~/.zi/extensions/ (every project) or <project>/.zi/extensions/ (one project).
 */
import { randomUUID } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import type { AgentToolResult, WorkPlanStep, ZiExtensionApi } from "../../core/extensions/extension-api.js";

const MARKS = new Map<string, WorkPlanStep["status"]>([
  ["[ ]", "pending"],
  ["[>]", "in_progress"],
  ["[x]", "completed"],
  ["[-]", "cancelled"],
]);

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("aborted"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const text = (value: string, details?: unknown): AgentToolResult => ({ content: [{ type: "text", text: value }], details });

export default function projectNotes(zi: ZiExtensionApi): void {
  let finishedRuns = 0;
  zi.on("agent_end", () => void finishedRuns++);

  // Commands: invoked by a client with command.invoke { name, arguments }; the returned message is
  // feedback for that client only (never journaled, never shown to the model).
  zi.registerCommand("note", {
    description: "Keep a note: journaled, shown in the transcript and given to the model",
    handler: async (args) => {
      const note = args.trim();
      if (note === "") return { message: "usage: note <text>" };
      zi.appendEntry("project-notes.note", { note, at: new Date().toISOString() });
      zi.sendMessage({ customType: "project-notes.note", content: `Project note: ${note}`, display: true });
      return { message: `Saved a note of ${note.length} characters.` };
    },
  });

  zi.registerCommand("plan", {
    description: "Replace the work plan: one step per line, prefixed [ ], [>], [x] or [-]",
    handler: (args) => {
      const steps = args
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
        .map((line): WorkPlanStep => ({ title: line.slice(3).trim() || line, status: MARKS.get(line.slice(0, 3)) ?? "pending" }));
      const plan = zi.replaceWorkPlan(steps);
      return { message: `Work plan revision ${plan.revision}: ${plan.steps.length} steps.` };
    },
  });

  zi.registerCommand("wait", {
    description: "Wait for N milliseconds (default 1000); session.interrupt stops it",
    handler: async (args, { signal }) => {
      const ms = Number(args.trim() || "1000");
      if (!Number.isFinite(ms) || ms < 0) throw new Error("wait needs a number of milliseconds");
      await sleep(ms, signal);
      return { message: `Waited ${ms} ms.` };
    },
  });

  zi.registerCommand("stats", {
    description: "How many runs finished since this extension loaded, and the transcript's length",
    handler: (_args, { getState }) => ({ message: `${finishedRuns} runs finished; ${getState().messageCount} messages.` }),
  });

  // A tool the model can call. It streams progress with onUpdate, stops when the signal aborts, and
  // records an operation outcome that clients can page with session.get_outcomes.
  zi.registerTool({
    name: "count_lines",
    description: "Count the lines of the files directly inside a directory of the project, reporting progress.",
    parameters: {
      type: "object",
      properties: { dir: { type: "string", description: "Directory, relative to the project" } },
      required: ["dir"],
      additionalProperties: false,
    },
    async execute(args, { cwd, signal, onUpdate }) {
      const started = Date.now();
      const dir = resolve(cwd, String(args.dir));
      const counts: Record<string, number> = {};
      const names = (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
      for (const name of names) {
        if (signal.aborted) throw new Error("count_lines was interrupted");
        const content = await readFile(join(dir, name), "utf8");
        counts[relative(cwd, join(dir, name))] = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
        onUpdate(text(`Counted ${Object.keys(counts).length} of ${names.length} files.`));
      }
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      zi.recordOutcome({
        operationId: randomUUID(),
        capability: "project-notes",
        operation: "count_lines",
        result: "succeeded",
        durationMs: Date.now() - started,
        evidence: { dir: relative(cwd, dir) || ".", files: names.length, lines: total },
      });
      return text(`${total} lines in ${names.length} files.`, { counts });
    },
  });

  // console.log never reaches the protocol: Zi sends it to stderr, like zi.log.
  console.log("project-notes: console.log goes to stderr");
  zi.log("loaded: commands note, plan, wait, stats; tool count_lines");
}
