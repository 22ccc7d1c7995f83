/**
 * One simple command as the scanner read it: its words with quotes removed, whether every part of it
 * was understood exactly as bash runs it, and the command lines nested in it (substitutions), which
 * bash runs too.
 */
export interface ScannedCommand {
  words: string[];
  /** False when anything in it is beyond the strict subset: bash may run it differently than it reads. */
  exact: boolean;
  /** Why it is not exact (the first reason), for tests and stderr. */
  doubt?: string;
}

/** Characters that end an unquoted word. */
const BREAK = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** Unquoted characters bash expands or treats specially inside a word: not exact. */
const EXPANDS = new Set(["$", "`", "*", "?", "[", "]", "{", "}", "!", "#", "~", "\\", "\r"]);
/** Characters bash expands inside double quotes. */
const EXPANDS_QUOTED = new Set(["$", "`", "\\", "!"]);
/** Reserved words and builtins that change how the rest is read: a command starting with one is not exact. */
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "select", "function", "in", "coproc", "{", "}", "[[", "]]", "!", "time", "alias", "source", ".", "declare", "typeset", "export", "local", "readonly", "set", "shopt", "trap", "enable", "builtin", "let"]);
/** Redirections that write nowhere a file could be: the only ones an exact command may carry. */
const HARMLESS_REDIRECTION = /^(?:[012]?>\/dev\/null|&>\/dev\/null|[12]?>&[12]|<\/dev\/null)$/;

/**
 * A small, strict reader of bash command lines: it splits lists and pipelines (`;`, `&&`, `||`, `|`,
 * `|&`, `&`, newlines) into simple commands and reads words made of plain characters, single quotes
 * and double quotes without expansions, comments only where bash starts them (a `#` at the start of a
 * word), and the redirections to /dev/null or between stdout and stderr. Anything else (a `#` inside
 * a word, `$` in any form, backquotes, globs, braces, `~`, backslashes and line continuations, other
 * redirections, here-documents, subshells, leading assignments, reserved words, control characters)
 * makes the command inexact. Inexact is not an error: the words are still read as best as possible (for
 * deny rules, which must match whatever is found), and the nested command lines of `$( … )`, backquotes
 * and `<( … )` are scanned as commands of their own.
 */
export function scanCommandLine(line: string, depth = 0): ScannedCommand[] {
  const out: ScannedCommand[] = [];
  let current: ScannedCommand = { words: [], exact: true };
  let started = false;
  const doubt = (why: string): void => {
    if (current.exact) Object.assign(current, { exact: false, doubt: why });
  };
  const finish = (): void => {
    if (current.words.length > 0 || !current.exact) out.push(current);
    else if (started) out.push({ words: [], exact: false, doubt: "an empty command" });
    current = { words: [], exact: true };
    started = false;
  };
  const nested = (text: string): void => {
    if (depth >= 8) doubt("nesting too deep");
    // A nested command runs as bash reads it: it keeps its own exactness (the word holding it does not).
    else out.push(...scanCommandLine(text, depth + 1));
  };
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "#") {
      // A comment starts only where a word would: to the end of the line.
      const end = line.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === "\n" || c === ";") {
      if (c === ";" && line[i + 1] === ";") doubt("`;;`");
      finish();
      i++;
      continue;
    }
    if (c === "&" || c === "|") {
      const two = line.slice(i, i + 2);
      if (c === "&" && line[i + 1] === ">") {
        i = redirection(i);
        continue;
      }
      if (!started && current.words.length === 0) doubt(`\`${c}\` with no command before it`);
      finish();
      i += two === "&&" || two === "||" || two === "|&" ? 2 : 1;
      continue;
    }
    if (c === "(" || c === ")") {
      doubt("a subshell or grouping");
      i++;
      continue;
    }
    if (c === "<" || c === ">") {
      if (line[i + 1] === "(") {
        const end = closing(line, i + 1);
        nested(line.slice(i + 2, end));
        doubt("a process substitution");
        i = end + 1;
        continue;
      }
      i = redirection(i);
      continue;
    }
    // A word.
    started = true;
    const { word, next } = readWord(i);
    if (/^\d+$/.test(word.text) && (line[next] === ">" || line[next] === "<")) {
      i = redirection(i);
      continue;
    }
    if (current.words.length === 0 && !word.quoted && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word.text)) doubt("an assignment before the command");
    if (current.words.length === 0 && !word.quoted && RESERVED.has(word.text)) doubt(`the reserved word or builtin \`${word.text}\``);
    current.words.push(word.text);
    i = next;
  }
  finish();
  return out;

  /** Reads a redirection from `at`; only the harmless ones keep a command exact. Returns where it ends. */
  function redirection(at: number): number {
    let j = at;
    while (j < n && /[0-9]/.test(line[j]!)) j++;
    let op = "";
    while (j < n && (line[j] === "<" || line[j] === ">" || line[j] === "&" || line[j] === "|" || line[j] === "-") && op.length < 3) op += line[j++];
    if (op.startsWith("<<")) {
      doubt(op === "<<<" ? "a here-string" : "a here-document");
      // The here-document's body cannot be read safely: everything after is part of this doubt.
      if (op !== "<<<") {
        current.words.push(...line.slice(j).split(/\s+/).filter(Boolean));
        return n;
      }
    }
    while (j < n && (line[j] === " " || line[j] === "\t")) j++;
    if (j < n && !BREAK.has(line[j]!)) j = readWord(j).next;
    const spelled = line.slice(at, j).replace(/\s+/g, "");
    if (!HARMLESS_REDIRECTION.test(spelled)) doubt(`the redirection \`${spelled}\``);
    return j;
  }

  /** Reads one word from `at`: quotes removed, doubts raised for anything bash would expand. */
  function readWord(at: number): { word: { text: string; quoted: boolean }; next: number } {
    let text = "";
    let quoted = false;
    let j = at;
    while (j < n && !BREAK.has(line[j]!)) {
      const ch = line[j]!;
      if (ch === "'") {
        const end = line.indexOf("'", j + 1);
        if (end < 0) {
          doubt("an unterminated quote");
          text += line.slice(j + 1);
          return { word: { text, quoted: true }, next: n };
        }
        text += line.slice(j + 1, end);
        quoted = true;
        j = end + 1;
        continue;
      }
      if (ch === '"') {
        let k = j + 1;
        for (; k < n && line[k] !== '"'; k++) {
          const inner = line[k]!;
          if (inner === "\\" && k + 1 < n) {
            doubt("a backslash inside double quotes");
            text += line[++k];
            continue;
          }
          if (EXPANDS_QUOTED.has(inner)) {
            doubt(`\`${inner}\` inside double quotes`);
            if (inner === "$" && line[k + 1] === "(") {
              const end = closing(line, k + 1);
              nested(line.slice(k + 2, end));
              text += line.slice(k, end + 1);
              k = end;
              continue;
            }
            if (inner === "`") {
              const end = line.indexOf("`", k + 1);
              nested(line.slice(k + 1, end < 0 ? undefined : end));
              k = end < 0 ? n - 1 : end;
              continue;
            }
          }
          text += inner;
        }
        if (k >= n) doubt("an unterminated quote");
        quoted = true;
        j = k + 1;
        continue;
      }
      if (ch === "\\") {
        doubt(line[j + 1] === "\n" ? "a line continuation" : "a backslash");
        if (line[j + 1] === "\n") j += 2;
        else {
          text += line[j + 1] ?? "";
          j += 2;
        }
        continue;
      }
      if (ch === "$" && line[j + 1] === "(") {
        const end = closing(line, j + 1);
        nested(line.slice(j + 2, end));
        doubt("a command substitution");
        text += line.slice(j, end + 1);
        j = end + 1;
        continue;
      }
      if (ch === "`") {
        const end = line.indexOf("`", j + 1);
        nested(line.slice(j + 1, end < 0 ? undefined : end));
        doubt("a backquote substitution");
        j = end < 0 ? n : end + 1;
        continue;
      }
      if (ch === "$" && line[j + 1] === "'") doubt("an ANSI-C quote `$'…'`");
      else if (EXPANDS.has(ch) || ch.charCodeAt(0) < 0x20 || ch === "\x7f") doubt(`\`${ch === "\r" ? "\\r" : ch}\` in a word`);
      text += ch;
      j++;
    }
    return { word: { text, quoted }, next: j };
  }
}

/** The index of the `)` that closes the `(` at `open` (quotes respected), or the end of the line. */
function closing(line: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let k = open; k < line.length; k++) {
    const ch = line[k]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"') k++;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "\\") k++;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return k;
  }
  return line.length;
}
