import { describe, expect, it } from "@jest/globals";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZI_BIN } from "../support/zi-process.js";

function home(): string {
  return mkdtempSync(join(tmpdir(), "zi-e2e-json-"));
}

function runJson(args: string[], ziHome = home()) {
  const run = spawnSync(process.execPath, [ZI_BIN, "--mode", "json", "--no-session", ...args], {
    encoding: "utf8",
    cwd: ziHome,
    env: { PATH: process.env.PATH ?? "", HOME: ziHome, ZI_HOME: ziHome },
    timeout: 30000,
  });
  const events = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  return { status: run.status, events, stderr: run.stderr };
}

describe("zi --mode json", () => {
  it("streams the session events of one prompt as JSONL and exits 0 when the run completes", () => {
    const { status, events } = runJson(["--model", "faux/echo", "hello", "json", "mode"]);
    expect(status).toBe(0);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("entry_appended");
    expect(types).toEqual(expect.arrayContaining(["model_changed", "agent_start", "message_update", "message_end", "agent_end"]));
    expect(types.at(-2)).toBe("activity_changed");
    // The last line says how the run ended, its answer and what it cost (usage is session.get_usage's answer).
    const totals = { input: expect.any(Number), output: expect.any(Number), cacheRead: 0, cacheWrite: 0, totalTokens: expect.any(Number), cost: 0, modelCalls: 1, toolCalls: 0 };
    expect(events.at(-1)).toEqual({
      type: "result",
      status: "completed",
      exitCode: 0,
      text: "Echo: hello json mode",
      usage: { session: totals, run: { ...totals, active: false }, children: { ...totals, modelCalls: 0, input: 0, output: 0, totalTokens: 0, tasks: 0 } },
      costUsd: 0,
      durationMs: expect.any(Number),
      sessionFile: null,
    });
    expect(events.at(-1).usage.session.output).toBeGreaterThan(0);
    const deltas = events.filter((e) => e.type === "message_update").map((e) => e.assistantMessageEvent.delta).join("");
    expect(deltas).toBe("Echo: hello json mode");
    expect(events.find((e) => e.type === "agent_end")).toEqual({ type: "agent_end", reason: "completed" });
  });

  it("exits 1 when the run fails, after streaming its events", () => {
    const dir = home();
    const script = join(dir, "script.json");
    writeFileSync(script, JSON.stringify({ responses: [{ error: { message: "provider exploded" } }] }));
    const { status, events } = runJson(["--faux-script", script, "--model", "faux/scripted", "go"], dir);
    expect(status).toBe(1);
    expect(events.find((e) => e.type === "agent_end")).toMatchObject({ reason: "failed" });
  });

  it("exits 2 without a model or without a prompt, with one reason on stderr", () => {
    const noModel = runJson(["hello"]);
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toContain("--model");
    const noPrompt = runJson(["--model", "faux/echo"]);
    expect(noPrompt.status).toBe(2);
    expect(noPrompt.events).toEqual([]);
  });

  it.each([["faux/echo"], [{ provider: "faux", id: "echo" }]])("uses defaultModel %j from settings.json when no --model is given", (defaultModel) => {
    const dir = home();
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ defaultModel }));
    const { status, events } = runJson(["from settings"], dir);
    expect(status).toBe(0);
    expect(events.find((e) => e.type === "model_changed").model).toMatchObject({ provider: "faux", id: "echo" });
    expect(events.filter((e) => e.type === "message_update").map((e) => e.assistantMessageEvent.delta).join("")).toBe("Echo: from settings");
  });

  it("exits 130 on SIGINT, after interrupting the run", async () => {
    const dir = home();
    const script = join(dir, "script.json");
    writeFileSync(script, JSON.stringify({ responses: [{ text: "slow", delayMs: 20000 }] }));
    const child = spawn(process.execPath, [ZI_BIN, "--mode", "json", "--no-session", "--faux-script", script, "--model", "faux/scripted", "go"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, ZI_HOME: dir },
    });
    let out = "";
    let signalled = false;
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (!signalled && out.includes('"agent_start"')) {
        signalled = true;
        child.kill("SIGINT");
      }
    });
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(130);
    const events = out.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    expect(events.find((e) => e.type === "agent_end")).toMatchObject({ reason: "interrupted" });
  });
});

describe("zi schema", () => {
  it("prints the machine-readable protocol on stdout", () => {
    const run = spawnSync(process.execPath, [ZI_BIN, "schema"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    const schema = JSON.parse(run.stdout);
    expect(schema.protocolVersion).toBe(1);
    expect(schema.methods.map((m: { name: string }) => m.name)).toEqual(
      expect.arrayContaining(["session.prompt", "command.invoke", "model.select", "thinking.select", "connection.set_events"]),
    );
  });
});
