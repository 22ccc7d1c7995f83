import { describe, expect, it } from "@jest/globals";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZI_BIN } from "../support/zi-process.js";

function home(settings?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "zi-e2e-print-"));
  if (settings) writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  return dir;
}

const env = (dir: string) => ({ PATH: process.env.PATH ?? "", HOME: dir, ZI_HOME: dir });

function print(args: string[], options: { dir?: string; input?: string } = {}) {
  const dir = options.dir ?? home();
  return spawnSync(process.execPath, [ZI_BIN, ...args], { encoding: "utf8", cwd: dir, env: env(dir), input: options.input ?? "", timeout: 30000 });
}

function script(dir: string, responses: object[]): string {
  const file = join(dir, "script.json");
  writeFileSync(file, JSON.stringify({ responses }));
  return file;
}

describe("zi -p (print mode)", () => {
  it.each([["-p"], ["--print"]])("%s prints exactly the final answer on stdout, nothing on stderr, and exits 0", (flag) => {
    const run = print([flag, "--model", "faux/echo", "hello"]);
    expect(run).toMatchObject({ status: 0, stdout: "Echo: hello\n", stderr: "" });
  });

  it("adds piped stdin to the prompt after a blank line; stdin alone is a prompt too", () => {
    expect(print(["-p", "--model", "faux/echo", "--no-session", "summarize"], { input: "line one\nline two\n" })).toMatchObject({
      status: 0,
      stdout: "Echo: summarize\n\nline one\nline two\n",
    });
    expect(print(["-p", "--model", "faux/echo", "--no-session"], { input: "only stdin" })).toMatchObject({ status: 0, stdout: "Echo: only stdin\n" });
  });

  it("exits 2 with one reason on stderr for no prompt and for no model; stdout stays empty", () => {
    const noPrompt = print(["-p", "--model", "faux/echo"]);
    expect(noPrompt).toMatchObject({ status: 2, stdout: "" });
    expect(noPrompt.stderr).toMatch(/-p needs a prompt/);
    const noModel = print(["-p", "hello"]);
    expect(noModel).toMatchObject({ status: 2, stdout: "" });
    expect(noModel.stderr).toMatch(/--model PROVIDER\/ID/);
  });

  it("takes the headless worker's budget flags: --max-turns ends the run with exit 3 and says which budget on stderr", () => {
    const dir = home();
    const turn = { toolCalls: [{ name: "ls", arguments: {} }] };
    const run = print(["-p", "--no-session", "--max-turns", "2", "--faux-script", script(dir, [turn, turn, turn, turn, turn, { text: "never" }]), "--model", "faux/scripted", "go"], { dir });
    expect(run).toMatchObject({ status: 3, stdout: "" });
    expect(run.stderr).toContain("zi: the run reached its run budget maxTurns (2 of 2)");
  });

  it("prints the parsed value with --output-schema, and exits 4 when no answer matches after the repairs", () => {
    const dir = home();
    const schema = join(dir, "schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object", properties: { answer: { type: "integer" } }, required: ["answer"], additionalProperties: false }));
    const fenced = print(["-p", "--no-session", "--output-schema", schema, "--faux-script", script(dir, [{ text: '```json\n{"answer": 42}\n```' }]), "--model", "faux/scripted", "what?"], { dir });
    expect(fenced).toMatchObject({ status: 0, stdout: '{"answer":42}\n', stderr: "" });
    const wrong = { text: '{"answer": "many"}' };
    const invalid = print(["-p", "--no-session", "--output-schema", schema, "--faux-script", script(dir, [wrong, wrong, wrong]), "--model", "faux/scripted", "what?"], { dir });
    expect(invalid).toMatchObject({ status: 4, stdout: "" });
    expect(invalid.stderr).toMatch(/gave no answer matching the schema: .*answer must be integer/);
  });

  it("exits 1 when the run fails, saying why on stderr and nothing on stdout", () => {
    const dir = home();
    const run = print(["-p", "--faux-script", script(dir, [{ error: { message: "provider exploded", retryable: false } }]), "--model", "faux/scripted", "go"], { dir });
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toMatch(/provider exploded/);
  });

  it("denies a call the policy asks about at once, says so on stderr, and still prints the answer", () => {
    const dir = home({ permissions: { default: "ask" } });
    const file = script(dir, [{ toolCalls: [{ name: "bash", arguments: { command: "touch asked.txt" } }] }, { text: "done anyway" }]);
    const run = print(["-p", "--no-session", "--faux-script", file, "--model", "faux/scripted", "go"], { dir });
    expect(run).toMatchObject({ status: 0, stdout: "done anyway\n" });
    expect(run.stderr).toMatch(/zi: tool bash failed: Permission denied: .*nobody can answer in --mode json or -p/);
    expect(existsSync(join(dir, "asked.txt"))).toBe(false);
  });

  it("--thinking selects the level once the model is chosen (journaled)", () => {
    const dir = home();
    const file = script(dir, [{ text: "thought about it" }]);
    expect(print(["-p", "--faux-script", file, "--model", "faux/scripted", "--thinking", "low", "go"], { dir })).toMatchObject({ status: 0, stdout: "thought about it\n" });
    const [journal] = readdirSync(join(dir, "sessions")).filter((name) => name.endsWith(".jsonl"));
    const entries = readFileSync(join(dir, "sessions", journal), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(entries.filter((entry) => entry.type === "thinking_level_change").at(-1)).toMatchObject({ thinkingLevel: "low" });
  });

  it("-c continues this directory's latest session", () => {
    const dir = home();
    expect(print(["-p", "--model", "faux/echo", "first"], { dir }).status).toBe(0);
    // The continued session restores its model: no --model needed.
    expect(print(["-p", "-c", "second"], { dir })).toMatchObject({ status: 0, stdout: "Echo: second\n" });
  });

  it("exits 130 when interrupted (SIGINT) during a run, with nothing on stdout", async () => {
    const dir = home({ permissions: { default: "allow" } });
    const file = script(dir, [{ toolCalls: [{ name: "bash", arguments: { command: "touch started && sleep 30" } }] }, { text: "never" }]);
    const child = spawn(process.execPath, [ZI_BIN, "-p", "--no-session", "--faux-script", file, "--model", "faux/scripted", "go"], { cwd: dir, env: env(dir) });
    child.stdin.end();
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // The tool's own marker says the run is under way.
    for (const deadline = Date.now() + 20000; !existsSync(join(dir, "started")); ) {
      if (Date.now() > deadline) throw new Error(`the run never started: ${stderr}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/interrupted/);
  }, 30000);
});
