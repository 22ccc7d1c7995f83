import type { HLJSApi } from "highlight.js";

/** highlight.js's classes (the scopes its grammars emit) as terminal colours. */
const SCOPE_COLOURS: ReadonlyMap<string, string> = new Map([
  ["keyword", "35"],
  ["built_in", "36"],
  ["type", "36"],
  ["literal", "33"],
  ["number", "33"],
  ["string", "32"],
  ["regexp", "31"],
  ["comment", "90"],
  ["doctag", "90"],
  ["meta", "90"],
  ["title", "34"],
  ["title.function_", "34"],
  ["title.class_", "36"],
  ["attr", "33"],
  ["attribute", "33"],
  ["variable", "37"],
  ["params", "37"],
  ["symbol", "33"],
  ["addition", "32"],
  ["deletion", "31"],
  ["section", "1"],
  ["name", "34"],
  ["tag", "90"],
]);
const ENTITIES: ReadonlyMap<string, string> = new Map([
  ["&lt;", "<"],
  ["&gt;", ">"],
  ["&amp;", "&"],
  ["&quot;", '"'],
  ["&#x27;", "'"],
  ["&#39;", "'"],
]);
const TOKEN = /<span class="hljs-([^"]+)">|<\/span>|&(?:lt|gt|amp|quot|#x27|#39);|[^<&]+|[<&]/g;

/**
 * Code blocks in colour: highlight.js (its common languages), loaded in the background when the
 * interactive mode starts so that the first screen does not wait for it; until then code is plain.
 */
export class CodeHighlighter {
  private hljs: HLJSApi | undefined;

  /** Whether highlight.js has loaded (code drawn before is plain). */
  get ready(): boolean {
    return this.hljs !== undefined;
  }

  /** Settles once highlight.js is loaded, or has failed to load (code stays plain then). */
  load(): Promise<void> {
    return import("highlight.js/lib/common").then(
      (module) => {
        this.hljs = (module as unknown as { default: HLJSApi }).default;
      },
      () => undefined, // plain code blocks then
    );
  }

  /** The lines of `code`, coloured; a language highlight.js does not know is left plain. */
  highlight(code: string, lang: string | undefined): string[] {
    const hljs = this.hljs;
    if (!hljs || !lang || !hljs.getLanguage(lang)) return code.split("\n");
    let html: string;
    try {
      html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    } catch {
      return code.split("\n");
    }
    return toAnsiLines(html);
  }
}

/** highlight.js's HTML as SGR-coloured lines, every line closing and reopening what spans it. */
function toAnsiLines(html: string): string[] {
  const stack: string[] = [];
  const lines: string[] = [];
  let line = "";
  const open = () => stack.map((code) => `\x1b[${code}m`).join("");
  for (const [token, scope] of html.matchAll(TOKEN)) {
    if (scope !== undefined) {
      const code = SCOPE_COLOURS.get(scope) ?? SCOPE_COLOURS.get(scope.split(".")[0]) ?? "39";
      stack.push(code);
      line += `\x1b[${code}m`;
    } else if (token === "</span>") {
      stack.pop();
      line += `\x1b[0m${open()}`;
    } else {
      const text = ENTITIES.get(token) ?? token;
      const parts = text.split("\n");
      line += parts[0];
      for (const part of parts.slice(1)) {
        lines.push(`${line}\x1b[0m`);
        line = open() + part;
      }
    }
  }
  lines.push(`${line}\x1b[0m`);
  return lines;
}
