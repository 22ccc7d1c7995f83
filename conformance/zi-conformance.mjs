#!/usr/bin/env node
// Zi RPC conformance kit: runs the black-box rules of rpc-protocol.md and decisions.md against any
// command that speaks the protocol on stdin/stdout. Usage: zi-conformance -- <command> [args...]
// It relies on nothing but the spec: ZI_HOME points at a temporary directory, and ZI_FAUX_SCRIPT gives
// the offline `faux/scripted` model of decisions.md, so prompts run without keys or network.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WAIT_MS = Number(process.env.ZI_CONFORMANCE_TIMEOUT_MS ?? 20000);
const PROTOCOL_CODES = new Set(["parse_error", "invalid_request", "unsupported_version", "unknown_method", "invalid_framing"]);
const OPERATION_CODES = new Set(["capacity", "not_found", "operation_failed"]);

class Failure extends Error {}
const check = (condition, message) => {
  if (!condition) throw new Failure(message);
};
const show = (value) => JSON.stringify(value)?.slice(0, 300);

/** One spawned server: every stdout line must be a frame; frames are kept in order. */
class Server {
  constructor(command, args, env) {
    this.frames = [];
    this.problems = [];
    this.stderr = "";
    this.waiters = [];
    this.child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let pending = "";
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text) => {
      pending += text;
      for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n")) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        let frame;
        try {
          frame = JSON.parse(line);
        } catch {
          this.problems.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
          continue;
        }
        if (frame === null || typeof frame !== "object" || Array.isArray(frame)) this.problems.push(`stdout line is not an object: ${line.slice(0, 200)}`);
        else this.frames.push(frame);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on("data", (chunk) => (this.stderr += chunk));
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        if (pending.length > 0) this.problems.push(`unterminated stdout tail: ${pending.slice(0, 200)}`);
        resolve({ code, signal });
        for (const wake of this.waiters.splice(0)) wake();
      });
      this.child.on("error", (error) => {
        this.stderr += String(error);
        resolve({ code: null, signal: null });
      });
    });
  }

  send(...records) {
    this.child.stdin.write(records.map((r) => (typeof r === "string" ? r : JSON.stringify(r)) + "\n").join(""));
  }

  request(id, method, params) {
    this.send(params === undefined ? { version: 1, id, method } : { version: 1, id, method, params });
  }

  async waitFor(predicate, what) {
    const deadline = Date.now() + WAIT_MS;
    for (let seen = 0; ; ) {
      for (; seen < this.frames.length; seen++) if (predicate(this.frames[seen])) return this.frames[seen];
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Failure(`the server exited while waiting for ${what}`);
      if (Date.now() > deadline) throw new Failure(`no ${what} within ${WAIT_MS} ms`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  answer(id) {
    return this.waitFor((f) => (f.type === "response" || f.type === "protocol_error") && f.id === id, `an answer to ${id}`);
  }

  async call(id, method, params) {
    this.request(id, method, params);
    return this.answer(id);
  }

  async close() {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), WAIT_MS);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}

const expectProtocolError = (frame, code, id) => {
  check(frame.type === "protocol_error", `expected a protocol_error, got ${show(frame)}`);
  check(frame.error?.code === code, `expected code ${code}, got ${show(frame.error)}`);
  check(frame.id === id, `expected id ${JSON.stringify(id)}, got ${show(frame.id)}`);
  check(frame.fatal === false, "fatal must be false");
};

/** Each rule: its name, the spec sentence it checks, and what to do on which server. */
const RULES = [
  {
    name: "ready-first",
    spec: "rpc-protocol.md: the first frame is always ready (sequence 1, state, limits)",
    server: "main",
    async run(s) {
      const ready = await s.waitFor(() => true, "a first frame");
      check(ready.type === "ready" && ready.version === 1 && ready.sequence === 1, `first frame: ${show(ready)}`);
      check(typeof ready.state?.sessionId === "string", "ready.state.sessionId is missing");
      check(ready.state?.activity?.type === "idle", "ready.state.activity is not idle");
      check(ready.limits?.maxRecordBytes === 16 * 1024 * 1024 && ready.limits?.maxInFlight === 32, "ready.limits lacks the spec's bounds");
    },
  },
  {
    name: "get-state",
    spec: "rpc-protocol.md: a successful request receives a correlated response",
    server: "main",
    async run(s) {
      const answer = await s.call("state-1", "session.get_state");
      check(answer.type === "response" && answer.ok === true && answer.method === "session.get_state", show(answer));
      check(answer.result?.sessionId === s.frames[0].state.sessionId, "the state's sessionId differs from ready's");
    },
  },
  {
    name: "parse-error",
    spec: "decisions.md: parse_error for a record that is not JSON, id null, not fatal",
    server: "main",
    async run(s) {
      const before = s.frames.length;
      s.send("{not json");
      expectProtocolError(await s.waitFor((f) => s.frames.indexOf(f) >= before && f.type === "protocol_error", "a protocol_error"), "parse_error", null);
    },
  },
  {
    name: "parse-error-not-object",
    spec: "decisions.md: parse_error for JSON that is not an object",
    server: "main",
    async run(s) {
      const before = s.frames.length;
      s.send("[1,2]");
      expectProtocolError(await s.waitFor((f) => s.frames.indexOf(f) >= before && f.type === "protocol_error", "a protocol_error"), "parse_error", null);
    },
  },
  {
    name: "unsupported-version",
    spec: "decisions.md: unsupported_version, details name the supported versions",
    server: "main",
    async run(s) {
      s.send({ version: 2, id: "v2", method: "session.get_state" });
      const frame = await s.answer("v2");
      expectProtocolError(frame, "unsupported_version", "v2");
      check(Array.isArray(frame.error.details?.supported) && frame.error.details.supported.includes(1), `details: ${show(frame.error.details)}`);
    },
  },
  {
    name: "invalid-id",
    spec: "decisions.md: id is a non-empty string of at most 256 UTF-8 bytes; id null when none could be read",
    server: "main",
    async run(s) {
      const before = s.frames.length;
      s.send({ version: 1, id: "x".repeat(257), method: "session.get_state" });
      expectProtocolError(await s.waitFor((f) => s.frames.indexOf(f) >= before && f.type === "protocol_error", "a protocol_error"), "invalid_request", null);
    },
  },
  {
    name: "unknown-method",
    spec: "decisions.md: unknown_method, with the request's id",
    server: "main",
    async run(s) {
      expectProtocolError(await s.call("um", "no.such_method"), "unknown_method", "um");
    },
  },
  {
    name: "unknown-params-key",
    spec: "decisions.md: unknown keys in params are rejected (invalid_request, details [{ field, problem }])",
    server: "main",
    async run(s) {
      for (const key of ["bogus", "__proto__", "constructor"]) {
        const frame = await s.call(`uk-${key}`, "session.get_messages", { [key]: 1, limit: 1 });
        expectProtocolError(frame, "invalid_request", `uk-${key}`);
        check(Array.isArray(frame.error.details) && frame.error.details.every((d) => typeof d.field === "string" && typeof d.problem === "string"), `details: ${show(frame.error.details)}`);
      }
    },
  },
  {
    name: "page-bounds",
    spec: "decisions.md: limit is an integer 1..100; out of range is invalid_request",
    server: "main",
    async run(s) {
      expectProtocolError(await s.call("pg-101", "session.get_messages", { limit: 101 }), "invalid_request", "pg-101");
      const page = await s.call("pg-ok", "session.get_messages", { start: 0, limit: 100 });
      check(page.ok === true && page.result.start === 0 && Array.isArray(page.result.messages), show(page));
    },
  },
  {
    name: "model-not-found",
    spec: "decisions.md: model.select of an unknown provider/id is not_found with applied no",
    server: "main",
    async run(s) {
      const answer = await s.call("ms-nf", "model.select", { provider: "faux", id: "no-such-model" });
      check(answer.type === "response" && answer.ok === false && answer.error?.code === "not_found" && answer.error?.applied === "no", show(answer));
    },
  },
  {
    name: "faux-echo-prompt",
    spec: "decisions.md: faux/echo replies with the last user text; await_idle with completionId returns it",
    server: "main",
    async run(s) {
      const listed = await s.call("ml", "model.list");
      check(listed.ok && listed.result.models.some((m) => m.provider === "faux" && m.id === "echo" && m.configured === true), "faux/echo is not listed as configured");
      const selected = await s.call("ms", "model.select", { provider: "faux", id: "echo" });
      check(selected.ok && selected.result.model?.id === "echo" && !("configured" in selected.result.model), show(selected));
      const prompt = await s.call("p1", "session.prompt", { delivery: "direct", text: "conformance-ping", completionId: "c1" });
      check(prompt.ok && prompt.result.admission === "started" && prompt.result.delivery === "direct", show(prompt));
      const idle = await s.call("w1", "session.await_idle", { completionId: "c1" });
      check(idle.ok && idle.result.completionId === "c1" && idle.result.completion?.text.includes("conformance-ping"), show(idle));
      const events = s.frames.filter((f) => f.type === "session_event").map((f) => f.event.type);
      for (const type of ["agent_start", "message_update", "message_end", "agent_end", "entry_appended"]) check(events.includes(type), `no ${type} event`);
    },
  },
  {
    name: "set-events-none",
    spec: "rpc-protocol.md / decisions.md: mode none suppresses only session_event frames; they consume no sequence numbers",
    server: "main",
    async run(s) {
      const off = await s.call("ev-off", "connection.set_events", { mode: "none" });
      check(off.ok && off.result.mode === "none", show(off));
      const from = s.frames.length;
      await s.call("ev-p", "session.prompt", { delivery: "direct", text: "quiet", completionId: "c2" });
      const idle = await s.call("ev-w", "session.await_idle", { completionId: "c2" });
      check(idle.ok && idle.result.completion?.text.includes("quiet"), show(idle));
      check(s.frames.slice(from).every((f) => f.type !== "session_event"), "a session_event was sent in mode none");
      const on = await s.call("ev-on", "connection.set_events", { mode: "all" });
      check(on.ok && on.result.mode === "all", show(on));
    },
  },
  {
    name: "frames-well-formed",
    spec: "rpc-protocol.md / decisions.md: stdout carries only frames, version 1, sequence 1, 2, 3, ... with no gaps, spec codes only",
    server: "main",
    async run(s) {
      check(s.problems.length === 0, s.problems[0]);
      s.frames.forEach((frame, index) => {
        check(frame.version === 1, `frame ${index + 1} has version ${show(frame.version)}`);
        check(frame.sequence === index + 1, `frame ${index + 1} has sequence ${show(frame.sequence)} (a gap or a repeat)`);
        check(["ready", "response", "protocol_error", "session_event"].includes(frame.type), `unknown frame type ${show(frame.type)}`);
        if (frame.type === "protocol_error") check(PROTOCOL_CODES.has(frame.error?.code), `protocol_error code ${show(frame.error?.code)}`);
        if (frame.type === "response" && frame.ok === false) check(OPERATION_CODES.has(frame.error?.code), `response error code ${show(frame.error?.code)}`);
      });
    },
  },
  {
    name: "stdin-close-exit-0",
    spec: "decisions.md: closing stdin ... flush pending output, exit 0",
    server: "main",
    async run(s) {
      const exit = await s.close();
      check(exit.code === 0, `exit ${show(exit)}`);
      check(s.problems.length === 0, s.problems[0]);
    },
  },
  {
    name: "duplicate-in-flight-id",
    spec: "rpc-protocol.md: reusing an in-flight ID is invalid_request with the matching ID; the duplicate is not launched",
    server: "slow",
    async run(s) {
      await s.waitFor((f) => f.type === "ready", "ready");
      check((await s.call("sel", "model.select", { provider: "faux", id: "scripted" })).ok, "cannot select faux/scripted");
      const started = await s.call("go", "session.prompt", { delivery: "direct", text: "go" });
      check(started.ok && started.result.admission === "started", show(started));
      s.send({ version: 1, id: "dup", method: "session.await_idle" }, { version: 1, id: "dup", method: "session.interrupt" });
      expectProtocolError(await s.waitFor((f) => f.type === "protocol_error" && f.id === "dup", "the duplicate's refusal"), "invalid_request", "dup");
      const state = await s.call("probe", "session.get_state");
      check(state.ok && state.result.activity.type === "running", `the duplicate interrupt was launched: ${show(state.result?.activity)}`);
    },
  },
  {
    name: "capacity-and-reserved-interrupt",
    spec: "decisions.md: at most 32 admitted unsettled requests, the 33rd is capacity; session.interrupt uses the reserved slot",
    server: "slow",
    async run(s) {
      const ids = Array.from({ length: 32 }, (_, i) => `cap${i}`);
      s.send(...ids.map((id) => ({ version: 1, id, method: "session.await_idle" })), { version: 1, id: "cap-over", method: "session.get_state" });
      const over = await s.answer("cap-over");
      // "dup" from the previous rule still waits: 31 more fill the 32 ordinary slots.
      const refused = s.frames.filter((f) => f.type === "response" && ids.includes(f.id) && f.error?.code === "capacity");
      check(refused.length === 1 && refused[0].id === "cap31", `expected only cap31 refused, got ${show(refused.map((f) => f.id))}`);
      check(over.ok === false && over.error.code === "capacity" && over.error.applied === "no", show(over));
      const interrupt = await s.call("int", "session.interrupt");
      check(interrupt.ok === true, show(interrupt));
      for (const id of ["dup", ...ids.slice(0, 31)]) {
        const settled = await s.waitFor((f) => f.type === "response" && f.id === id, `the response to ${id}`);
        check(settled.ok === true, `${id} did not settle ok: ${show(settled)}`);
      }
      const exit = await s.close();
      check(exit.code === 0, `exit ${show(exit)}`);
    },
  },
  {
    name: "invalid-framing-fatal",
    spec: "rpc-protocol.md / decisions.md: invalid UTF-8 is fatal after exactly one invalid_framing frame, exit code 1",
    server: "framing",
    async run(s) {
      await s.waitFor((f) => f.type === "ready", "ready");
      s.child.stdin.write(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
      const fatal = await s.waitFor((f) => f.type === "protocol_error", "a protocol_error");
      check(fatal.error?.code === "invalid_framing" && fatal.fatal === true && fatal.id === null, show(fatal));
      const exit = await s.close();
      check(exit.code === 1, `exit ${show(exit)}`);
      check(s.frames.filter((f) => f.type === "protocol_error").length === 1, "more than one protocol_error");
    },
  },
];

async function main(argv) {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? argv : argv.slice(dash + 1);
  if (command.length === 0) {
    process.stderr.write("usage: zi-conformance -- <command> [args...]   (e.g. zi-conformance -- zi --mode rpc --no-session)\n");
    return 2;
  }
  const home = mkdtempSync(join(tmpdir(), "zi-conformance-"));
  const script = join(home, "faux-script.json");
  writeFileSync(script, JSON.stringify({ responses: [{ text: "slow", delayMs: 60000 }] }));
  const servers = new Map();
  const serverFor = (kind) => {
    if (!servers.has(kind)) {
      const env = { ZI_HOME: join(home, kind), HOME: join(home, kind), ...(kind === "slow" ? { ZI_FAUX_SCRIPT: script } : {}) };
      servers.set(kind, new Server(command[0], command.slice(1), env));
    }
    return servers.get(kind);
  };
  let passed = 0;
  let failed = 0;
  for (const rule of RULES) {
    const server = serverFor(rule.server);
    try {
      await rule.run(server);
      passed++;
      process.stdout.write(`PASS ${rule.name} — ${rule.spec}\n`);
    } catch (error) {
      failed++;
      const reason = error instanceof Failure ? error.message : (error?.stack ?? String(error));
      process.stdout.write(`FAIL ${rule.name} — ${rule.spec}\n     ${reason}\n`);
      if (server.stderr) process.stdout.write(`     server stderr: ${server.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 500)}\n`);
    }
  }
  for (const server of servers.values()) server.child.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
