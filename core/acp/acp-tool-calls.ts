import { isAbsolute, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";

/** How much of a tool's text output an update carries; the whole output stays in the journal. */
export const MAX_TOOL_TEXT_CHARS = 64 * 1024;
const MAX_TITLE_CHARS = 120;

/** Zi's built-in tool names and the ACP kind an editor uses to pick an icon; any other tool (an extension's, MCP) is `other`. */
const TOOL_KINDS: ReadonlyMap<string, acp.ToolKind> = new Map<string, acp.ToolKind>([
  ["read", "read"],
  ["ls", "read"],
  ["write", "edit"],
  ["edit", "edit"],
  ["bash", "execute"],
  ["grep", "search"],
  ["find", "search"],
  ["update_plan", "think"],
  ["delegate", "think"],
]);

/** Tools whose effect is a file's new content, shown as a diff. */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const oneLine = (value: string): string => {
  const line = value.replace(/\s+/g, " ").trim();
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
};

export function toolKind(name: string): acp.ToolKind {
  return TOOL_KINDS.get(name) ?? "other";
}

/** The file a tool call works on, absolute, when its arguments name one. */
export function toolPath(cwd: string, args: Record<string, unknown>): string | undefined {
  const path = text(args.path);
  if (path === undefined) return undefined;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** A one-line, human title: what the call does, as an editor shows it in its tool-call card. */
export function toolTitle(name: string, args: Record<string, unknown>): string {
  const path = text(args.path);
  switch (name) {
    case "read":
      return oneLine(`Read ${path ?? "file"}`);
    case "ls":
      return oneLine(`List ${path ?? "."}`);
    case "write":
      return oneLine(`Write ${path ?? "file"}`);
    case "edit":
      return oneLine(`Edit ${path ?? "file"}`);
    case "bash":
      return oneLine(text(args.command) ?? "Run a command");
    case "grep":
      return oneLine(`Search ${JSON.stringify(text(args.pattern) ?? "")}${path ? ` in ${path}` : ""}`);
    case "find":
      return oneLine(`Find ${text(args.pattern) ?? "files"}${path ? ` in ${path}` : ""}`);
    case "update_plan":
      return "Update the plan";
    case "delegate":
      return "Delegate to subagents";
    default:
      return oneLine(name);
  }
}

/** Where the call works, for an editor's follow-along: the file, at the line a read starts from. */
export function toolLocations(cwd: string, args: Record<string, unknown>): acp.ToolCallLocation[] {
  const path = toolPath(cwd, args);
  if (path === undefined) return [];
  const offset = typeof args.offset === "number" && Number.isInteger(args.offset) && args.offset > 0 ? args.offset : undefined;
  return [offset === undefined ? { path } : { path, line: offset }];
}

/** A text output clipped for the editor (never inside a surrogate pair), saying how much was left out. */
export function clipToolText(value: string): string {
  if (value.length <= MAX_TOOL_TEXT_CHARS) return value;
  let end = MAX_TOOL_TEXT_CHARS;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${value.slice(0, end)}\n… (${value.length - end} more characters; the whole output is in the session journal)`;
}

/** A tool result's content blocks (pi-ai's text and image blocks) as ACP tool-call content. */
export function toolResultContent(content: unknown): acp.ToolCallContent[] {
  if (!Array.isArray(content)) return [];
  const out: acp.ToolCallContent[] = [];
  for (const block of content as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown }[]) {
    if (block?.type === "text" && typeof block.text === "string" && block.text !== "") {
      out.push({ type: "content", content: { type: "text", text: clipToolText(block.text) } });
    } else if (block?.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string") {
      out.push({ type: "content", content: { type: "image", data: block.data, mimeType: block.mimeType } });
    }
  }
  return out;
}

/**
 * A diff from the call's arguments alone, for a transcript replayed from the journal (the file's
 * content before the call is not recorded): `write` is the whole new file, `edit` the replaced text.
 */
export function argumentDiff(cwd: string, name: string, args: Record<string, unknown>): acp.ToolCallContent[] {
  const path = toolPath(cwd, args);
  if (path === undefined) return [];
  if (name === "write" && typeof args.content === "string") return [{ type: "diff", path, oldText: null, newText: args.content }];
  if (name === "edit") {
    const edits = Array.isArray(args.edits) ? (args.edits as Record<string, unknown>[]) : [args];
    return edits
      .filter((edit) => typeof edit?.oldText === "string" && typeof edit?.newText === "string")
      .map((edit) => ({ type: "diff", path, oldText: edit.oldText as string, newText: edit.newText as string }));
  }
  return [];
}
