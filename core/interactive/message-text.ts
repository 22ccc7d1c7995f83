/** The text a pi-ai message or tool result carries: its text blocks joined (a string content as is). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block: { type?: string; text?: unknown }) => (block?.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("");
}

/** A tool result's text (`{ content }`), whatever the tool put there. */
export function resultText(result: unknown): string {
  return textOf((result as { content?: unknown } | undefined)?.content);
}

/** The last `count` lines of `text`, with a note of how many were left out above. */
export function tailLines(text: string, count: number): { lines: string[]; hidden: number } {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.length <= count ? { lines, hidden: 0 } : { lines: lines.slice(-count), hidden: lines.length - count };
}
