import { resolve, sep } from "node:path";
import picomatch from "picomatch";
import type { PermissionRule } from "../../core/wire/session-types.js";
import { ruleCommandTokens } from "./bash-command.js";
import type { ToolEffect } from "../../core/wire/session-types.js";

/**
 * What one rule looks at in a call: its tool (name and declared effect), and for a call that runs a
 * command one simple command of it, for a call that touches paths one of them.
 */
export type CallUnit =
  | { kind: "tool"; tool: string; effect: ToolEffect }
  | { kind: "command"; tool: string; effect: ToolEffect; tokens: string[]; opaque: boolean; runs: string[][] }
  | { kind: "path"; tool: string; effect: ToolEffect; relative: string | undefined; absolute: string; root: string; protectedBy?: string };

/** A rule checked and compiled once: its matchers are built when it enters a policy. */
export class CompiledRule {
  private readonly tool: ((name: string) => boolean) | undefined;
  /** The command's words; `null` for a command that is not one simple command, which matches nothing. */
  private readonly command: string[] | null | undefined;
  private readonly path: ((path: string) => boolean) | undefined;
  private readonly absolutePath: boolean;

  constructor(readonly rule: PermissionRule) {
    this.tool = rule.tool === undefined ? undefined : picomatch(rule.tool, { dot: true });
    const tokens = rule.command === undefined ? undefined : ruleCommandTokens(rule.command);
    this.command = tokens === undefined ? undefined : Array.isArray(tokens) ? tokens : null;
    this.absolutePath = rule.path?.startsWith("/") ?? false;
    this.path = rule.path === undefined ? undefined : picomatch(rule.path, { dot: true });
  }

  matchesTool(name: string): boolean {
    return !this.tool || this.tool(name);
  }

  matches(unit: CallUnit): boolean {
    const { rule } = this;
    if (this.tool && !this.tool(unit.tool)) return false;
    // Read-only is what the tool declares, never its name: an undeclared tool (`other`) is not read-only.
    if (rule.readOnly && unit.effect !== "read") return false;
    if (rule.effect !== undefined && unit.effect !== rule.effect) return false;
    if (this.command === null) return false;
    if (this.command) {
      if (unit.kind !== "command") return false;
      // An allow rule holds only what bash runs exactly as read; deny and ask rules match whatever
      // the unwrapping finds (`env rm`, `/bin/rm`, `bash -c 'rm …'`, `find -delete`).
      if (rule.action === "allow") {
        if (unit.opaque || !startsWith(unit.tokens, this.command)) return false;
      } else {
        const prefix = [commandName(this.command[0]!), ...this.command.slice(1)];
        if (!unit.runs.some((words) => startsWith(words, prefix))) return false;
      }
    }
    if (this.path || rule.outsideCwd) {
      if (unit.kind !== "path") return false;
      if (rule.outsideCwd && unit.relative !== undefined) return false;
      if (this.path) {
        if (this.absolutePath) return this.path(unit.absolute);
        if (unit.relative === undefined || !this.path(unit.relative)) return false;
      }
    }
    return true;
  }

  /**
   * Whether the rule's literal part (its path up to the first wildcard, at a whole segment) reaches
   * into `place` (a real directory): `.git/**` and `.husky/*` name theirs, `**` and `.g*` do not.
   * `root` is the working directory's real path, against which a relative rule resolves; a rule that
   * reaches the place only through a symlink does not name it (the edit asks, the safe side).
   */
  reaches(place: string, root: string): boolean {
    if (this.rule.path === undefined) return false;
    const literal = literalPrefix(this.rule.path);
    const reached = resolve(root, literal);
    return reached === place || reached.startsWith(place.endsWith(sep) ? place : place + sep);
  }
}

/** The directories a glob names before its first wildcard (escapes read as the characters they escape). */
function literalPrefix(glob: string): string {
  let text = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "\\" && i + 1 < glob.length) text += glob[++i];
    else if ("*?[]{}()!+@|".includes(char)) return text.slice(0, text.lastIndexOf("/") + 1);
    else text += char;
  }
  return text;
}

const startsWith = (words: readonly string[], prefix: readonly string[]): boolean => words.length >= prefix.length && prefix.every((word, index) => words[index] === word);
const commandName = (word: string): string => word.slice(word.lastIndexOf("/") + 1);

/** A literal name or path as a glob that matches exactly it. */
export function literalGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!+@|]/g, "\\$&");
}
