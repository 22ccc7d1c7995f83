import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { writeFileAtomically } from "./atomic-file-writer.js";
import { type AppliedRange, summariseEdit } from "./edit-diff.js";
import { type EditSpec, MAX_EDITS, repairEditArguments } from "./edit-request.js";
import { readTextFile } from "./text-file-reader.js";
import { type TolerantText, occurrences, tolerantForm } from "./tolerant-match.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath, toolCallPath } from "./tool-paths.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";

const BOM = "\uFEFF";
const toLf = (text: string): string => text.replace(/\r\n/g, "\n");
const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

interface Located extends AppliedRange {
  edit: number;
  tolerant: boolean;
}

const EDIT_ITEM_SCHEMA = {
  type: "object",
  properties: {
    oldText: { type: "string", minLength: 1, description: "Text to find, copied from the file (matched in the original file)." },
    newText: { type: "string", description: "Replacement text (may be empty to delete)." },
    replaceAll: { type: "boolean", description: "Replace every occurrence instead of requiring exactly one (default false)." },
  },
  required: ["oldText", "newText"],
  additionalProperties: false,
};

/**
 * `edit`: one or more text replacements in one file, applied together or not at all. Every edit is
 * located in the original text, so edits never see each other's results, and overlapping edits are
 * refused. Models write LF line endings, so in a CRLF file the texts are matched and written in CRLF
 * form; the file's line endings and BOM stay as they were.
 */
export class EditTool implements AgentTool {
  readonly name = "edit";
  readonly description =
    `Replace text in one file: edits is a list of 1 to ${MAX_EDITS} {oldText, newText} pairs, applied together ` +
    "(all or none). Each oldText is located in the original file (edits never see each other's changes; overlapping edits " +
    "are refused) and must occur exactly once unless replaceAll is true; include enough surrounding lines to make it unique. " +
    "Copy oldText exactly; if it is not found exactly, a match that differs only in trailing whitespace, line endings or " +
    "typographic quotes, dashes and spaces is used when it is unique. The single form {path, oldText, newText} also works. " +
    "Line endings (LF or CRLF) and a BOM are preserved. Use write to create a file.";
  readonly parameters = {
    type: "object",
    properties: {
      path: { type: "string", description: "File to edit (relative to the working directory, or absolute)." },
      edits: { type: "array", minItems: 1, maxItems: MAX_EDITS, items: EDIT_ITEM_SCHEMA, description: "The replacements, each matched against the original file." },
      oldText: { type: "string", minLength: 1, description: "Single-edit form: exact text to find." },
      newText: { type: "string", description: "Single-edit form: replacement text." },
      replaceAll: { type: "boolean", description: "Single-edit form: replace every occurrence (default false)." },
    },
    required: ["path"],
    additionalProperties: false,
  };

  prepareArguments(args: unknown): unknown {
    return repairEditArguments(args);
  }

  readonly declaration: ToolDeclaration = {
    effect: "edit",
    guideline: "Use edit for changes to existing files: the old text must match the file exactly.",
    describe: (args, cwd) => {
      const path = declaredString(args, "path") ?? "";
      return { title: `Edit ${path}`, paths: [toolCallPath(cwd, path)] };
    },
    argumentChanges: (args, cwd) => {
      const { path } = toolCallPath(cwd, declaredString(args, "path") ?? "");
      const repaired = repairEditArguments(args) as Record<string, unknown>;
      const edits = Array.isArray(repaired.edits) ? (repaired.edits as Record<string, unknown>[]) : [repaired];
      return edits
        .filter((one) => typeof one?.oldText === "string" && typeof one?.newText === "string")
        .map((one) => ({ path, oldText: one.oldText as string, newText: one.newText as string }));
    },
    // The approval shows what execute would write: the same plan, every occurrence of a replaceAll included.
    preview: async (args, cwd) => {
      try {
        const plan = await EditTool.plan(args, cwd);
        return [{ path: plan.absolute, before: plan.raw, after: plan.bom + plan.edited }];
      } catch (error) {
        return [{ path: toolCallPath(cwd, declaredString(args, "path") ?? "").path, skipped: (error as Error).message }];
      }
    },
  };

  /** What the call would write: read, locate every edit in the original, splice. Throws what the call would. */
  private static async plan(rawArgs: Record<string, unknown>, cwd: string) {
    const args = new ToolArgs("edit", repairEditArguments(rawArgs) as Record<string, unknown>);
    const path = args.requiredString("path");
    const edits = EditTool.readEdits(args);
    const absolute = resolveToolPath(cwd, path);
    const shown = displayPath(cwd, absolute);
    const raw = await readTextFile(absolute, shown);
    const bom = raw.startsWith(BOM) ? BOM : "";
    const body = raw.slice(bom.length);
    const ranges = new Locator(body, shown, edits.length).locateAll(edits);
    let edited = "";
    let from = 0;
    for (const range of ranges) {
      edited += body.slice(from, range.start) + range.replacement;
      from = range.end;
    }
    edited += body.slice(from);
    return { edits, absolute, shown, raw, bom, body, ranges, edited };
  }

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    if (context.signal.aborted) {
      // Checked after the arguments, as before: a bad call still says what is wrong with it.
      EditTool.readEdits(new ToolArgs(this.name, repairEditArguments(rawArgs) as Record<string, unknown>));
      throw new Error("edit was interrupted before it started.");
    }
    const { edits, absolute, shown, body, bom, ranges, edited } = await EditTool.plan(rawArgs, context.cwd);
    await writeFileAtomically(absolute, shown, bom + edited);

    const summary = summariseEdit(shown, body, edited, ranges);
    const count = `${ranges.length} occurrence${ranges.length > 1 ? "s" : ""}`;
    const applied = edits.length > 1 ? `applied ${edits.length} edits, ` : "";
    const tolerant = [...new Set(ranges.filter((r) => r.tolerant).map((r) => r.edit))];
    const which = edits.length > 1 ? tolerant.map((i) => `edits[${i}]`).join(", ") : "oldText";
    const note = tolerant.length === 0 ? "" : ` ${which} matched only after ignoring trailing whitespace and typographic quotes/dashes/spaces.`;
    return {
      content: [{ type: "text", text: `Edited ${shown}: ${applied}replaced ${count} (first at line ${summary.firstChangedLine}).${note}` }],
      details: { path: shown, edits: edits.length, ...summary },
    };
  }

  private static readEdits(args: ToolArgs): EditSpec[] {
    const list = args.raw("edits");
    const single = args.raw("oldText") !== undefined || args.raw("newText") !== undefined;
    if (list === undefined || list === null) {
      if (!single) throw new Error('edit: give edits: [{ "oldText", "newText" }, …] (or oldText and newText for a single edit).');
      const spec = { oldText: args.requiredString("oldText"), newText: args.requiredString("newText", { allowEmpty: true }), replaceAll: args.optionalBoolean("replaceAll") ?? false };
      if (toLf(spec.oldText) === toLf(spec.newText)) throw new Error("edit: oldText and newText are identical; nothing to change.");
      return [spec];
    }
    if (single) throw new Error("edit: give either edits or oldText/newText, not both.");
    if (!Array.isArray(list) || list.length < 1 || list.length > MAX_EDITS) throw new Error(`edit: "edits" must be a list of 1 to ${MAX_EDITS} edits.`);
    return list.map((item, i) => {
      const edit = new ToolArgs(`edit: edits[${i}]`, item as Record<string, unknown>);
      const spec = { oldText: edit.requiredString("oldText"), newText: edit.requiredString("newText", { allowEmpty: true }), replaceAll: edit.optionalBoolean("replaceAll") ?? false };
      if (toLf(spec.oldText) === toLf(spec.newText)) throw new Error(`edit: edits[${i}]: oldText and newText are identical; nothing to change.`);
      return spec;
    });
  }
}

/** Finds each edit's range(s) in the original text: exactly first, then tolerantly if unique. */
class Locator {
  private readonly crlf: boolean;
  private tolerant?: TolerantText;

  constructor(
    private readonly body: string,
    private readonly shown: string,
    private readonly total: number,
  ) {
    this.crlf = body.includes("\r\n");
  }

  locateAll(edits: EditSpec[]): Located[] {
    const ranges = edits.flatMap((edit, i) => this.locate(edit, i));
    ranges.sort((a, b) => a.start - b.start);
    for (let i = 1; i < ranges.length; i++) {
      const previous = ranges[i - 1]!;
      const current = ranges[i]!;
      if (current.start < previous.end) {
        const [a, b] = [previous.edit, current.edit].sort((x, y) => x - y);
        const what = a === b ? `edits[${a}]: two of its occurrences overlap` : `edits[${b}] overlaps edits[${a}]`;
        throw new Error(`edit: ${what} in ${this.shown} (both change line ${this.lineOf(current.start)}). Merge them into one edit; nothing was changed.`);
      }
    }
    return ranges;
  }

  private locate(edit: EditSpec, index: number): Located[] {
    const convert = (text: string): string => (this.crlf ? toLf(text).replace(/\n/g, "\r\n") : toLf(text));
    const prefix = this.total > 1 ? `edits[${index}]: ` : "";
    let find = convert(edit.oldText);
    let replacement = convert(edit.newText);
    let starts = occurrences(this.body, find);
    if (starts.length === 0 && this.crlf) {
      // A file with mixed endings: the texts as the model gave them.
      find = toLf(edit.oldText);
      replacement = toLf(edit.newText);
      starts = occurrences(this.body, find);
    }
    if (starts.length > 1 && !edit.replaceAll) {
      throw new Error(`edit: ${prefix}oldText matches ${starts.length} times in ${this.shown}. Add surrounding context to make it unique, or set replaceAll: true.`);
    }
    if (starts.length > 0) return starts.map((start) => ({ start, end: start + find.length, replacement, edit: index, tolerant: false }));

    this.tolerant ??= tolerantForm(this.body);
    const needle = tolerantForm(toLf(edit.oldText)).text;
    const loose = needle.trim() === "" ? [] : occurrences(this.tolerant.text, needle);
    if (loose.length === 1) {
      const { origin } = this.tolerant;
      const start = origin[loose[0]!]!;
      const end = origin[loose[0]! + needle.length - 1]! + 1;
      return [{ start, end, replacement: convert(edit.newText), edit: index, tolerant: true }];
    }
    if (loose.length > 1) {
      throw new Error(
        `edit: ${prefix}oldText was not found exactly in ${this.shown}, and ignoring trailing whitespace and typographic quotes/dashes ` +
          `it matches ${loose.length} times. Read the file again and copy the text exactly, with enough context to be unique.`,
      );
    }
    const hint = squash(this.body).includes(squash(edit.oldText))
      ? " It would match if whitespace were ignored: read the file again and copy the text exactly."
      : " Read the file again: the text must match exactly, including whitespace and indentation.";
    throw new Error(`edit: ${prefix}oldText was not found in ${this.shown}.${hint}`);
  }

  private lineOf(index: number): number {
    let line = 1;
    for (let i = this.body.indexOf("\n"); i >= 0 && i < index; i = this.body.indexOf("\n", i + 1)) line++;
    return line;
  }
}
