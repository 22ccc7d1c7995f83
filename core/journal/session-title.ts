const MAX_TITLE_CHARS = 80;

/**
 * A session's title from its first prompt's content (a string or pi-ai content blocks): the first
 * non-empty line of its text, at most 80 characters; null when it has no text.
 */
export function sessionTitle(content: unknown): string | null {
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? (content as { type?: unknown; text?: unknown }[]).map((block) => (block?.type === "text" && typeof block.text === "string" ? block.text : "")).join(" ")
        : "";
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  if (line === "") return null;
  const chars = [...line];
  return chars.length > MAX_TITLE_CHARS ? `${chars.slice(0, MAX_TITLE_CHARS - 1).join("")}…` : line;
}
