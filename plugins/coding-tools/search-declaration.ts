import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";
import { toolCallPath } from "./tool-paths.js";

/**
 * The declaration of `find` and `grep`: a read that searches under `path` (the working directory when
 * absent), titled by what it looks for and, when given, where.
 */
export function searchDeclaration(subject: (args: Record<string, unknown>) => string): ToolDeclaration {
  return {
    effect: "read",
    display: "search",
    describe: (args, cwd) => {
      const path = declaredString(args, "path");
      return { title: `${subject(args)}${path ? ` in ${path}` : ""}`, paths: [toolCallPath(cwd, path ?? ".")] };
    },
  };
}
