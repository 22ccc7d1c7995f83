import { afterEach, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { type MethodDescription, type ProtocolDescription, checkParams } from "../../../core/schema/protocol-schema.js";
import { SchemaChecker } from "../../../core/schema/schema-checker.js";
import type { JsonSchema } from "../../../core/wire/json-schema.js";
import type { ServerFrame } from "../../../client/protocol-types.js";
import type { ZiClient } from "../../../client/zi-client.js";
import { ZiRpcError } from "../../../client/zi-rpc-error.js";
import { BuiltZi, RECORD_EXTENSION } from "../../support/built-zi.js";
import { paramSamples } from "../../support/param-samples.js";

const BROKEN_EXTENSION = resolve("test/fixtures/broken.extension.mjs");

/** The event types the description names (each member of frames.session_event's `event`). */
function eventNames(description: ProtocolDescription): string[] {
  const event = description.frames.session_event!.properties!.event!;
  // Each described event has a constant type; the stand-in member (any of them, clipped) has an enum.
  return event.oneOf!.flatMap((member) => (member.properties!.type!.const === undefined ? [] : [member.properties!.type!.const as string]));
}

afterEach(() => BuiltZi.killAll());

// The description under test is the one the built `zi schema` prints (built-in and plugin families).
const printed = spawnSync(process.execPath, ["dist/bin/zi.js", "schema"], { encoding: "utf8", env: { ...process.env, ZI_HOME: "/nonexistent-zi-home" } });
if (printed.status !== 0) throw new Error(`zi schema failed: ${printed.stderr}`);
const description = JSON.parse(printed.stdout) as ProtocolDescription;
const checker = new SchemaChecker(description as unknown as JsonSchema);
const problemFields = (method: string, params: unknown): string[] => checkParams(description, method, params).map((problem) => problem.field);

interface Verdict {
  accepted: boolean;
  fields: string[];
}

/** What the server said: any response means the params passed; invalid_request lists the fields. */
async function serverVerdict(zi: ZiClient, method: MethodDescription, params: object): Promise<Verdict & { result?: unknown }> {
  try {
    const result = await zi.connection.request(method.name, params);
    return { accepted: true, fields: [], result };
  } catch (error) {
    if (!(error instanceof ZiRpcError)) throw error;
    if (error.source === "response") {
      expect(method.errors).toContain(error.code);
      return { accepted: true, fields: [] };
    }
    expect([error.source, error.code]).toEqual(["protocol_error", "invalid_request"]);
    return { accepted: false, fields: [...new Set(error.fields)].sort() };
  }
}

describe("the generated schema against the built zi (drift check)", () => {
  it("names only methods the server serves", async () => {
    const zi = await BuiltZi.start();
    for (const method of description.methods) {
      const verdict = await serverVerdict(zi, method, {});
      expect(verdict.fields.every((field) => field.startsWith("params."))).toBe(true);
    }
    await expect(zi.connection.request("nope.not_a_method")).rejects.toMatchObject({ code: "unknown_method" });
    await zi.close();
  });

  it("accepts exactly the params the schema accepts, and blames the same fields", async () => {
    const zi = await BuiltZi.start();
    const mismatches: string[] = [];
    for (const method of description.methods) {
      const samples = paramSamples(method.params, (params) => problemFields(method.name, params), description.limits.maxRecordBytes);
      let accepted = 0;
      for (const { label, params } of samples) {
        const expected: Verdict = { accepted: false, fields: [...new Set(problemFields(method.name, params))].sort() };
        expected.accepted = expected.fields.length === 0;
        const actual = await serverVerdict(zi, method, params);
        if (actual.accepted !== expected.accepted || actual.fields.join() !== expected.fields.join()) {
          mismatches.push(`${method.name} ${label}: schema ${JSON.stringify(expected)}, server ${JSON.stringify({ accepted: actual.accepted, fields: actual.fields })}`);
        }
        if (actual.accepted) accepted++;
        if (actual.result !== undefined) {
          const problems = checker.check(method.result, actual.result);
          if (problems.length > 0) mismatches.push(`${method.name} ${label}: result ${JSON.stringify(problems)}`);
        }
      }
      // Not vacuous: every method saw params both accepted and refused.
      expect([method.name, accepted > 0, accepted < samples.length]).toEqual([method.name, true, true]);
    }
    expect(mismatches).toEqual([]);
    await zi.close();
  });

  it("describes every frame, event and result of a real session", async () => {
    const frames: ServerFrame[] = [];
    let asked!: (requestId: string) => void;
    const permissionRequested = new Promise<string>((resolve) => (asked = resolve));
    const zi = await BuiltZi.start({
      extensions: [RECORD_EXTENSION, BROKEN_EXTENSION],
      // The scripted model's second call fails once (auto_retry_*), then asks for a tool (tool_execution_*).
      fauxScript: { responses: [{ text: "scripted" }, { error: { message: "overloaded", retryable: true } }, { text: "running", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "done" }] },
      settings: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
      onFrame: (frame) => {
        frames.push(frame);
        if (frame.type === "session_event" && frame.event.type === "permission_requested") asked(String(frame.event.requestId));
      },
    });
    const results = new Map<string, unknown[]>();
    const call = async (method: string, params?: object) => {
      const result = await zi.connection.request(method, params);
      results.set(method, [...(results.get(method) ?? []), result]);
      return result;
    };
    await call("session.get_state");
    await call("model.list");
    await call("model.select", { provider: "faux", id: "echo" });
    await call("thinking.list");
    await call("thinking.select", { level: "low", scope: "project" });
    await call("command.list");
    await call("command.invoke", { name: "record", arguments: "r1" });
    await call("session.prompt", { delivery: "follow_up", text: "queued", completionId: "c" });
    await call("session.get_state");
    await call("session.prompt", { delivery: "direct", text: "hello", completionId: "c" });
    await call("session.get_state");
    await call("session.await_idle", { completionId: "c" });
    await call("session.await_idle");
    await call("session.get_messages", { limit: 1 });
    await call("session.get_messages");
    await call("session.get_outcomes");
    await call("plan.replace", { steps: [{ title: "check the schema", status: "in_progress" }] });
    await call("plan.get");
    // An MCP server added at run time (mcp_server_changed), listed and removed.
    await call("mcp.add", { name: "fixture", config: { command: process.execPath, args: [resolve("test/fixtures/mcp/fixture-server.mjs"), "well"] } });
    await call("mcp.list");
    await call("mcp.remove", { name: "fixture" });
    await call("model.select", { provider: "faux", id: "scripted" });
    await call("session.prompt", { delivery: "direct", text: "scripted", completionId: "s1" });
    await call("session.await_idle", { completionId: "s1" });
    await call("permission.set_policy", { default: "ask", rules: [{ readOnly: true, action: "allow" }], waitSeconds: 600 });
    await call("session.prompt", { delivery: "direct", text: "retry, then a tool", completionId: "s2" });
    const requestId = await permissionRequested;
    await call("permission.list");
    await call("session.get_state");
    await call("permission.resolve", { requestId, decision: "allow_always" });
    await call("session.await_idle", { completionId: "s2" });
    await call("session.interrupt");
    // The session tree: a leaf move (leaf_changed), a fork and a new session (session_switched).
    const tree = (await call("session.get_tree")) as { entries: { id: string; type: string }[] };
    const firstMessage = tree.entries.find((entry) => entry.type === "message")!.id;
    await call("session.navigate", { entryId: firstMessage, summary: "left a branch" });
    await call("session.rewind", { entryId: firstMessage, restore: "both" });
    await call("session.export", { format: "jsonl" });
    await call("session.fork", { entryId: firstMessage });
    await call("session.list", { scope: "all" });
    await call("session.new");
    await call("connection.set_events", { mode: "all" });
    await zi.connection.request("session.get_messages", { zz: 1 }).catch(() => {});
    expect((await zi.close()).code).toBe(0);

    // Every method's results are also checked by the boundary-sample test above, which covers every
    // method generically; here, whatever this session exercised.
    const problems: string[] = [];
    for (const method of description.methods) {
      for (const result of results.get(method.name) ?? []) for (const problem of checker.check(method.result, result)) problems.push(`${method.name} result: ${JSON.stringify(problem)}`);
    }
    const types = new Set<string>();
    const eventTypes = new Set<string>();
    for (const frame of frames) {
      types.add(frame.type);
      if (frame.type === "session_event") eventTypes.add(frame.event.type);
      const schema = description.frames[frame.type];
      if (!schema) problems.push(`no schema for frame type ${frame.type}`);
      else for (const problem of checker.check(schema, frame)) problems.push(`${frame.type} #${frame.sequence}: ${JSON.stringify(problem)}`);
      if (frame.type === "session_event") {
        const outcome = frame.event.type === "operation_outcome" ? frame.event.outcome : undefined;
        if (outcome !== undefined) for (const problem of checker.check({ $ref: "#/$defs/OperationOutcome" }, outcome)) problems.push(`outcome: ${JSON.stringify(problem)}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...types].sort()).toEqual(["protocol_error", "ready", "response", "session_event"]);
    // Not vacuous: most event kinds went through the check (compaction has its own tests).
    const unseen = eventNames(description).filter((type) => !eventTypes.has(type));
    expect(unseen.sort()).toEqual(["compaction_end", "compaction_start"]);
    expect(frames.some((frame) => frame.type === "session_event" && frame.event.type === "permission_resolved" && frame.event.decidedBy === "client")).toBe(true);
  });
});
