import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { PermissionSummary } from "../../core/wire/session-types.js";
import { clipUtf8 } from "../../core/wire/utf8-clip.js";
import { locate } from "./call-units.js";
import { BASH_TOOL } from "./rule-check.js";

/** Bounds of what a request carries, so that a request (and the state holding it) stays small. */
export const SUMMARY_LIMITS = {
  maxArgsBytes: 16 * 1024,
  maxCommandBytes: 8 * 1024,
  maxDiffBytes: 16 * 1024,
  /** Larger files get no diff (the summary says so). */
  maxDiffFileBytes: 1024 * 1024,
} as const;

const oneLine = (text: string, max = 120): string => {
  const line = text.split("\n", 1)[0]!;
  return line.length > max || line.length < text.length ? `${line.slice(0, max)}…` : line;
};

/** The arguments as a request carries them: whole, or their JSON clipped to a string. */
export function boundedArgs(args: Record<string, unknown>): { args: unknown; argsTruncated?: true } {
  const json = JSON.stringify(args);
  if (Buffer.byteLength(json) <= SUMMARY_LIMITS.maxArgsBytes) return { args };
  return { args: clipUtf8(json, SUMMARY_LIMITS.maxArgsBytes).text, argsTruncated: true };
}

/** The replacements an edit call asks for, in both shapes: `{ oldText, newText }` and `{ edits: [...] }`. */
function editsOf(args: Record<string, unknown>): { oldText: string; newText: string }[] {
  const list = Array.isArray(args.edits) ? args.edits : [args];
  return list.filter(
    (edit): edit is { oldText: string; newText: string } =>
      typeof edit === "object" && edit !== null && typeof (edit as Record<string, unknown>).oldText === "string" && typeof (edit as Record<string, unknown>).newText === "string",
  );
}

async function currentText(path: string): Promise<string | undefined | "too large"> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    if (info.size > SUMMARY_LIMITS.maxDiffFileBytes) return "too large";
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

function withDiff(summary: PermissionSummary, name: string, before: string, after: string): PermissionSummary {
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, { context: 3 });
  const clipped = clipUtf8(patch, SUMMARY_LIMITS.maxDiffBytes);
  summary.diff = clipped.text;
  if (clipped.truncated) summary.diffTruncated = true;
  return summary;
}

/**
 * What a person reads before deciding: the command for `bash`; the path and the diff the call would
 * make for `write` and `edit` (an edit's replacements applied to the file as it is now; the tool
 * itself may still refuse them); the tool's name otherwise.
 */
export async function summarize(toolName: string, args: Record<string, unknown>, cwd: string): Promise<PermissionSummary> {
  if (toolName === BASH_TOOL && typeof args.command === "string") {
    const command = clipUtf8(args.command, SUMMARY_LIMITS.maxCommandBytes).text;
    return { title: `Run ${oneLine(args.command)}`, command };
  }
  if ((toolName === "write" || toolName === "edit") && typeof args.path === "string") {
    const where = locate(cwd, args.path);
    const shown = where.relative ?? where.absolute;
    const summary: PermissionSummary = { title: "", path: shown, outsideCwd: where.relative === undefined };
    const before = await currentText(resolve(cwd, args.path));
    if (toolName === "write") {
      const content = typeof args.content === "string" ? args.content : "";
      summary.title = `${before === undefined ? "Create" : "Overwrite"} ${shown} (${Buffer.byteLength(content)} bytes)`;
      return before === "too large" ? summary : withDiff(summary, shown, before ?? "", content);
    }
    const edits = editsOf(args);
    summary.title = `Edit ${shown} (${edits.length} replacement${edits.length === 1 ? "" : "s"})`;
    if (before === undefined || before === "too large") return summary;
    let after = before;
    for (const edit of edits) after = after.replace(edit.oldText, () => edit.newText);
    return withDiff(summary, shown, before, after);
  }
  return { title: `Call ${toolName}` };
}
