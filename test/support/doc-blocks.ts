/**
 * Extracts the fenced code blocks of a Markdown document that the doc test runs (test/docs/doc-examples.spec.ts
 * documents the markers). Every `ts` and `sh` block must say how it is tested: a marker this file does
 * not know, or a shell or TypeScript block under another language name, is a problem, never a skip.
 */

/**
 * `run`: executed; `extension`: loaded into Zi with `--extension`; `ci-only`: CI runs it itself;
 * `typecheck-only`: needs a real key; `excerpt`: quotes a source file.
 */
export type DocRun = "run" | "extension" | "ci-only" | "typecheck-only" | "excerpt";

export interface DocBlock {
  /** The document, relative to the repository root (`docs/client.md`). */
  readonly doc: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: "ts" | "sh";
  readonly run: DocRun;
  readonly code: string;
  /** `excerpt=PATH`: the source file whose lines the block quotes. */
  readonly excerptOf?: string;
  /** A `ts` block whose first line is `// some/path.ts`: where it is written in the scratch checkout. */
  readonly path?: string;
  /** The stdout promised by a ```text output fence right after the block. */
  readonly output?: string;
}

export interface DocExtraction {
  readonly blocks: DocBlock[];
  readonly problems: string[];
}

interface Fence {
  readonly line: number;
  readonly endLine: number;
  readonly info: string[];
  readonly body: string;
}

const OPENING = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;
const PATH_COMMENT = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.m?ts)\s*$/;
// Names under which a shell or TypeScript example could hide from the test.
const DISGUISED = new Map([
  ["bash", "sh"],
  ["shell", "sh"],
  ["console", "sh"],
  ["zsh", "sh"],
  ["typescript", "ts"],
  ["js", "ts"],
  ["javascript", "ts"],
  ["mjs", "ts"],
  ["mts", "ts"],
]);
// Commands that would reinstall node_modules or run the suite inside the suite.
const SUITE_COMMANDS = /\bnpm (?:ci|install|i|test|run check)\b/;
const MARKERS = new Map<string, ReadonlySet<string>>([
  ["sh", new Set(["ci-only"])],
  ["ts", new Set(["typecheck-only", "extension", "excerpt"])],
]);

export function extractDocBlocks(doc: string, markdown: string): DocExtraction {
  const blocks: DocBlock[] = [];
  const problems: string[] = [];
  const all = fences(markdown);
  for (const [index, fence] of all.entries()) {
    const [lang = "", ...markers] = fence.info;
    const where = `${doc}:${fence.line}`;
    if (lang === "text" && markers.includes("output")) {
      const owner = blocks.at(-1);
      const previous = all[index - 1];
      const adjacent = previous !== undefined && markdown.split("\n").slice(previous.endLine, fence.line - 1).every((l) => l.trim() === "");
      if (!owner || owner.line !== previous?.line || !adjacent || owner.run !== "run") {
        problems.push(`${where}: an output fence must follow a block that is run, with only blank lines between`);
      } else blocks[blocks.length - 1] = { ...owner, output: fence.body };
      continue;
    }
    if (DISGUISED.has(lang)) {
      problems.push(`${where}: write \`\`\`${DISGUISED.get(lang)} instead of \`\`\`${lang}, so the doc test runs the block`);
      continue;
    }
    const allowed = MARKERS.get(lang);
    if (!allowed) continue;
    const unknown = markers.filter((marker) => !allowed.has(marker.split("=")[0]));
    if (unknown.length > 0 || markers.length > 1) {
      problems.push(`${where}: unknown or too many markers for \`\`\`${lang}: ${markers.join(" ")}`);
      continue;
    }
    const [marker] = markers;
    const excerptOf = marker?.startsWith("excerpt=") ? marker.slice("excerpt=".length) : undefined;
    if (marker === "excerpt") problems.push(`${where}: excerpt needs the quoted file: excerpt=PATH`);
    const run: DocRun = excerptOf !== undefined ? "excerpt" : ((marker as DocRun | undefined) ?? "run");
    if (lang === "sh" && run === "run" && SUITE_COMMANDS.test(fence.body)) {
      problems.push(`${where}: a block that installs or runs the suite must be \`\`\`sh ci-only (it is not run here)`);
      continue;
    }
    const path = lang === "ts" ? PATH_COMMENT.exec(fence.body.split("\n")[0])?.[1] : undefined;
    blocks.push({ doc, line: fence.line, lang: lang as "ts" | "sh", run, code: fence.body, excerptOf, path });
  }
  return { blocks, problems };
}

function fences(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]);
    if (!open) continue;
    const [, indent, marker, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = OPENING.exec(lines[j]);
      if (close && close[2][0] === marker[0] && close[2].length >= marker.length && close[3] === "") break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    found.push({ line: i + 1, endLine: j + 1, info: info.trim().split(/\s+/).filter(Boolean), body: body.length ? `${body.join("\n")}\n` : "" });
    i = j;
  }
  return found;
}

/**
 * Whether `actual` (a block's stdout) is what an output fence promised: line by line, where `…` inside
 * a line stands for any text on that line and a line of only `…` for any number of lines.
 */
export function matchesPromisedOutput(promised: string, actual: string): boolean {
  const pattern = promised
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => (line.trim() === "…" ? "(?:[^\\n]*\\n)*?" : `${line.split("…").map(escapeRegExp).join("[^\\n]*?")}\\n`))
    .join("");
  return new RegExp(`^${pattern}$`).test(actual.endsWith("\n") ? actual : `${actual}\n`);
}

/** Whether every non-blank line of an excerpt occurs in `source`, in order (indentation ignored). */
export function isExcerptOf(excerpt: string, source: string): boolean {
  const sourceLines = source.split("\n").map((line) => line.trim());
  let at = 0;
  for (const line of excerpt.split("\n").map((l) => l.trim()).filter(Boolean)) {
    at = sourceLines.indexOf(line, at);
    if (at === -1) return false;
    at++;
  }
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
