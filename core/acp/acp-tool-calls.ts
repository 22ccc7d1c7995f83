import type * as acp from "@agentclientprotocol/sdk";
import type { DescribedToolCall } from "../ports/session.port.js";
import type { ToolCallInfo, ToolCallKind } from "../wire/session-types.js";

/** How much of a tool's text output an update carries; the whole output stays in the journal. */
export const MAX_TOOL_TEXT_CHARS = 64 * 1024;

/** Describes a call from its tool's declaration (the session's `describeToolCall`): no tool name is known here. */
export type ToolCallDescriber = (toolName: string, args: Record<string, unknown>) => DescribedToolCall;

/** Zi's call kinds are ACP's names; anything else an editor would not know is `other`. */
const ACP_KINDS: ReadonlySet<string> = new Set<ToolCallKind>(["read", "edit", "execute", "fetch", "search", "think", "other"]);

export function toolKind(kind: string | undefined): acp.ToolKind {
  return kind !== undefined && ACP_KINDS.has(kind) ? (kind as acp.ToolKind) : "other";
}

/** Tools whose effect is a file's new content, shown as a diff: what their declaration says (`edit`). */
export function changesFiles(info: Pick<ToolCallInfo, "kind">): boolean {
  return info.kind === "edit";
}

/** The file a call changes, absolute (its tool's resolver), when it changes one. */
export function toolPath(info: ToolCallInfo): string | undefined {
  return changesFiles(info) ? info.locations[0]?.path : undefined;
}

/** A call's title, as an editor shows it in its tool-call card (the declaration's, already one bounded line). */
export function toolTitle(info: ToolCallInfo): string {
  return info.title;
}

/** Where the call works, for an editor's follow-along: the paths its tool declared, a read at its first line. */
export function toolLocations(info: ToolCallInfo): acp.ToolCallLocation[] {
  return info.locations.map((location) => ({ ...location }));
}

/** The `tool_call` fields a call's declaration gives. */
export function toolCallFields(info: ToolCallInfo): Pick<acp.ToolCall, "title" | "kind" | "locations"> {
  return { title: toolTitle(info), kind: toolKind(info.kind), locations: toolLocations(info) };
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
 * content before the call is not recorded): the changes the tool's declaration reads from them.
 */
export function argumentDiff(described: DescribedToolCall): acp.ToolCallContent[] {
  return described.changes.map((change) => ({ type: "diff", path: change.path, oldText: change.oldText, newText: change.newText }));
}
