import { createTwoFilesPatch } from "diff";
import type { ToolCallDescription, ToolDeclaration } from "../../core/session/tool-declaration.js";
import type { PermissionSummary } from "../../core/wire/session-types.js";
import { clipUtf8 } from "../../core/wire/utf8-clip.js";
import { locate } from "./call-units.js";

/** Bounds of what a request carries, so that a request (and the state holding it) stays small. */
export const SUMMARY_LIMITS = {
  maxArgsBytes: 16 * 1024,
  maxCommandBytes: 8 * 1024,
  maxDiffBytes: 16 * 1024,
  /** Larger files get no diff (the summary says so). */
  maxDiffFileBytes: 1024 * 1024,
} as const;

/** The arguments as a request carries them: whole, or their JSON clipped to a string. */
export function boundedArgs(args: Record<string, unknown>): { args: unknown; argsTruncated?: true } {
  const json = JSON.stringify(args);
  if (Buffer.byteLength(json) <= SUMMARY_LIMITS.maxArgsBytes) return { args };
  return { args: clipUtf8(json, SUMMARY_LIMITS.maxArgsBytes).text, argsTruncated: true };
}

function diffOf(name: string, before: string, after: string): Pick<PermissionSummary, "diff" | "diffTruncated"> {
  if (Buffer.byteLength(before) > SUMMARY_LIMITS.maxDiffFileBytes || Buffer.byteLength(after) > SUMMARY_LIMITS.maxDiffFileBytes) return {};
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, { context: 3 });
  const clipped = clipUtf8(patch, SUMMARY_LIMITS.maxDiffBytes);
  return clipped.truncated ? { diff: clipped.text, diffTruncated: true } : { diff: clipped.text };
}

/**
 * What a person reads before deciding, from the tool's declaration: the call's title and kind; the
 * command for a call that runs one; for an edit, the path and the diff of the tool's own preview (the
 * code that applies the edit computed it, so a `replaceAll` shows every line it changes).
 */
export async function summarize(declaration: ToolDeclaration, description: ToolCallDescription, args: Record<string, unknown>, cwd: string): Promise<PermissionSummary> {
  const summary: PermissionSummary = { title: description.title, kind: declaration.display ?? declaration.effect };
  if (description.command !== undefined) {
    summary.title = `Run ${description.title}`;
    summary.command = clipUtf8(description.command, SUMMARY_LIMITS.maxCommandBytes).text;
    return summary;
  }
  const [first] = description.paths;
  if (declaration.effect !== "edit" || first === undefined) return summary;
  const where = locate(cwd, first.real);
  const shown = where.relative ?? first.path;
  summary.path = shown;
  summary.outsideCwd = where.relative === undefined;
  const previews = declaration.preview ? await declaration.preview(args, cwd).catch(() => []) : [];
  const preview = previews[0];
  if (preview && "after" in preview) Object.assign(summary, diffOf(shown, preview.before ?? "", preview.after));
  return summary;
}
