import { AsyncFs } from "../config/async-fs.js";
import { join, relative, resolve, sep } from "node:path";
import { clipUtf8 } from "../wire/utf8-clip.js";
import { CONTEXT_LIMITS, type ContextLimits } from "./context-limits.js";
import { readPromptText } from "./context-text.js";
import type { ContextFile, ContextProblem } from "./context-types.js";

export interface ContextFileInput {
  ziHome: string;
  cwd: string;
  /** The top of the walk: the git root, or `cwd` itself outside a repository. */
  root: string;
  limits?: Pick<ContextLimits, "maxContextFileBytes" | "maxContextTotalBytes">;
}

/** In each directory the first of these that exists is its context file. */
const PROJECT_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/**
 * Finds the project instructions written for agents: `ZI_HOME/AGENTS.md`, then one file per directory
 * from `root` down to `cwd` (AGENTS.md, or CLAUDE.md where there is none), nearest last. Each is read
 * through the bounded reader, clipped per file and against a total budget, with the clip in the result
 * so the prompt can say so. A file reached twice (ZI_HOME inside the project) is read once.
 */
export class ContextFileLoader {
  static async load(input: ContextFileInput): Promise<{ files: ContextFile[]; problems: ContextProblem[] }> {
    const limits = input.limits ?? CONTEXT_LIMITS;
    const files: ContextFile[] = [];
    const problems: ContextProblem[] = [];
    const seen = new Set<string>();
    let budget = limits.maxContextTotalBytes;
    const take = async (candidates: readonly string[]): Promise<void> => {
      for (const path of candidates) {
        const read = await readPromptText(path, limits.maxContextFileBytes);
        if (read.status === "missing") continue;
        const real = await AsyncFs.realpath(path).catch(() => path);
        if (seen.has(real)) return;
        seen.add(real);
        if (read.status === "refused") {
          problems.push({ source: path, error: read.reason });
          return;
        }
        const fitted = clipUtf8(read.text, Math.max(0, budget));
        budget -= Buffer.byteLength(fitted.text);
        const file: ContextFile = { path, content: fitted.text };
        if (fitted.truncated) file.clipped = fitted.text === "" ? "omitted" : "total";
        else if (read.clipped) file.clipped = "file";
        files.push(file);
        return;
      }
    };
    await take([join(input.ziHome, "AGENTS.md")]);
    for (const dir of ContextFileLoader.walk(input.root, input.cwd)) await take(PROJECT_NAMES.map((name) => join(dir, name)));
    return { files, problems };
  }

  /** `root`, then each directory below it down to `cwd` (only `cwd` when it is not under `root`). */
  static walk(root: string, cwd: string): string[] {
    const top = resolve(root);
    const bottom = resolve(cwd);
    const path = relative(top, bottom);
    if (path.startsWith("..") || resolve(top, path) !== bottom) return [bottom];
    const dirs = [top];
    let current = top;
    for (const part of path === "" ? [] : path.split(sep)) dirs.push((current = join(current, part)));
    return dirs;
  }
}
