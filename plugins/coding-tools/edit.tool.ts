import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { writeFileAtomically } from "./atomic-file-writer.js";
import { summariseEdit } from "./edit-diff.js";
import { readTextFile } from "./text-file-reader.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath } from "./tool-paths.js";

const BOM = "\uFEFF";
const toLf = (text: string): string => text.replace(/\r\n/g, "\n");
const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

function indexesOf(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/**
 * `edit`: exact-text replacement. Models write LF line endings, so in a CRLF file the texts are
 * matched and written in CRLF form; the file's line endings and BOM stay as they were.
 */
export class EditTool implements AgentTool {
  readonly name = "edit";
  readonly description =
    "Replace exact text in a file. oldText must match the file exactly (whitespace and indentation included) and " +
    "exactly once, unless replaceAll is true; include enough surrounding lines to make it unique. " +
    "The file's line endings (LF or CRLF) are preserved. Use write to create a file.";
  readonly parameters = {
    type: "object",
    properties: {
      path: { type: "string", description: "File to edit (relative to the working directory, or absolute)." },
      oldText: { type: "string", minLength: 1, description: "Exact text to find." },
      newText: { type: "string", description: "Replacement text (may be empty to delete)." },
      replaceAll: { type: "boolean", description: "Replace every occurrence instead of requiring exactly one (default false)." },
    },
    required: ["path", "oldText", "newText"],
    additionalProperties: false,
  };

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const path = args.requiredString("path");
    const oldText = args.requiredString("oldText");
    const newText = args.requiredString("newText", { allowEmpty: true });
    const replaceAll = args.optionalBoolean("replaceAll") ?? false;
    if (toLf(oldText) === toLf(newText)) throw new Error("edit: oldText and newText are identical; nothing to change.");
    if (context.signal.aborted) throw new Error("edit was interrupted before it started.");
    const absolute = resolveToolPath(context.cwd, path);
    const shown = displayPath(context.cwd, absolute);

    const raw = await readTextFile(absolute, shown);
    const bom = raw.startsWith(BOM) ? BOM : "";
    const body = raw.slice(bom.length);
    const { find, replace, matches } = this.locate(body, oldText, newText);
    if (matches.length === 0) {
      const hint = squash(body).includes(squash(oldText))
        ? " It would match if whitespace were ignored: read the file again and copy the text exactly."
        : " Read the file again: the text must match exactly, including whitespace and indentation.";
      throw new Error(`edit: oldText was not found in ${shown}.${hint}`);
    }
    if (matches.length > 1 && !replaceAll) {
      throw new Error(
        `edit: oldText matches ${matches.length} times in ${shown}. Add surrounding context to make it unique, or set replaceAll: true.`,
      );
    }
    const targets = replaceAll ? matches : matches.slice(0, 1);
    let edited = "";
    let from = 0;
    for (const index of targets) {
      edited += body.slice(from, index) + replace;
      from = index + find.length;
    }
    edited += body.slice(from);
    await writeFileAtomically(absolute, shown, bom + edited);

    const summary = summariseEdit(body, targets[0]!, find, replace, targets.length);
    const count = `${targets.length} occurrence${targets.length > 1 ? "s" : ""}`;
    return {
      content: [{ type: "text", text: `Edited ${shown}: replaced ${count} (first at line ${summary.firstChangedLine}).` }],
      details: { path: shown, ...summary },
    };
  }

  /** The file's dominant line ending decides the form of both texts; the given form is the fallback for mixed files. */
  private locate(body: string, oldText: string, newText: string): { find: string; replace: string; matches: number[] } {
    const crlf = body.includes("\r\n");
    const convert = (text: string): string => (crlf ? toLf(text).replace(/\n/g, "\r\n") : toLf(text));
    const find = convert(oldText);
    const replace = convert(newText);
    const matches = indexesOf(body, find);
    if (matches.length > 0 || !crlf) return { find, replace, matches };
    const lfFind = toLf(oldText);
    return { find: lfFind, replace: toLf(newText), matches: indexesOf(body, lfFind) };
  }
}
