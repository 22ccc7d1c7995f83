import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";
import { clipUtf8 } from "../../core/wire/utf8-clip.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { IgnoreRules } from "./ignore-rules.js";
import { admitting } from "./search-root.js";
import { describeFileError } from "./text-file-reader.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath, toolCallPath } from "./tool-paths.js";

const { defaultListLimit, maxListLimit, maxOutputBytes } = CODING_TOOL_LIMITS;

/** Code-point order, so the listing is the same on every machine and locale. */
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Follows an entry that grep and find leave out (the shared ignore rule); the entry is still listed. */
const IGNORED_MARK = "  (ignored)";

/** `ls`: one directory's entries, sorted, directories suffixed with "/", ignored entries marked. */
export class LsTool implements AgentTool {
  readonly name = "ls";
  readonly description =
    "List a directory (default: the working directory). Entries are sorted by name, include dotfiles, and directories " +
    `(and links to directories) end with "/". Entries that grep and find skip (.gitignore, .ignore, .git/info/exclude, .git) ` +
    `are listed but marked "${IGNORED_MARK.trim()}". Shows at most limit entries (default ${defaultListLimit}, max ${maxListLimit}).`;
  readonly parameters = {
    type: "object",
    properties: {
      path: { type: "string", description: "Directory to list (default: the working directory)." },
      limit: { type: "integer", minimum: 1, maximum: maxListLimit, description: `Most entries to show (default ${defaultListLimit}).` },
    },
    additionalProperties: false,
  };

  readonly declaration: ToolDeclaration = {
    effect: "read",
    describe: (args, cwd) => {
      const path = declaredString(args, "path") ?? ".";
      return { title: `List ${path}`, paths: [toolCallPath(cwd, path)] };
    },
  };

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const absolute = resolveToolPath(context.cwd, args.optionalString("path") ?? ".");
    const limit = args.optionalInteger("limit", { min: 1, max: maxListLimit }) ?? defaultListLimit;
    const shown = displayPath(context.cwd, absolute);
    const listed = await readdir(absolute, { withFileTypes: true }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOTDIR") throw new Error(`${shown} is not a directory (use read for files).`);
      throw new Error(describeFileError(error, shown));
    });
    // What the permission rules keep out of grep and find is not listed either (not even counted):
    // an entry is judged where it lies, as find judges a file (a symlink by its own place, not its target).
    const admits = admitting(absolute, context.mayRead);
    const entries = admits ? listed.filter((entry) => admits(entry.name)) : listed;
    entries.sort((a, b) => byName(a.name, b.name));
    const rules = await IgnoreRules.forRoot(absolute);
    const names: string[] = [];
    let ignored = 0;
    for (const entry of entries.slice(0, limit)) {
      if (context.signal.aborted) throw new Error("ls was interrupted.");
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) isDirectory = (await stat(join(absolute, entry.name)).catch(() => undefined))?.isDirectory() ?? false;
      // A symlink is judged as a file, as ripgrep (which does not follow it) judges it.
      const skipped = rules.ignores(entry.name, entry.isDirectory());
      if (skipped) ignored++;
      names.push(`${entry.name}${isDirectory ? "/" : ""}${skipped ? IGNORED_MARK : ""}`);
    }
    let text = names.length > 0 ? names.join("\n") : "(empty directory)";
    const clipped = clipUtf8(text, maxOutputBytes);
    let shownCount = names.length;
    if (clipped.truncated) {
      text = clipped.text.slice(0, Math.max(0, clipped.text.lastIndexOf("\n")));
      shownCount = text.length === 0 ? 0 : text.split("\n").length;
    }
    const truncated = shownCount < entries.length;
    if (truncated) text += `\n\n[Showing ${shownCount} of ${entries.length} entries. Raise limit or narrow the path to see more.]`;
    return { content: [{ type: "text", text }], details: { path: shown, entries: entries.length, shown: shownCount, ignored, truncated } };
  }
}
