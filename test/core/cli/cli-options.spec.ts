import { describe, expect, it } from "@jest/globals";
import { UsageError, parseCliOptions } from "../../../core/cli/cli-options.js";

const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => parseCliOptions(args, env);
const refusal = (args: string[]) => {
  try {
    parse(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for ${args.join(" ")}`);
};

describe("CliOptions", () => {
  it("parses the rpc entry point of docs/protocol.md, repeatable --extension and --flag=value", () => {
    expect(parse(["--mode", "rpc", "--session", "s.jsonl", "--extension", "a.ts", "--extension=b.ts", "--faux-script=f.json"])).toEqual({
      mode: "rpc",
      prompt: undefined,
      model: undefined,
      noSession: false,
      sessionFile: "s.jsonl",
      extensions: ["a.ts", "b.ts"],
      fauxScript: "f.json",
      trustProject: false,
      budget: {},
      outputSchemaFile: undefined,
    });
  });

  it("parses the json mode's budget flags (names derived from BUDGET_NAMES) and --output-schema; refuses them elsewhere", () => {
    const options = parse(["--mode", "json", "--max-cost-usd", "0.25", "--max-tokens=1000", "--max-turns", "3", "--max-seconds", "1.5", "--output-schema", "s.json", "go"]);
    expect(options).toMatchObject({ budget: { maxCostUsd: 0.25, maxTokens: 1000, maxTurns: 3, maxSeconds: 1.5 }, outputSchemaFile: "s.json", prompt: "go" });
    expect(() => parse(["--mode", "json", "--max-tokens", "1.5", "go"])).toThrow("--max-tokens takes a whole number above 0");
    expect(() => parse(["--mode", "json", "--max-cost-usd", "-1", "go"])).toThrow("--max-cost-usd takes a number above 0");
    expect(() => parse(["--mode", "rpc", "--max-turns", "2"])).toThrow("budget flags and --output-schema are for --mode json");
  });

  it("parses --mode acp with extensions, a faux script and project trust; refuses what the editor decides (prompt, model, session)", () => {
    expect(parse(["--mode", "acp", "--extension", "a.ts", "--faux-script", "f.json", "--trust-project"])).toMatchObject({
      mode: "acp",
      extensions: ["a.ts"],
      fauxScript: "f.json",
      trustProject: true,
    });
    expect(refusal(["--mode", "acp", "hello"])).toMatch(/positional/);
    expect(refusal(["--mode", "acp", "--model", "faux/echo"])).toMatch(/--model/);
    expect(refusal(["--mode", "acp", "--session", "s.jsonl"])).toMatch(/session\/load/);
    expect(refusal(["--mode", "acp", "--no-session"])).toMatch(/session\/load/);
  });

  it("zi prompt: the flags that change the prompt, no session, nothing else", () => {
    expect(parse(["prompt"])).toMatchObject({ mode: "prompt", noSession: true, trustProject: false, extensions: [] });
    expect(parse(["prompt", "--trust-project", "--extension", "a.ts"])).toMatchObject({ mode: "prompt", trustProject: true, extensions: ["a.ts"] });
    expect(refusal(["prompt", "hello"])).toMatch(/no positional/);
    expect(refusal(["prompt", "--mode", "rpc"])).toMatch(/no --mode/);
    expect(refusal(["prompt", "--model", "faux/echo"])).toMatch(/--trust-project and --extension only/);
    expect(refusal(["--mode", "prompt"])).toMatch(/unsupported mode/);
  });

  it("takes --trust-project as a plain switch (it takes no value)", () => {
    expect(parse(["--mode", "rpc", "--trust-project"])).toMatchObject({ trustProject: true });
    expect(parse(["--mode", "json", "--trust-project", "hello"])).toMatchObject({ trustProject: true, prompt: "hello" });
  });

  it("takes the faux script from ZI_FAUX_SCRIPT unless --faux-script is given", () => {
    expect(parse(["--mode", "rpc"], { ZI_FAUX_SCRIPT: "env.json" })).toMatchObject({ fauxScript: "env.json" });
    expect(parse(["--mode", "rpc", "--faux-script", "flag.json"], { ZI_FAUX_SCRIPT: "env.json" })).toMatchObject({ fauxScript: "flag.json" });
  });

  it("refuses positional arguments, unknown flags, a missing mode and --model in rpc mode", () => {
    expect(refusal(["--mode", "rpc", "hello"])).toMatch(/positional/);
    expect(refusal(["--mode", "rpc", "--bogus"])).toMatch(/unknown option --bogus/);
    expect(refusal([])).toMatch(/--mode is required/);
    expect(refusal(["--mode", "chat"])).toMatch(/unsupported mode/);
    expect(refusal(["--mode", "rpc", "--model", "faux/echo"])).toMatch(/--model/);
    expect(refusal(["--mode", "rpc", "--session"])).toMatch(/needs a value/);
    expect(refusal(["--mode", "rpc", "--no-session", "--session", "s.jsonl"])).toMatch(/cannot be combined/);
  });

  it("joins json-mode positionals into the prompt and splits --model at the first slash", () => {
    expect(parse(["--mode", "json", "--model", "local/org/model:7b", "fix", "the", "bug"])).toMatchObject({
      mode: "json",
      prompt: "fix the bug",
      model: { provider: "local", id: "org/model:7b" },
    });
    expect(refusal(["--mode", "json"])).toMatch(/needs a prompt/);
    expect(refusal(["--mode", "json", "--model", "echo", "hi"])).toMatch(/PROVIDER\/ID/);
  });

  it("recognises help, version and the schema subcommand", () => {
    expect(parse(["--help"])).toBe("help");
    expect(parse(["--mode", "rpc", "--version"])).toBe("version");
    expect(parse(["schema"])).toBe("schema");
  });

  const tty = { stdinIsTTY: true, stdoutIsTTY: true };
  const onTerminal = (args: string[]) => parseCliOptions(args, {}, tty);

  it("with no --mode: a terminal opens the interactive mode, with an optional first prompt and the session flags", () => {
    expect(onTerminal([])).toMatchObject({ mode: "interactive", prompt: undefined });
    expect(onTerminal(["fix", "the", "bug", "--model", "faux/echo", "--thinking", "high"])).toMatchObject({
      mode: "interactive",
      prompt: "fix the bug",
      model: { provider: "faux", id: "echo" },
      thinking: "high",
    });
    expect(onTerminal(["-c"])).toMatchObject({ mode: "interactive", pick: "continue" });
    expect(onTerminal(["--resume"])).toMatchObject({ mode: "interactive", pick: "resume" });
    expect(onTerminal(["--no-session"])).toMatchObject({ mode: "interactive", noSession: true });
    expect(() => onTerminal(["-c", "--resume"])).toThrow(/cannot be combined/);
    expect(() => onTerminal(["--resume", "--session", "s.jsonl"])).toThrow(/pick a session/);
    expect(() => onTerminal(["--thinking", "huge"])).toThrow(/--thinking takes one of off, minimal/);
    // Without a terminal there is no screen to open: the mode must be named.
    expect(refusal(["hello"])).toMatch(/--mode is required when stdin or stdout is not a terminal/);
    expect(() => parseCliOptions(["--mode", "interactive"], {}, { stdinIsTTY: true, stdoutIsTTY: false })).toThrow(/needs a terminal/);
  });

  it("-p and --print: print mode, on a terminal or not; the prompt may be empty until stdin is read", () => {
    expect(parse(["-p", "--model", "faux/echo", "hello"])).toMatchObject({ mode: "print", prompt: "hello", model: { provider: "faux", id: "echo" } });
    expect(onTerminal(["--print", "hi", "there"])).toMatchObject({ mode: "print", prompt: "hi there" });
    expect(parse(["-p"])).toMatchObject({ mode: "print", prompt: "" });
    expect(parse(["-p", "-c", "again"])).toMatchObject({ mode: "print", pick: "continue" });
    expect(refusal(["-p", "--resume", "x"])).toMatch(/--resume is for the interactive mode/);
    expect(refusal(["-p", "--mode", "json", "x"])).toMatch(/takes no --mode/);
    expect(refusal(["--mode", "rpc", "--thinking", "low"])).toMatch(/thinking\.select/);
    expect(parse(["-p", "--thinking", "low", "hi"])).toMatchObject({ mode: "print", thinking: "low" });
  });
});
