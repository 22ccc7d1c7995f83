import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BuiltZi } from "../support/built-zi.js";
import { ZI_BIN } from "../support/zi-process.js";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A local OTLP/HTTP receiver: records every span posted to /v1/traces (OTLP JSON). */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  readonly paths: string[] = [];
  private server!: Server;
  private waiters: (() => void)[] = [];

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        this.paths.push(`${request.method} ${request.url} ${request.headers["content-type"]}`);
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) this.spans.push(...scope.spans);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  /** Resolves once a span with this name has arrived. */
  async waitFor(name: string): Promise<void> {
    while (!this.spans.some((span) => span.name === name)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const attributes = (span: OtlpSpan): Record<string, unknown> =>
  Object.fromEntries(span.attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.arrayValue ?? value.boolValue]));

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN = "00f067aa0ba902b7";
const SECRET = "sk-test-0123456789abcdefSECRET";
const receivers: OtlpReceiver[] = [];

afterEach(async () => {
  BuiltZi.killAll();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function exited(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

describe("traces (OpenTelemetry, OTLP over HTTP)", () => {
  it("a json-mode run exports its run span under TRACEPARENT, with the model and tool spans as its children, and no secrets", async () => {
    const receiver = new OtlpReceiver();
    receivers.push(receiver);
    const endpoint = await receiver.start();
    const dir = mkdtempSync(join(tmpdir(), "zi-e2e-otel-"));
    writeFileSync(join(dir, "script.json"), JSON.stringify({ responses: [{ toolCalls: [{ name: "bash", arguments: { command: `echo ${SECRET}` } }] }, { text: "done" }] }));
    const child = spawn(process.execPath, [ZI_BIN, "--mode", "json", "--no-session", "--model", "faux/scripted", "--faux-script", join(dir, "script.json"), `use ${SECRET}`], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: dir,
        ZI_HOME: dir,
        OPENAI_API_KEY: SECRET,
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        TRACEPARENT: `00-${TRACE_ID}-${PARENT_SPAN}-01`,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    expect(await exited(child)).toBe(0);
    await receiver.waitFor("invoke_agent zi");
    expect(receiver.paths[0]).toBe("POST /v1/traces application/json");
    const run = receiver.spans.find((span) => span.name === "invoke_agent zi")!;
    expect(run.traceId).toBe(TRACE_ID);
    expect(run.parentSpanId).toBe(PARENT_SPAN);
    expect(attributes(run)).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "zi", "zi.run.reason": "completed" });
    const chats = receiver.spans.filter((span) => span.name === "chat scripted");
    expect(chats).toHaveLength(2);
    const tool = receiver.spans.find((span) => span.name === "execute_tool bash")!;
    for (const span of [...chats, tool]) {
      expect(span.traceId).toBe(TRACE_ID);
      expect(span.parentSpanId).toBe(run.spanId);
    }
    expect(attributes(chats[0])).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "faux", "gen_ai.request.model": "scripted" });
    expect(Number(attributes(chats[0])["gen_ai.usage.input_tokens"])).toBeGreaterThan(0);
    expect(attributes(tool)).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "bash", "gen_ai.tool.call.id": expect.any(String) });
    // Neither the key, nor the prompt, nor the tool's arguments or output reach the collector.
    expect(JSON.stringify(receiver.spans)).not.toContain("SECRET");
    expect(stderr).not.toContain("telemetry");
  });

  it("a delegated child's run nests under the parent's execute_tool delegate span, with its model call under it", async () => {
    const receiver = new OtlpReceiver();
    receivers.push(receiver);
    const endpoint = await receiver.start();
    const zi = await BuiltZi.start({
      env: { PATH: process.env.PATH ?? "", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
      fauxScript: { responses: [{ toolCalls: [{ name: "delegate", arguments: { profile: "explore", task: "look around" } }] }, { profile: "explore", text: "child done" }, { text: "parent done" }] },
    });
    await zi.selectModel("faux", "scripted");
    await zi.prompt("delegate it", { completionId: "d" });
    await zi.awaitIdle({ completionId: "d" });
    await receiver.waitFor("invoke_agent zi");
    await receiver.waitFor("invoke_agent explore");
    const byName = (name: string) => receiver.spans.filter((span) => span.name === name);
    const [parentRun] = byName("invoke_agent zi");
    const [delegate] = byName("execute_tool delegate");
    const [childRun] = byName("invoke_agent explore");
    expect(delegate.parentSpanId).toBe(parentRun.spanId);
    expect(childRun.parentSpanId).toBe(delegate.spanId);
    expect(childRun.traceId).toBe(parentRun.traceId);
    expect(attributes(childRun)).toMatchObject({ "gen_ai.agent.name": "explore", "zi.run.reason": "completed" });
    const chats = byName("chat scripted");
    expect(chats.filter((span) => span.parentSpanId === childRun.spanId)).toHaveLength(1);
    expect(chats.filter((span) => span.parentSpanId === parentRun.spanId)).toHaveLength(2);
    await zi.close();
  });

  it("a prompt's traceparent field parents its run over rpc; without OTEL_* variables nothing is sent", async () => {
    const receiver = new OtlpReceiver();
    receivers.push(receiver);
    const endpoint = await receiver.start();
    const traced = await BuiltZi.start({ env: { PATH: process.env.PATH ?? "", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
    await traced.selectModel("faux", "echo");
    const traceparent = `00-${"a".repeat(32)}-${"b".repeat(16)}-01`;
    await traced.prompt({ delivery: "direct", text: "hi", completionId: "t", traceparent });
    await traced.awaitIdle({ completionId: "t" });
    await receiver.waitFor("invoke_agent zi");
    const run = receiver.spans.find((span) => span.name === "invoke_agent zi")!;
    expect([run.traceId, run.parentSpanId]).toEqual(["a".repeat(32), "b".repeat(16)]);
    await expect(traced.prompt({ delivery: "direct", text: "x", traceparent: "not-a-traceparent" })).rejects.toMatchObject({
      code: "invalid_request",
      details: [{ field: "params.traceparent", problem: expect.stringContaining("W3C traceparent") }],
    });
    await traced.close();

    const quiet = new OtlpReceiver();
    receivers.push(quiet);
    const quietEndpoint = await quiet.start();
    // The receiver is reachable, but no OTEL_* variable names it: the session sends nothing.
    const untraced = await BuiltZi.start({ env: { PATH: process.env.PATH ?? "", ZI_TEST_UNUSED_ENDPOINT: quietEndpoint } });
    await untraced.selectModel("faux", "echo");
    await untraced.prompt("hi", { completionId: "u" });
    await untraced.awaitIdle({ completionId: "u" });
    await untraced.close();
    expect(quiet.spans).toEqual([]);
  });
});
