import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

export const ZI_BIN = resolve("dist/bin/zi.js");

type Json = Record<string, unknown>;

/**
 * The methods Zi serves that the SDK ships as UNSTABLE: absent from the stable v1 schema, their
 * messages are checked against the unstable v1 schema the SDK ships beside it (and nothing else is).
 */
const UNSTABLE_METHODS = new Set(["session/fork"]);

/**
 * The v1 JSON Schema shipped in @agentclientprotocol/sdk, compiled once: every message Zi writes is
 * checked as an agent message, and each part by its own definition (a result by its method's
 * response, a `session/update` as a SessionNotification, a request by its method's request). The
 * messages of UNSTABLE_METHODS are checked the same way against the unstable schema.
 */
class AcpSchema {
  private static instance: AcpSchema | undefined;
  private readonly defs: Record<string, Json>;
  private readonly unstableDefs: Record<string, Json>;
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor() {
    const load = (name: string) => JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`@agentclientprotocol/sdk/schema/v1/${name}`), "utf8")) as Json & { $defs: Record<string, Json> };
    const schema = load("schema.json");
    const unstable = load("schema.unstable.json");
    this.defs = schema.$defs;
    this.unstableDefs = unstable.$defs;
    this.ajv.addSchema({ ...schema, $id: "acp-v1" });
    this.ajv.addSchema({ ...unstable, $id: "acp-v1-unstable" });
  }

  static get(): AcpSchema {
    return (AcpSchema.instance ??= new AcpSchema());
  }

  /** The schema a method's messages are checked against. */
  static schemaOf(method: string | undefined): "acp-v1" | "acp-v1-unstable" {
    return method !== undefined && UNSTABLE_METHODS.has(method) ? "acp-v1-unstable" : "acp-v1";
  }

  /** The definition named by `x-method` and `x-side` (`...Request` or `...Response`). */
  defFor(method: string, suffix: "Request" | "Response", side: "agent" | "client"): string {
    const defs = AcpSchema.schemaOf(method) === "acp-v1" ? this.defs : this.unstableDefs;
    const name = Object.keys(defs).find((key) => key.endsWith(suffix) && defs[key]!["x-method"] === method && defs[key]!["x-side"] === side);
    if (name === undefined) throw new Error(`no ${suffix} definition for ${method}`);
    return name;
  }

  check(ref: string, value: unknown, schema: "acp-v1" | "acp-v1-unstable" = "acp-v1"): string[] {
    let validate = this.compiled.get(schema + ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${schema}${ref}` });
      this.compiled.set(schema + ref, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).slice(0, 5).map((error) => `${schema}${ref} ${error.instancePath} ${error.message}`);
  }
}

export interface AcpZiOptions {
  /** `ZI_HOME/settings.json`; defaults to `defaultModel: "faux/echo"`. */
  settings?: object;
  fauxScript?: object;
  extensions?: string[];
  /** Shared ZI_HOME (to see another process's journals); a fresh one by default. */
  home?: string;
  clientCapabilities?: acp.ClientCapabilities;
  /** Zi's open-file limit (through util-linux `prlimit --nofile`). */
  nofile?: number;
  /** Added to Zi's environment (a provider key the redactor must know, say). */
  env?: Record<string, string>;
  /** Answers `session/request_permission`. */
  onPermission?: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
}

/**
 * The built `zi --mode acp` driven by the official SDK's client. Every line Zi writes is recorded
 * (and must be JSON-RPC: nothing else may reach stdout); `schemaProblems()` validates them all.
 */
export class AcpZi {
  private static readonly live = new Set<AcpZi>();
  /** Every Zi started since the last killAll, closed ones too: killAllChecked checks what each wrote. */
  private static readonly started: AcpZi[] = [];
  private static readonly dirs: string[] = [];
  readonly updates: acp.SessionNotification[] = [];
  /** Every line Zi wrote to stdout, parsed. */
  readonly written: Json[] = [];
  readonly rawLines: string[] = [];
  private readonly requests = new Map<unknown, string>();
  private readonly waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;
  stderr = "";

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly agent: acp.ClientContext,
    readonly connection: acp.ClientConnection,
    readonly home: string,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  /** A fresh directory, removed by `killAll`. */
  static dir(prefix = "zi-acp-"): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    AcpZi.dirs.push(dir);
    return dir;
  }

  /** A project directory (a session's cwd) of its own, removed by `killAll`. */
  static project(): string {
    return AcpZi.dir("zi-acp-project-");
  }

  static async start(options: AcpZiOptions = {}): Promise<AcpZi> {
    if (!existsSync(ZI_BIN)) throw new Error(`${ZI_BIN} is missing: run \`npm run build\` first`);
    const home = options.home ?? AcpZi.dir();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "settings.json"), JSON.stringify(options.settings ?? { defaultModel: "faux/echo" }));
    const args = [ZI_BIN, "--mode", "acp"];
    for (const extension of options.extensions ?? []) args.push("--extension", extension);
    if (options.fauxScript) {
      const file = join(home, "faux-script.json");
      writeFileSync(file, JSON.stringify(options.fauxScript));
      args.push("--faux-script", file);
    }
    const command = options.nofile === undefined ? [process.execPath, ...args] : ["prlimit", `--nofile=${options.nofile}`, process.execPath, ...args];
    const child = spawn(command[0]!, command.slice(1), { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home, ...options.env }, stdio: ["pipe", "pipe", "pipe"] });
    const toClient = new PassThrough();
    const toZi = new PassThrough();
    toZi.pipe(child.stdin);
    let self: AcpZi | undefined;
    let buffered = "";
    const pendingLines: string[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (self) self.record(line);
        else pendingLines.push(line);
        // An error answered with `id: null` (to input the test wrote raw) is recorded, not handed to the
        // SDK client, which would only log that it matches no request of its own.
        if (!/^\{"jsonrpc":"2.0","id":null,/.test(line)) toClient.write(`${line}\n`);
      }
    });
    child.stdout.on("end", () => toClient.end());
    const tap = new PassThrough();
    tap.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        try {
          const message = JSON.parse(line) as Json;
          if (typeof message.method === "string" && "id" in message) self?.requests.set(message.id, message.method);
        } catch {
          // raw bytes a test writes on purpose
        }
      }
      toZi.write(chunk);
    });
    const stream = acp.ndJsonStream(Writable.toWeb(tap) as WritableStream<Uint8Array>, Readable.toWeb(toClient) as ReadableStream<Uint8Array>);
    const app = acp
      .client({ name: "zi-test" })
      .onNotification("session/update", ({ params }) => self!.onUpdate(params))
      .onRequest("session/request_permission", async ({ params }) => {
        if (!options.onPermission) throw new Error("no permission handler in this test");
        return options.onPermission(params);
      });
    const connection = app.connect(stream);
    self = new AcpZi(child, connection.agent, connection, home);
    child.stderr.on("data", (chunk: Buffer) => {
      self!.stderr += chunk.toString("utf8");
      for (const wake of self!.waiters.splice(0)) wake();
    });
    for (const line of pendingLines) self.record(line);
    AcpZi.live.add(self);
    AcpZi.started.push(self);
    void self.exited.then(() => AcpZi.live.delete(self!));
    return self;
  }

  /** Writes raw bytes to Zi's stdin (bad input tests), bypassing the SDK. */
  writeRaw(text: string): void {
    this.child.stdin.write(text);
  }

  async initialize(capabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
    return this.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities });
  }

  async newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    return this.agent.request("session/new", { cwd, mcpServers });
  }

  prompt(sessionId: string, prompt: string | acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.agent.request("session/prompt", { sessionId, prompt: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt });
  }

  /** The updates of one session, optionally from index `from` of `updates`. */
  updatesOf(sessionId: string, from = 0): acp.SessionUpdate[] {
    return this.updates.slice(from).filter((note) => note.sessionId === sessionId).map((note) => note.update);
  }

  /** The agent_message_chunk texts of a session, joined. */
  messageText(sessionId: string, from = 0): string {
    return this.updatesOf(sessionId, from)
      .flatMap((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? [update.content.text] : []))
      .join("");
  }

  /** Resolves once `condition` holds, re-checked on every update and every stderr chunk Zi sends (no sleeps). */
  async until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Every schema violation in what Zi wrote. */
  schemaProblems(): string[] {
    return AcpZi.schemaProblemsOf(this.written, this.requests);
  }

  /** Schema violations in messages an agent wrote; `requests` maps the client's request ids to their methods. */
  static schemaProblemsOf(written: readonly Json[], requests: ReadonlyMap<unknown, string>): string[] {
    const schema = AcpSchema.get();
    const problems: string[] = [];
    for (const message of written) {
      const answered = typeof message.method === "string" ? undefined : requests.get(message.id);
      const of = AcpSchema.schemaOf(typeof message.method === "string" ? message.method : answered);
      problems.push(...schema.check("#/anyOf/0", message, of));
      if (message.method === "session/update") problems.push(...schema.check("#/$defs/SessionNotification", message.params));
      else if (typeof message.method === "string") problems.push(...schema.check(`#/$defs/${schema.defFor(message.method, "Request", "client")}`, message.params, of));
      else if ("error" in message) problems.push(...schema.check("#/$defs/Error", message.error));
      else if (answered === undefined) problems.push(`a response to an unknown request ${JSON.stringify(message.id)}`);
      else problems.push(...schema.check(`#/$defs/${schema.defFor(answered, "Response", "agent")}`, message.result, of));
    }
    return problems;
  }

  /** Closes stdin (the editor went away) and waits for the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  static killAll(): void {
    for (const zi of AcpZi.live) zi.child.kill("SIGKILL");
    AcpZi.live.clear();
    AcpZi.started.length = 0;
    for (const dir of AcpZi.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  /**
   * For a spec's afterEach: the schema problems in every message written by each Zi started since the
   * last killAll (checked against the SDK's v1 schema, or its unstable one for UNSTABLE_METHODS), then killAll.
   */
  static killAllChecked(): string[] {
    const problems = AcpZi.started.flatMap((zi) => zi.schemaProblems());
    AcpZi.killAll();
    return problems;
  }

  private record(line: string): void {
    this.rawLines.push(line);
    try {
      this.written.push(JSON.parse(line) as Json);
    } catch {
      this.written.push({ notJson: line });
    }
  }

  private onUpdate(params: acp.SessionNotification): void {
    this.updates.push(params);
    for (const wake of this.waiters.splice(0)) wake();
  }
}
