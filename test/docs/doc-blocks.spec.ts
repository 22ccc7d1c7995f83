import { describe, expect, it } from "@jest/globals";
import { extractDocBlocks, isExcerptOf, matchesPromisedOutput } from "../support/doc-blocks.js";

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\`\n`;

describe("extractDocBlocks", () => {
  it("takes ts and sh blocks with their marker, line, declared path and promised output", () => {
    const markdown = [
      "# Title",
      fence("sh", "echo hi"),
      fence("text output", "hi"),
      fence("sh ci-only", "npm ci"),
      fence("ts typecheck-only", "// methods/x/y.method.ts\nexport {};"),
      fence("ts excerpt=core/a.ts", "export interface A {}"),
      fence("json", "{}"),
      "  - a list item:\n\n   ```ts\n   const indented = 1;\n   ```\n",
    ].join("\n");
    const { blocks, problems } = extractDocBlocks("doc.md", markdown);
    expect(problems).toEqual([]);
    expect(blocks.map(({ line, lang, run, path, excerptOf, output }) => ({ line, lang, run, path, excerptOf, output }))).toEqual([
      { line: 2, lang: "sh", run: "run", path: undefined, excerptOf: undefined, output: "hi\n" },
      { line: 10, lang: "sh", run: "ci-only", path: undefined, excerptOf: undefined, output: undefined },
      { line: 14, lang: "ts", run: "typecheck-only", path: "methods/x/y.method.ts", excerptOf: undefined, output: undefined },
      { line: 19, lang: "ts", run: "excerpt", path: undefined, excerptOf: "core/a.ts", output: undefined },
      { line: 29, lang: "ts", run: "run", path: undefined, excerptOf: undefined, output: undefined },
    ]);
    expect(blocks.at(-1)!.code).toBe("const indented = 1;\n");
  });

  it("reports, never skips, what it cannot run as written", () => {
    const markdown = [
      fence("bash", "ls"),
      fence("typescript", "let a = 1;"),
      fence("ts skip", "let b = 2;"),
      fence("sh", "npm ci && npm run build"),
      "Some prose.",
      fence("text output", "orphan"),
      fence("ts typecheck-only", "let c = 3;"),
      fence("text output", "not run, so no output"),
    ].join("\n");
    const { problems } = extractDocBlocks("doc.md", markdown);
    expect(problems).toEqual([
      expect.stringMatching(/^doc\.md:1: write ```sh instead of ```bash/),
      expect.stringMatching(/^doc\.md:5: write ```ts instead of ```typescript/),
      expect.stringMatching(/^doc\.md:9: unknown or too many markers for ```ts: skip/),
      expect.stringMatching(/^doc\.md:13: a block that installs or runs the suite must be ```sh ci-only/),
      expect.stringMatching(/^doc\.md:18: an output fence must follow a block that is run/),
      expect.stringMatching(/^doc\.md:26: an output fence must follow a block that is run/),
    ]);
  });
});

describe("matchesPromisedOutput", () => {
  it("matches line by line, … within a line and a line of … for any lines", () => {
    const promised = '{"type":"ready",…}\n…\n{"id":"w","text":"Echo: hello"}\n';
    expect(matchesPromisedOutput(promised, '{"type":"ready","state":{}}\n{"a":1}\n{"b":2}\n{"id":"w","text":"Echo: hello"}\n')).toBe(true);
    expect(matchesPromisedOutput(promised, '{"type":"ready"}\n{"id":"w","text":"Echo: hello"}')).toBe(false);
    expect(matchesPromisedOutput(promised, '{"type":"ready",}\n{"id":"w","text":"Echo: hello"}\n')).toBe(true);
    expect(matchesPromisedOutput(promised, '{"type":"ready",}\n{"id":"w","text":"Echo: hullo"}\n')).toBe(false);
    expect(matchesPromisedOutput("a\nb\n", "a\nb\nc\n")).toBe(false);
    expect(matchesPromisedOutput("a.b\n", "axb\n")).toBe(false);
  });
});

describe("isExcerptOf", () => {
  it("needs every line of the excerpt in the source, in order, indentation aside", () => {
    const source = "export interface P {\n  readonly name: string;\n  readonly size: number;\n}\n";
    expect(isExcerptOf("export interface P {\n    readonly size: number;\n}", source)).toBe(true);
    expect(isExcerptOf("readonly size: number;\nreadonly name: string;", source)).toBe(false);
    expect(isExcerptOf("readonly color: string;", source)).toBe(false);
  });
});
