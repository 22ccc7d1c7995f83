import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { OpenAICompatibleServer, type RecordedRequest } from "../support/openai-compatible-server.js";
import { ZI_BIN } from "../support/zi-process.js";

const EVERYTHING = resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** `zi --mode json` over a ZI_HOME whose mcp.json names the reference `everything` server; resolves with its exit and output. */
async function runJson(provider: OpenAICompatibleServer, input: string[], mcp: Record<string, unknown>) {
  const home = mkdtempSync(join(tmpdir(), "zi-e2e-mcp-provider-"));
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: provider.baseUrl, apiKey: "sk-local", models: [{ id: "m1", input }] } } }));
  // promptWaitMs: the first request must offer the server's tools even on a loaded CI machine.
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"], promptWaitMs: 120_000 } }, ...mcp }));
  const child = spawn(process.execPath, [ZI_BIN, "--mode", "json", "--no-session", "--model", "local/m1", "use the tools"], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, stderr, events: stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line)) };
}

async function provider(): Promise<OpenAICompatibleServer> {
  const server = new OpenAICompatibleServer();
  servers.push(server);
  await server.start();
  return server;
}

const toolNames = (request: RecordedRequest): string[] => ((request.body?.tools as any[]) ?? []).map((tool) => tool.function.name);
const toolBytes = (request: RecordedRequest): number => Buffer.byteLength(JSON.stringify(request.body?.tools ?? []));
const messages = (request: RecordedRequest): any[] => request.body?.messages as any[];

describe("MCP tools reach a real provider (the issue's check, against a local OpenAI-compatible server)", () => {
  it("the first request offers mcp__everything__echo and get-tiny-image; echo's text and the image part reach the model", async () => {
    const local = await provider();
    local.enqueue(
      { type: "tool_call", name: "mcp__everything__echo", arguments: { message: "hi there" } },
      { type: "tool_call", name: "mcp__everything__get-tiny-image", arguments: {} },
      { type: "text", chunks: ["done"] },
    );
    const run = await runJson(local, ["text", "image"], {});
    expect(run.code).toBe(0);
    expect(local.requests).toHaveLength(3);
    const [first, second, third] = local.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
    expect(toolNames(first)).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-tiny-image", "read", "bash"]));
    const echoSchema = (first.body?.tools as any[]).find((tool) => tool.function.name === "mcp__everything__echo").function.parameters;
    expect(echoSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } }, required: ["message"] });
    expect(messages(second).find((message) => message.role === "tool")).toMatchObject({ role: "tool", content: "Echo: hi there" });
    const attached = messages(third).at(-1);
    expect(attached.role).toBe("user");
    expect(attached.content).toEqual(expect.arrayContaining([{ type: "image_url", image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } }]));
    expect(run.events.filter((event) => event.type === "mcp_server_changed").map((event) => event.state)).toEqual(expect.arrayContaining(["starting", "ready"]));
  }, 60_000);

  it("a model without image input gets a note instead of the image", async () => {
    const local = await provider();
    local.enqueue({ type: "tool_call", name: "mcp__everything__get-tiny-image", arguments: {} }, { type: "text", chunks: ["done"] });
    const run = await runJson(local, ["text"], {});
    expect(run.code).toBe(0);
    const body = JSON.stringify(local.requests[1]!.body);
    expect(body).not.toContain("data:image/png");
    expect(body).toContain("image omitted");
  }, 60_000);

  it("toolSearch on: the request carries one mcp_tools tool instead of every MCP schema, and far fewer bytes of tools", async () => {
    const full = await provider();
    full.enqueue({ type: "text", chunks: ["done"] });
    expect((await runJson(full, ["text"], {})).code).toBe(0);
    const searching = await provider();
    searching.enqueue({ type: "text", chunks: ["done"] });
    expect((await runJson(searching, ["text"], { toolSearch: "on" })).code).toBe(0);
    const [all] = full.requests as [RecordedRequest];
    const [one] = searching.requests as [RecordedRequest];
    expect(toolNames(one).filter((name) => name.startsWith("mcp"))).toEqual(["mcp_tools"]);
    expect(toolNames(all).filter((name) => name.startsWith("mcp__everything__")).length).toBeGreaterThanOrEqual(12);
    expect(toolBytes(one)).toBeLessThan(toolBytes(all));
  }, 60_000);
});
