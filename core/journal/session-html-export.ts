import { entryLabel } from "./entry-label.js";
import type { JournalEntry } from "./journal-types.js";
import { escapeHtml, markdownHtml } from "./markdown-html.js";
import { sessionTitle } from "./session-title.js";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** No script, no request: what the page may load is its own styles and data: images, nothing else. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:920px;padding:24px;color:#1d1d1f;background:#fafafa}
header{border-bottom:1px solid #ddd;margin-bottom:16px}h1{font-size:20px;margin:0 0 4px}.meta{color:#666;font-size:13px}
.entry{border-radius:8px;padding:8px 12px;margin:8px 0;background:#fff;border:1px solid #e4e4e4}
.user{border-left:4px solid #2f6fde}.assistant{border-left:4px solid #1b9e5a}.toolResult{border-left:4px solid #999;font-size:13px}
.custom{border-left:4px solid #b26bd6}.note{color:#666;font-size:12px;background:none;border:none;padding:2px 12px}
.role{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#888}.error{color:#b00020}
pre{background:#f2f2f2;padding:8px;overflow:auto;font-size:12px;white-space:pre-wrap;word-break:break-word}
code{font-family:ui-monospace,monospace}details{margin:4px 0}summary{cursor:pointer;color:#555}
.branch{border:1px dashed #c7a500;border-radius:8px;padding:4px 12px;margin:8px 0 8px 24px;background:#fffbea}
.diff .add{color:#116329;background:#dafbe1}.diff .del{color:#82071e;background:#ffebe9}img{max-width:100%}
.leaf{outline:2px solid #2f6fde}`;

interface Node {
  entry: JournalEntry;
  children: Node[];
}

/**
 * A journal as one self-contained HTML page a person can read: the path to the current leaf as the
 * transcript (Markdown rendered, thinking folded, tool calls with arguments, results and diffs,
 * images inline), the branches left along it folded where they leave. Every piece of session text is
 * escaped, and the page carries a Content-Security-Policy that allows no script and no request.
 */
export class SessionHtmlExport {
  /** The page of a journal's entries (file order): the leaf is the last entry, the title the first prompt's first line. */
  static render(entries: readonly JournalEntry[]): string {
    const leafId = entries.at(-1)?.id ?? "";
    const prompt = entries.find((entry) => entry.type === "message" && entry.message.role === "user");
    const title = (prompt?.type === "message" ? sessionTitle(prompt.message.content) : null) ?? `Zi session ${entries[0]?.type === "session" ? entries[0].sessionId : ""}`;
    const nodes = new Map<string, Node>();
    let root: Node | undefined;
    let previous: Node | undefined;
    for (const entry of entries) {
      const node: Node = { entry, children: [] };
      nodes.set(entry.id, node);
      // A parent that is not in the file (a skipped damaged line) is taken to be the entry before.
      const parent = (entry.parentId === null ? undefined : nodes.get(entry.parentId)) ?? previous;
      if (parent) parent.children.push(node);
      else root = node;
      previous = node;
    }
    const onPath = new Set<string>();
    for (let id: string | null = leafId; id !== null; ) {
      if (onPath.has(id)) break;
      onPath.add(id);
      id = nodes.get(id)?.entry.parentId ?? null;
    }
    const body = root ? SessionHtmlExport.chain(root, onPath, leafId) : "";
    const header = entries[0]?.type === "session" ? entries[0] : undefined;
    return [
      "<!DOCTYPE html>",
      '<html lang="en"><head><meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
      `<header><h1>${escapeHtml(title)}</h1><div class="meta">${header ? `session ${escapeHtml(header.sessionId)} · ${escapeHtml(header.cwd)} · ${escapeHtml(header.timestamp)}` : ""} · ${entries.length} entries</div></header>`,
      `<main>${body}</main>`,
      "</body></html>",
      "",
    ].join("\n");
  }

  /** A chain of entries, following the child on the path (else the newest); other children fold as branches. */
  private static chain(start: Node, onPath: Set<string>, leafId: string): string {
    const out: string[] = [];
    for (let node: Node | undefined = start; node; ) {
      out.push(SessionHtmlExport.entry(node.entry, node.entry.id === leafId));
      const next: Node | undefined = node.children.find((child) => onPath.has(child.entry.id)) ?? node.children.at(-1);
      for (const child of node.children) {
        if (child === next) continue;
        out.push(`<details class="branch"><summary>branch: ${escapeHtml(entryLabel(child.entry))}</summary>${SessionHtmlExport.chain(child, onPath, leafId)}</details>`);
      }
      node = next;
    }
    return out.join("\n");
  }

  private static entry(entry: JournalEntry, leaf: boolean): string {
    const id = ` id="e-${escapeHtml(entry.id)}"`;
    const mark = leaf ? " leaf" : "";
    if (entry.type === "message") {
      const message = entry.message as { role: string; content?: unknown; toolName?: unknown; isError?: unknown; details?: unknown; errorMessage?: unknown };
      const role = escapeHtml(String(message.role));
      const label = message.role === "toolResult" ? `result of ${escapeHtml(String(message.toolName))}${message.isError === true ? " (error)" : ""}` : role;
      const parts = SessionHtmlExport.content(message.content, message.role === "toolResult");
      const details = message.role === "toolResult" ? SessionHtmlExport.diff(message.details) : "";
      const error = typeof message.errorMessage === "string" ? `<p class="error">${escapeHtml(message.errorMessage)}</p>` : "";
      return `<section class="entry ${role}${mark}"${id}><div class="role">${label}</div>${parts}${details}${error}</section>`;
    }
    if (entry.type === "custom_message") {
      return `<section class="entry custom${mark}"${id}><div class="role">${escapeHtml(entry.customType)}</div>${markdownHtml(entry.content)}</section>`;
    }
    if (entry.type === "session") return "";
    return `<div class="entry note${mark}"${id}>${escapeHtml(entryLabel(entry))}</div>`;
  }

  private static content(content: unknown, plain: boolean): string {
    if (typeof content === "string") return plain ? `<pre>${escapeHtml(content)}</pre>` : markdownHtml(content);
    if (!Array.isArray(content)) return "";
    return content
      .map((block: { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown; data?: unknown; mimeType?: unknown }) => {
        if (block?.type === "text" && typeof block.text === "string") return plain ? `<pre>${escapeHtml(block.text)}</pre>` : markdownHtml(block.text);
        if (block?.type === "thinking" && typeof block.thinking === "string") {
          return `<details><summary>thinking</summary>${markdownHtml(block.thinking)}</details>`;
        }
        if (block?.type === "toolCall") {
          return `<details open><summary>tool call: <code>${escapeHtml(String(block.name))}</code></summary><pre>${escapeHtml(JSON.stringify(block.arguments ?? {}, null, 2))}</pre></details>`;
        }
        if (block?.type === "image" && typeof block.mimeType === "string" && IMAGE_TYPES.has(block.mimeType) && typeof block.data === "string" && BASE64.test(block.data)) {
          return `<img alt="image" src="data:${block.mimeType};base64,${block.data}">`;
        }
        return "";
      })
      .join("\n");
  }

  /** An edit's unified diff (its result's `details.diff`), lines coloured by their sign. */
  private static diff(details: unknown): string {
    const diff = (details as { diff?: unknown } | undefined)?.diff;
    if (typeof diff !== "string" || diff === "") return "";
    const lines = diff.split("\n").map((line) => {
      const kind = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
      return kind === "" ? escapeHtml(line) : `<span class="${kind}">${escapeHtml(line)}</span>`;
    });
    return `<details open class="diff"><summary>diff</summary><pre>${lines.join("\n")}</pre></details>`;
  }
}
