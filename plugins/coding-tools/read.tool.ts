import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { LineWindowReader } from "./line-window-reader.js";
import { statFile } from "./text-file-reader.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath } from "./tool-paths.js";

const { maxOutputLines, maxOutputBytes } = CODING_TOOL_LIMITS;

/** `read`: a window of a text file's lines, exactly as they are (no line-number prefixes). */
export class ReadTool implements AgentTool {
  readonly name = "read";
  readonly description =
    `Read a UTF-8 text file. Returns at most ${maxOutputLines} lines or ${maxOutputBytes / 1024} KiB per call, ` +
    "verbatim (no line numbers; a CR before LF is not shown). When more remains, a final note gives the offset to continue with. " +
    "offset is the 1-based first line (default 1); limit is the number of lines. Relative paths resolve against the working directory.";
  readonly parameters = {
    type: "object",
    properties: {
      path: { type: "string", description: "File to read (relative to the working directory, or absolute)." },
      offset: { type: "integer", minimum: 1, description: "1-based line to start at (default 1)." },
      limit: { type: "integer", minimum: 1, maximum: maxOutputLines, description: `Lines to read (default and max ${maxOutputLines}).` },
    },
    required: ["path"],
    additionalProperties: false,
  };

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const path = args.requiredString("path");
    const offset = args.optionalInteger("offset", { min: 1, max: Number.MAX_SAFE_INTEGER }) ?? 1;
    const limit = args.optionalInteger("limit", { min: 1, max: maxOutputLines }) ?? maxOutputLines;
    const absolute = resolveToolPath(context.cwd, path);
    const shown = displayPath(context.cwd, absolute);
    await statFile(absolute, shown);
    const window = await LineWindowReader.read(absolute, shown, { offset, limit, maxBytes: maxOutputBytes, signal: context.signal });
    const { totalLines, lines } = window;
    if (totalLines === 0) {
      return { content: [{ type: "text", text: "(empty file)" }], details: { path: shown, startLine: 0, endLine: 0, totalLines, truncated: false } };
    }
    if (offset > totalLines) throw new Error(`offset ${offset} is beyond the end of ${shown} (${totalLines} lines).`);
    const endLine = offset + lines.length - 1;
    const more = endLine < totalLines;
    const notes: string[] = [];
    if (window.clippedLine) notes.push(`Line ${offset} is longer than ${maxOutputBytes / 1024} KiB and was cut; use bash (e.g. cut -c or head -c) to see the rest of it.`);
    if (more) notes.push(`Showing lines ${offset}-${endLine} of ${totalLines}. Use offset=${endLine + 1} to continue.`);
    const text = lines.join("\n") + (notes.length > 0 ? `\n\n[${notes.join(" ")}]` : "");
    const details: Record<string, unknown> = { path: shown, startLine: offset, endLine, totalLines, truncated: more || window.clippedLine };
    if (more) details.nextOffset = endLine + 1;
    return { content: [{ type: "text", text }], details };
  }
}
