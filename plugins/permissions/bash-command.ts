import { parse, quote } from "shell-quote";

/** One simple command of a shell command line, as a rule sees it. */
export interface CommandPart {
  /** Its words, quotes removed, variables left as written (`$HOME`); a substitution is `$(…)`. */
  tokens: string[];
  /**
   * True when the part writes a file through a redirection (`>`, `>>`, `&>`, … to anything but
   * /dev/null) or feeds a here-document: a command-prefix rule never allows it.
   */
  opaque: boolean;
}

type Token = ReturnType<typeof parse>[number];

const CONTROL = new Set(["&&", "||", ";", ";;", "|", "|&", "&"]);
const OPENERS = new Set(["(", "<(", ">("]);
const WRITES = new Set([">", ">>", ">|", "&>", "&>>"]);
const HARMLESS_TARGET = /^(\/dev\/null|\d+|-)$/;

/**
 * Newlines end commands (`a\nb` is `a; b`), but shell-quote reads them as spaces: outside quotes
 * they become `;` first, so a second line can never hide behind the first one's prefix.
 */
function separateLines(command: string): string {
  let out = "";
  let quoteChar: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "\\" && quoteChar !== "'") {
      out += c + (command[i + 1] ?? "");
      i++;
      continue;
    }
    if (quoteChar) {
      if (c === quoteChar) quoteChar = undefined;
    } else if (c === "'" || c === '"') quoteChar = c;
    else if (c === "\n" || c === "\r") {
      out += " ; ";
      continue;
    }
    out += c;
  }
  return out;
}

/** The commands a word runs when the shell expands it: `$(…)` and backquotes, even inside double quotes. */
function substitutions(word: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < word.length; i++) {
    if (word[i] === "$" && word[i + 1] === "(") {
      let depth = 0;
      let j = i + 1;
      for (; j < word.length; j++) {
        if (word[j] === "(") depth++;
        else if (word[j] === ")" && --depth === 0) break;
      }
      found.push(word.slice(i + 2, j));
      i = j;
    } else if (word[i] === "`") {
      const end = word.indexOf("`", i + 1);
      found.push(word.slice(i + 1, end < 0 ? undefined : end));
      i = end < 0 ? word.length : end;
    }
  }
  return found;
}

/**
 * Splits a shell command line into its simple commands with shell-quote: the parts of `&&`, `||`,
 * `;`, `|`, `&` lists and pipelines, of subshells `( … )`, of command substitutions `$( … )` and
 * backquotes (also inside double quotes) and of process substitutions `<( … )`. Parts with no words are
 * dropped. A command is allowed only if every part is, so nothing can ride along behind an allowed prefix.
 */
export function commandParts(command: string): CommandPart[] {
  const parts: CommandPart[] = [];
  const walk = (line: string, depth: number): void => {
    let tokens: Token[];
    try {
      tokens = parse(separateLines(line), (name) => `$${name}`);
    } catch {
      parts.push({ tokens: [line], opaque: true });
      return;
    }
    const stack: CommandPart[] = [{ tokens: [], opaque: false }];
    const finish = (): void => {
      const part = stack.pop()!;
      if (part.tokens.length > 0) parts.push(part);
    };
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const current = stack[stack.length - 1]!;
      if (typeof token === "string") {
        current.tokens.push(token);
        // Bounded: a pathological nesting gives up on the inner commands and stays unallowable.
        for (const inner of substitutions(token)) {
          if (depth < 8) walk(inner, depth + 1);
          else current.opaque = true;
        }
        continue;
      }
      if ("comment" in token) continue;
      if (!("op" in token)) continue;
      if (token.op === "glob") {
        current.tokens.push((token as { pattern: string }).pattern);
        continue;
      }
      const op = token.op as string;
      if (CONTROL.has(op)) {
        finish();
        stack.push({ tokens: [], opaque: false });
      } else if (OPENERS.has(op)) {
        // `$(` arrives as a `$` word and a `(`: the outer part keeps one placeholder word; a plain
        // subshell `( … )` adds nothing to the part around it.
        if (op !== "(") current.tokens.push(`${op}…)`);
        else if (current.tokens.at(-1) === "$") current.tokens.splice(-1, 1, "$(…)");
        stack.push({ tokens: [], opaque: false });
      } else if (op === ")") {
        finish();
        if (stack.length === 0) stack.push({ tokens: [], opaque: false });
      } else if ((WRITES.has(op) || op === ">&" || op === "<") && /^\d+$/.test(current.tokens.at(-1) ?? "") && current.tokens.length > 1) {
        // `2>&1`: shell-quote splits the descriptor off as a word; it is part of the redirection.
        current.tokens.pop();
        i--;
      } else if (WRITES.has(op)) {
        const target = tokens[i + 1];
        if (typeof target !== "string" || !HARMLESS_TARGET.test(target)) current.opaque = true;
        if (typeof target === "string") i++;
      } else if (op === ">&") {
        const target = tokens[i + 1];
        if (typeof target !== "string" || !HARMLESS_TARGET.test(target)) current.opaque = true;
        if (typeof target === "string") i++;
      } else if (op === "<<" || op === "<<<") {
        current.opaque = true;
      } else if (op === "<") {
        if (typeof tokens[i + 1] === "string") i++;
      } else {
        current.opaque = true;
      }
    }
    while (stack.length > 0) finish();
  };
  walk(command, 0);
  return parts;
}

/** The words of a rule's `command`, or why it is not one simple command. */
export function ruleCommandTokens(command: string): string[] | string {
  const parts = commandParts(command);
  if (parts.length !== 1) return "command must be one simple command (no `;`, `&&`, `|`, subshells or substitutions)";
  const [part] = parts;
  if (part!.opaque || part!.tokens.some((token) => token.includes("$(") || token.includes("`"))) {
    return "command must be one simple command (no redirections or substitutions)";
  }
  return part!.tokens;
}

/** True when `part` starts with `prefix`, word for word. */
export function startsWithWords(part: CommandPart, prefix: readonly string[]): boolean {
  if (part.opaque || prefix.length === 0 || part.tokens.length < prefix.length) return false;
  return prefix.every((word, index) => part.tokens[index] === word);
}

/** A part written back as a command a rule can hold (quoted where needed). */
export function partCommand(part: CommandPart): string {
  return quote(part.tokens);
}
