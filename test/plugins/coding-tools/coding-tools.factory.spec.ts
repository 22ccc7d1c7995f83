import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentTool, AgentToolResult } from "../../../core/session/agent-tool.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { makeTempDir, textOf } from "../../support/tool-test-kit.js";

const byName = (tools: AgentTool[], name: string): AgentTool => tools.find((tool) => tool.name === name)!;

describe("CodingTools", () => {
  let dir: string;
  let cleanup: () => void;

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("creates each tool once, every one with a description and a parameters schema", () => {
    const tools = createCodingTools({ cwd: dir, logDir: dir });
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    for (const tool of tools) expect([tool.name, typeof tool.description, (tool.parameters as { type?: unknown }).type]).toEqual([tool.name, "string", "object"]);
  });

  it("has schemas pi-ai accepts for valid arguments and rejects for invalid ones", async () => {
    const piAi = await import("@mariozechner/pi-ai");
    const tools = createCodingTools({ cwd: dir, logDir: dir });
    const validate = (name: string, args: Record<string, unknown>): unknown => {
      const tool = byName(tools, name);
      const schema = { name, description: tool.description, parameters: tool.parameters } as unknown as PiAi.Tool;
      return piAi.validateToolArguments(schema, { type: "toolCall", id: "1", name, arguments: args });
    };
    const valid: [string, Record<string, unknown>][] = [
      ["read", { path: "a", offset: 2, limit: 10 }],
      ["write", { path: "a", content: "" }],
      ["edit", { path: "a", oldText: "x", newText: "", replaceAll: true }],
      ["bash", { command: "ls", timeoutMs: 1000 }],
      ["ls", {}],
      ["grep", { pattern: "x", path: ".", glob: "*.ts", ignoreCase: true, limit: 5 }],
      ["find", { pattern: "*.ts", path: ".", limit: 5 }],
    ];
    for (const [name, args] of valid) expect(validate(name, args)).toEqual(args);
    const invalid: [string, Record<string, unknown>][] = [
      ["read", {}],
      ["read", { path: "a", limit: 5000 }],
      ["write", { path: "a" }],
      ["edit", { path: "a", oldText: "", newText: "b" }],
      ["bash", { command: "ls", timeoutMs: 0 }],
      ["ls", { path: "a", extra: 1 }],
      ["grep", { pattern: "" }],
      ["find", {}],
    ];
    for (const [name, args] of invalid) expect(() => validate(name, args)).toThrow(/Validation failed/);
  });

  it("falls back to the factory's cwd when a direct caller gives none", async () => {
    writeFileSync(join(dir, "f.txt"), "from factory cwd\n");
    const read = byName(createCodingTools({ cwd: dir, logDir: dir }), "read");
    const result: AgentToolResult = await read.execute({ path: "f.txt" }, { cwd: "", signal: new AbortController().signal, onUpdate: () => undefined });
    expect(textOf(result)).toBe("from factory cwd");
  });
});
