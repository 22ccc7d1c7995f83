import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { writeFileAtomically } from "./atomic-file-writer.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath } from "./tool-paths.js";

/** `write`: creates or replaces a whole file, atomically. */
export class WriteTool implements AgentTool {
  readonly name = "write";
  readonly description =
    "Create a file or replace its whole content. Parent directories are created as needed. The write is atomic " +
    "(temporary file + rename), and an existing file keeps its permissions. Prefer edit for changing part of a file.";
  readonly parameters = {
    type: "object",
    properties: {
      path: { type: "string", description: "File to write (relative to the working directory, or absolute)." },
      content: { type: "string", description: "The complete new content (UTF-8)." },
    },
    required: ["path", "content"],
    additionalProperties: false,
  };

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const path = args.requiredString("path");
    const content = args.requiredString("content", { allowEmpty: true });
    if (context.signal.aborted) throw new Error("write was interrupted before it started.");
    const absolute = resolveToolPath(context.cwd, path);
    const shown = displayPath(context.cwd, absolute);
    const { bytes, created } = await writeFileAtomically(absolute, shown, content);
    return {
      content: [{ type: "text", text: `${created ? "Created" : "Wrote"} ${shown} (${bytes} bytes).` }],
      details: { path: shown, bytes, created },
    };
  }
}
