import { afterEach, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BuiltZi } from "../support/built-zi.js";
import { ZI_BIN } from "../support/zi-process.js";

const SCHEMA = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"], additionalProperties: false };
const toolTurn = (n: number) => ({ toolCalls: [{ name: "bash", arguments: { command: `echo turn-${n}` } }] });

/** `zi --mode json` in a fresh ZI_HOME with a faux script (and an output schema file when given). */
function runJson(script: object, args: string[], schema?: object) {
  const dir = mkdtempSync(join(tmpdir(), "zi-e2e-headless-"));
  writeFileSync(join(dir, "script.json"), JSON.stringify(script));
  const schemaArgs: string[] = [];
  if (schema) {
    writeFileSync(join(dir, "schema.json"), JSON.stringify(schema));
    schemaArgs.push("--output-schema", join(dir, "schema.json"));
  }
  const run = spawnSync(process.execPath, [ZI_BIN, "--mode", "json", "--no-session", "--model", "faux/scripted", "--faux-script", join(dir, "script.json"), ...schemaArgs, ...args], {
    encoding: "utf8",
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, ZI_HOME: dir },
    timeout: 60000,
  });
  const lines = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  return { status: run.status, lines, stderr: run.stderr, result: lines.at(-1) };
}

afterEach(() => BuiltZi.killAll());

describe("zi --mode json: structured output", () => {
  it("exits 0 with a result line whose structured value is the parsed answer, after one repair turn", () => {
    const { status, lines, result } = runJson({ responses: [{ text: "forty-two" }, { text: '```json\n{"answer": 42}\n```' }] }, ["what is the answer?"], SCHEMA);
    expect(status).toBe(0);
    expect(result).toMatchObject({ type: "result", status: "completed", exitCode: 0, structured: { answer: 42 }, sessionFile: null });
    expect(lines.filter((line) => line.type === "result")).toHaveLength(1);
    expect(lines.find((line) => line.type === "agent_end")).toEqual({ type: "agent_end", reason: "completed", structured: { answer: 42 } });
    // The repair turn is a user message that names the problem.
    const users = lines.filter((line) => line.type === "message_end" && line.message.role === "user");
    expect(users).toHaveLength(2);
    expect(JSON.stringify(users[1].message.content)).toContain("not JSON");
    expect(result.usage.run.modelCalls).toBe(2);
  });

  it("exits 4 with structured_output_invalid when the answer still does not match after the repairs", () => {
    const wrong = { text: '{"answer": "many"}' };
    const { status, lines, result } = runJson({ responses: [wrong, wrong, wrong, { text: '{"answer": 1}' }] }, ["answer"], SCHEMA);
    expect(status).toBe(4);
    expect(result).toMatchObject({ status: "structured_output_invalid", exitCode: 4, text: '{"answer": "many"}' });
    expect(result.structured).toBeUndefined();
    expect(result.errorMessage).toContain("/answer must be integer");
    // One answer and two repairs: the fourth scripted step is never asked for.
    expect(result.usage.run.modelCalls).toBe(3);
    const outcome = lines.find((line) => line.type === "operation_outcome").outcome;
    expect(outcome).toMatchObject({ capability: "session", operation: "run", result: "structured_output_invalid", evidence: { outputSchema: "invalid" } });
  });

  it("refuses an unreadable or invalid schema file as a usage error (exit 2, no result line)", () => {
    const bad = runJson({ responses: [] }, ["x"], { type: "no-such-type" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("outputSchema is not a valid JSON Schema");
    expect(bad.lines.some((line) => line.type === "result")).toBe(false);
  });
});

describe("zi --mode json: budgets", () => {
  it("--max-turns 2 against a script of 5 tool turns ends with budget_exceeded after 2 (exit 3)", () => {
    const { status, lines, result } = runJson({ responses: [1, 2, 3, 4, 5].map(toolTurn) }, ["--max-turns", "2", "go"]);
    expect(status).toBe(3);
    expect(lines.find((line) => line.type === "agent_end")).toEqual({ type: "agent_end", reason: "budget_exceeded", budget: { scope: "run", budget: "maxTurns", limit: 2, used: 2 } });
    expect(lines.filter((line) => line.type === "tool_execution_end").map((line) => line.result.content[0].text.trim())).toEqual([
      expect.stringContaining("turn-1"),
      expect.stringContaining("turn-2"),
    ]);
    expect(result).toMatchObject({ status: "budget_exceeded", exitCode: 3, budget: { budget: "maxTurns" } });
    expect(result.usage.budget).toMatchObject({ limits: { run: { maxTurns: 2 } }, left: { run: { maxTurns: 0 } }, exceeded: { budget: "maxTurns" } });
    expect(result.usage.budget.used.run.maxTurns).toBe(2);
    const outcome = lines.find((line) => line.type === "operation_outcome").outcome;
    expect(outcome).toMatchObject({ result: "budget_exceeded", evidence: { budget: { scope: "run", budget: "maxTurns", limit: 2, used: 2 } } });
  });

  it("a delegated child's turns count against the parent's run budget", () => {
    const responses = [
      { toolCalls: [{ name: "delegate", arguments: { profile: "explore", task: "look" } }] },
      { profile: "explore", text: "child done" },
      { text: "parent done" },
    ];
    // One parent model call and one child model call: two turns, the budget, once the delegate call has ended.
    const limited = runJson({ responses }, ["--max-turns", "2", "go"]);
    expect(limited.status).toBe(3);
    expect(limited.result.budget).toEqual({ scope: "run", budget: "maxTurns", limit: 2, used: 2 });
    expect(limited.result.usage.run.modelCalls).toBe(1);
    expect(limited.result.usage.children.modelCalls).toBe(1);
    // With room for the closing reply, the same script completes.
    expect(runJson({ responses }, ["--max-turns", "3", "go"]).status).toBe(0);
  });

  it("--max-tokens ends the run once input + output tokens reach it", () => {
    const { status, result } = runJson({ responses: [1, 2, 3].map(toolTurn) }, ["--max-tokens", "10", "go"]);
    expect(status).toBe(3);
    expect(result.budget).toMatchObject({ scope: "run", budget: "maxTokens", limit: 10 });
    expect(result.budget.used).toBe(result.usage.run.input + result.usage.run.output);
    expect(result.usage.run.modelCalls).toBe(1);
  });

  it("--max-seconds ends a run in the middle of a model call (exit 3, maxSeconds)", () => {
    const { status, lines, result } = runJson({ responses: [{ text: "slow", delayMs: 60000 }] }, ["--max-seconds", "0.5", "go"]);
    expect(status).toBe(3);
    expect(lines.find((line) => line.type === "agent_end")).toMatchObject({ reason: "budget_exceeded", budget: { scope: "run", budget: "maxSeconds", limit: 0.5 } });
    expect(result.budget.used).toBeGreaterThanOrEqual(0.5);
  });

  it("refuses --max-cost-usd for a model without a price (exit 2) and bad budget values (exit 2)", () => {
    const unpriced = runJson({ responses: [] }, ["--max-cost-usd", "0.5", "go"]);
    expect(unpriced.status).toBe(2);
    expect(unpriced.stderr).toContain("maxCostUsd cannot be measured: the model faux/scripted has no price");
    const fractional = runJson({ responses: [] }, ["--max-turns", "1.5", "go"]);
    expect(fractional.status).toBe(2);
    expect(fractional.stderr).toContain("--max-turns takes a whole number above 0");
  });
});

describe("budgets and outputSchema over rpc", () => {
  it("session.set_budget sets run and session limits, reported in get_state and get_usage (used and left)", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [1, 2, 3, 4].map(toolTurn) } });
    await zi.selectModel("faux", "scripted");
    const set = await zi.request("session.set_budget", { run: { maxTurns: 3 }, session: { maxTokens: 1_000_000 } });
    expect(set).toMatchObject({ limits: { run: { maxTurns: 3 }, session: { maxTokens: 1_000_000 } }, exceeded: null });
    await zi.prompt("go", { completionId: "c1" });
    const idle = await zi.awaitIdle({ completionId: "c1" });
    expect(idle.completion).toMatchObject({ reason: "budget_exceeded", budget: { scope: "run", budget: "maxTurns", limit: 3, used: 3 } });
    const usage = await zi.getUsage();
    expect(usage.budget?.left.run).toEqual({ maxTurns: 0 });
    expect(usage.budget?.left.session?.maxTokens).toBe(1_000_000 - usage.budget!.used.session.maxTokens);
    expect((await zi.getState()).budget?.exceeded).toMatchObject({ budget: "maxTurns" });
    await expect(zi.request("session.set_budget", { run: { maxCostUsd: 1 } })).rejects.toThrow("maxCostUsd cannot be measured");
    await expect(zi.request("session.set_budget", { run: { maxTurns: 0 } })).rejects.toThrow();
  });

  it("takes budgets from settings.json (budget.run, budget.session) and reports them before any is set over rpc", async () => {
    const zi = await BuiltZi.start({ settings: { budget: { run: { maxTurns: 1 }, session: { maxTokens: 500000 } } }, fauxScript: { responses: [toolTurn(1), toolTurn(2)] } });
    expect((await zi.getState()).budget?.limits).toEqual({ run: { maxTurns: 1 }, session: { maxTokens: 500000 } });
    await zi.selectModel("faux", "scripted");
    await zi.prompt("go", { completionId: "s" });
    expect((await zi.awaitIdle({ completionId: "s" })).completion).toMatchObject({ reason: "budget_exceeded", budget: { scope: "run", budget: "maxTurns", limit: 1, used: 1 } });
  });

  it("a session budget that is spent refuses the next prompt", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [toolTurn(1), toolTurn(2), { text: "done" }] } });
    await zi.selectModel("faux", "scripted");
    await zi.request("session.set_budget", { session: { maxTurns: 1 } });
    await zi.prompt("go", { completionId: "c1" });
    expect((await zi.awaitIdle({ completionId: "c1" })).completion).toMatchObject({ reason: "budget_exceeded", budget: { scope: "session" } });
    await expect(zi.prompt("again")).rejects.toThrow("the session budget maxTurns (1) is spent");
  });

  it("session.prompt outputSchema puts the parsed answer into the completion evidence", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [{ text: '{"answer": 7}' }] } });
    await zi.selectModel("faux", "scripted");
    await zi.prompt({ delivery: "direct", text: "answer", completionId: "s1", outputSchema: SCHEMA });
    expect((await zi.awaitIdle({ completionId: "s1" })).completion).toMatchObject({ text: '{"answer": 7}', reason: "completed", structured: { answer: 7 } });
    await expect(zi.prompt({ delivery: "steer", text: "x", outputSchema: SCHEMA })).rejects.toThrow("outputSchema applies to a prompt that starts a run");
  });
});
