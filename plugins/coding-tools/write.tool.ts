import { existsSync } from "node:fs";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { writeFileAtomically } from "./atomic-file-writer.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath, toolCallPath } from "./tool-paths.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";
import { readTextFile } from "./text-file-reader.js";

/** The file's text now (read as `edit` reads it), or null when there is none to replace. */
async function existingText(path: string, shown: string): Promise<string | null> {
  try {
    return await readTextFile(path, shown);
  } catch (error) {
    if (!existsSync(path)) return null;
    throw error;
  }
}

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

  readonly declaration: ToolDeclaration = {
    effect: "edit",
    guideline: "Use write only for new files or complete rewrites; prefer an edit for a change to part of a file.",
    describe: (args, cwd) => {
      const path = declaredString(args, "path") ?? "";
      return { title: `Write ${path}`, paths: [toolCallPath(cwd, path)] };
    },
    argumentChanges: (args, cwd) => (typeof args.content === "string" ? [{ path: toolCallPath(cwd, declaredString(args, "path") ?? "").path, oldText: null, newText: args.content }] : []),
    preview: async (args, cwd) => {
      const { path } = toolCallPath(cwd, declaredString(args, "path") ?? "");
      const after = typeof args.content === "string" ? args.content : "";
      try {
        return [{ path, before: await existingText(path, displayPath(cwd, path)), after }];
      } catch (error) {
        return [{ path, skipped: (error as Error).message }];
      }
    },
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
