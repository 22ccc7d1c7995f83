import { sessionTitle } from "./session-title.js";
import type { JournalEntry } from "./journal-types.js";

const MAX_LABEL_CHARS = 80;

const clip = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length > MAX_LABEL_CHARS ? `${chars.slice(0, MAX_LABEL_CHARS - 1).join("")}…` : line;
};

/** A message's role (`custom` for custom messages), or null for other entries. */
export function entryRole(entry: JournalEntry): string | null {
  if (entry.type === "message") return typeof entry.message.role === "string" ? entry.message.role : null;
  return entry.type === "custom_message" ? "custom" : null;
}

/** The short label `session.get_tree` gives an entry: what a person picking a point in the tree needs to see. */
export function entryLabel(entry: JournalEntry): string {
  switch (entry.type) {
    case "session":
      return clip(`session in ${entry.cwd}`);
    case "message": {
      const message = entry.message as { role: string; content?: unknown; toolName?: unknown };
      if (message.role === "toolResult") return clip(`${String(message.toolName)}: ${sessionTitle(message.content) ?? ""}`);
      const text = sessionTitle(message.content);
      if (text !== null) return clip(text);
      const calls = Array.isArray(message.content) ? (message.content as { type?: unknown; name?: unknown }[]).filter((block) => block?.type === "toolCall").map((block) => String(block.name)) : [];
      return clip(calls.length > 0 ? `calls ${calls.join(", ")}` : `(${message.role} without text)`);
    }
    case "custom_message":
      return clip(entry.content);
    case "model_change":
      return clip(`model ${entry.provider}/${entry.modelId}`);
    case "thinking_level_change":
      return `thinking ${entry.thinkingLevel}`;
    case "branch":
      return clip(entry.summary === undefined ? `back to ${entry.parentId}` : `back to ${entry.parentId}: ${entry.summary}`);
    case "file_checkpoint":
      return clip(`${entry.toolName} ${entry.path}`);
    case "rewind":
      return `rewind ${entry.phase} to ${entry.targetId}`;
    case "compaction":
      return clip(`compaction: ${entry.summary}`);
    case "work_plan":
      return `work plan revision ${entry.workPlan.revision}`;
    case "operation_outcome":
      return clip(`${entry.capability}.${entry.operation}: ${entry.result}`);
    case "custom":
      return clip(`custom ${entry.customType}`);
    default:
      return entry.type;
  }
}
