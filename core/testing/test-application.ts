import { PassThrough } from "node:stream";
import { RpcApplication, type TokenInstances } from "../boot/rpc-application.js";
import type { MethodFamily } from "../kernel/method-family.js";
import { RpcError, type RpcErrorCode } from "../kernel/rpc-error.js";
import { COMMANDS } from "../ports/commands.port.js";
import { MODELS } from "../ports/model.port.js";
import { SESSION } from "../ports/session.port.js";
import { THINKING } from "../ports/thinking.port.js";
import { composeTable, declareMethod } from "../kernel/method-catalog.js";
import { loadMethodClasses, loadedClass } from "../kernel/lazy-method.js";
import { generateProtocolSchema } from "../schema/protocol-schema.js";
import { SchemaChecker } from "../schema/schema-checker.js";
import type { JsonSchema } from "../wire/json-schema.js";
import { RPC_LIMITS, type RpcLimits } from "../wire/limits.js";
import { MemoryOutput } from "./memory-output.js";
import { TestSessionModule } from "./test-session-module.js";

export interface ServeOptions {
  /**
   * Instances by injection token (`{ [SESSION]: fakeSession, [MY_TOKEN]: fake }`), bound over whatever
   * the composition and each family's `register` bind (Nest's `overrideProvider`). `SESSION`,
   * `MODELS`, `THINKING` and `COMMANDS` also stand in for the domain behind the connection (`ready.state`
   * is the given session's `getState()`); a port nobody gave fails the test when a handler calls it.
   */
  overrides?: TokenInstances;
  /** Bounds other than `RPC_LIMITS` (a small output bound, a short settlement), for kernel tests. */
  limits?: Partial<RpcLimits>;
  /** The deferred startup that `awaitsStartup` methods wait for; finished at once when omitted. */
  startup?: Promise<void>;
  /** `ready.state` when no SESSION is given. */
  state?: object;
  /** The in-memory stdout, e.g. one already stalled (`output.stall()`) so that even `ready` waits. */
  output?: MemoryOutput;
  /**
   * Default false: every lazily listed class (`lazy(...)`) is imported before the table is wired, so a
   * wrong wiring fails at boot and no import runs after the test has ended. True: as the real process
   * does, a class loads on its first request and all of them right after the first response.
   */
  lazyClasses?: boolean;
}

/** An error answer, as `request` rejects with it: a response's error or a protocol_error. */
export class AnsweredError extends RpcError {
  constructor(
    readonly frame: Record<string, any>,
    code: RpcErrorCode,
    message: string,
    details?: RpcError["details"],
  ) {
    super(code, message, details);
  }
}

type Record_ = Record<string, unknown>;

/**
 * One connection served in memory through the real composition (`RpcApplication`: framing, admission,
 * the registry with each family in its own scope, the frame writer), for any set of families. Requests
 * go in as bytes and come back as frames; every `ok` result is checked against the schema its method
 * declares, and `request` rejects (and `close` throws) when one is outside it.
 */
export class TestApplication {
  readonly input = new PassThrough();
  readonly output: MemoryOutput;
  readonly module: TestSessionModule;
  readonly logs: string[] = [];
  readonly limits: RpcLimits;
  readonly exit: Promise<number>;
  /** Results that fell outside their method's declared schema. */
  readonly resultProblems: string[] = [];
  private readonly app: RpcApplication;
  private readonly methodsById = new Map<string, string>();
  private readonly results: () => { checker: SchemaChecker; schema: (method: string) => JsonSchema | undefined };
  private nextId = 0;

  constructor(families: readonly MethodFamily[], options: ServeOptions = {}) {
    const overrides = options.overrides ?? {};
    this.output = options.output ?? new MemoryOutput();
    this.limits = { ...RPC_LIMITS, ...options.limits };
    this.module = new TestSessionModule({
      session: overrides[SESSION] as never,
      models: overrides[MODELS] as never,
      thinking: overrides[THINKING] as never,
      commands: overrides[COMMANDS] as never,
      state: options.state,
      startup: options.startup,
    });
    // Wrong wiring fails here, with its message (a class without @RpcMethod, a name outside its family),
    // not as a request that waits for an answer a server that could not boot never writes.
    // A lazily listed class is checked when it loads (before the wiring, or with `lazyClasses` on its
    // first request or in the check after boot).
    const table = composeTable(families);
    for (const entry of table) if (typeof entry.entry === "function") declareMethod(entry, entry.entry);
    let checker: SchemaChecker | undefined;
    // Only the results' schemas and the wire definitions they refer to: params need not be describable here.
    // Read when an answer arrives: by then the method's class has loaded.
    const entries = new Map(table.map((entry) => [entry.name, entry]));
    const schemas = new Map<string, JsonSchema>();
    this.results = () => ({
      checker: (checker ??= new SchemaChecker(generateProtocolSchema([]) as unknown as JsonSchema)),
      schema: (name) => {
        const entry = entries.get(name);
        const handlerClass = entry && loadedClass(entry.entry);
        if (!schemas.has(name) && handlerClass) schemas.set(name, declareMethod(entry, handlerClass).result);
        return schemas.get(name);
      },
    });
    this.app = new RpcApplication(
      this.module,
      async () => {
        if (!options.lazyClasses) await loadMethodClasses(families);
        return families;
      },
      { input: this.input, output: this.output, log: (line) => void this.logs.push(line) },
      { limits: this.limits, overrides },
    );
    this.exit = this.app.run();
  }

  /** Sends one request and resolves with its result; rejects with an `AnsweredError` for an error answer. */
  async request(method: string, params?: object): Promise<any> {
    const id = `t${++this.nextId}`;
    this.send(params === undefined ? { version: 1, id, method } : { version: 1, id, method, params });
    const frame = await this.answer(id);
    if (frame.type === "response" && frame.ok) {
      const problems = this.resultProblems.filter((problem) => problem.startsWith(`${method} (${id})`));
      if (problems.length > 0) throw new Error(`result outside its declared schema: ${problems.join("; ")}`);
      return frame.result;
    }
    const error = frame.error as { code: RpcErrorCode; message: string; details?: RpcError["details"] };
    throw new AnsweredError(frame, error.code, error.message, error.details);
  }

  /** Writes records as they are (a string is written verbatim, then LF); objects are JSON-encoded. */
  send(...records: (object | string)[]): void {
    for (const record of records) {
      if (typeof record === "object" && typeof (record as Record_).id === "string" && typeof (record as Record_).method === "string") {
        this.methodsById.set((record as Record_).id as string, (record as Record_).method as string);
      }
    }
    this.input.write(records.map((record) => (typeof record === "string" ? record : JSON.stringify(record)) + "\n").join(""));
  }

  /** A request record (for `send`). */
  record(id: string, method: string, params?: object): object {
    return params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };
  }

  /** Every frame after `ready`, once at least `count` of them are written. */
  async frames(count: number): Promise<any[]> {
    const frames = (await this.output.waitFor(count + 1)).slice(1);
    this.checkResults(frames);
    return frames;
  }

  /** The frame that answers `id`. */
  async answer(id: string): Promise<Record<string, any>> {
    // Zi ending first (wiring that failed at boot, a fatal frame) rejects with what it logged.
    const ended = this.exit.then((code) => {
      throw new Error(`Zi exited with code ${code} before answering ${id}${this.logs.length > 0 ? `: ${this.logs.join("; ")}` : ""}`);
    });
    ended.catch(() => undefined);
    for (let seen = 1; ; seen++) {
      const frames = await Promise.race([this.output.waitFor(seen + 1), ended]);
      const frame = frames[seen];
      if ((frame.type === "response" || frame.type === "protocol_error") && frame.id === id) {
        this.checkResults([frame]);
        return frame;
      }
    }
  }

  /** The server's shutdown with an exit code (a signal); resolves with the code. */
  shutdown(code: number): Promise<number> {
    return this.app.server.shutdown(code);
  }

  /** Closes stdin and resolves with the exit code; throws if a result fell outside its schema. */
  async close(): Promise<number> {
    this.input.end();
    const code = await this.exit;
    this.checkResults(this.output.frames());
    if (this.resultProblems.length > 0) throw new Error(`results outside their declared schemas:\n${this.resultProblems.join("\n")}`);
    return code;
  }

  private checkResults(frames: readonly Record<string, any>[]): void {
    for (const frame of frames) {
      if (frame.type !== "response" || !frame.ok || frame.checked) continue;
      Object.defineProperty(frame, "checked", { value: true });
      const method = this.methodsById.get(frame.id);
      const { checker, schema } = this.results();
      const declared = method === undefined ? undefined : schema(method);
      if (!declared) continue;
      for (const problem of checker.check(declared, frame.result)) {
        const entry = `${method} (${frame.id}): result${problem.field ? `.${problem.field}` : ""} ${problem.problem}`;
        if (!this.resultProblems.includes(entry)) this.resultProblems.push(entry);
      }
    }
  }
}

/** Serves `families` in memory through the real composition; see TestApplication. */
export function serveFamilies(families: readonly MethodFamily[], options: ServeOptions = {}): TestApplication {
  return new TestApplication(families, options);
}
