/**
 * The copyable Zi RPC client: one file, Node built-ins only. Copy it into your project and adapt it.
 *
 *   node --import ./scripts/ts-node-esm.mjs examples/rpc/client.ts "hello"
 *
 * selects the offline model faux/echo, prompts, prints the streamed reply, the completion evidence and
 * what the session spent (`session.get_usage`). ZI_IMAGE=photo.png attaches an image to the prompt (the
 * model must take images: `input` in `model.list`). ZI_COMMAND (default: this node) and ZI_ARGS (JSON array, default: the built zi of this checkout with
 * `--mode rpc --no-session`) choose what is spawned; ZI_MODEL (`provider/id`) the model.
 *
 * What it shows, in protocol terms (docs/protocol.md): wait for `ready`; check that `sequence` never
 * skips; route `protocol_error` before matching ids; correlate responses by id; follow `nextStart`;
 * check `command.list` before `command.invoke`; answer tool permission requests (`answerPermissions`:
 * `permission_requested` events plus `permission.list`, each answered once with `permission.resolve`);
 * close stdin and wait, boundedly, for the exit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface RpcClientOptions {
  command?: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** How long close() waits for Zi to exit after stdin closed (Zi itself settles within 10 s). */
  closeTimeoutMs?: number;
  /** A protocol_error that names no pending request (id null, non-fatal). */
  onUnattributedError?: (frame: Frame) => void;
}

export type Frame = { version: 1; sequence: number; type: string; [key: string]: any };
export type RpcEvent = { type: string; [key: string]: any };

/** Every rejection of this client: an operation failure, a protocol error, or a lost connection. */
export class RpcFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** "no": the request was definitely not applied; "unknown": it may have been. */
    readonly applied: "no" | "unknown",
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "RpcFailure";
  }
}

interface Pending {
  resolve(result: any): void;
  reject(error: RpcFailure): void;
}

export class RpcClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Promise<Frame>;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: RpcEvent) => void>();
  private readonly exited: Promise<number | null>;
  private sequence = 0;
  private nextId = 1;
  private broken: RpcFailure | undefined;
  private refusing: RpcFailure | undefined;
  private tail: Buffer[] = [];
  private stderrTail = "";
  private settleReady!: { resolve(frame: Frame): void; reject(error: RpcFailure): void };

  /** Spawns Zi and resolves once its `ready` frame arrived. */
  static async start(options: RpcClientOptions = {}): Promise<RpcClient> {
    const client = new RpcClient(options);
    await client.ready;
    return client;
  }

  private constructor(private readonly options: RpcClientOptions) {
    const args = options.args ?? [fileURLToPath(new URL("../../dist/bin/zi.js", import.meta.url)), "--mode", "rpc", "--no-session"];
    this.child = spawn(options.command ?? process.execPath, args, { env: options.env ?? process.env, cwd: options.cwd });
    this.ready = new Promise((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {}); // observed by start(); avoids an unhandled rejection when nobody waits
    this.child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000)));
    this.child.stdin.on("error", () => {}); // a closed pipe shows up as the exit below
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
    void this.exited.then((code) => this.fail(new RpcFailure("connection_closed", `zi exited (${code}) ${this.stderrTail.trim()}`.trim(), "unknown")));
  }

  /** Sends one request; resolves with its `result`, rejects with an RpcFailure. */
  request(method: string, params?: object): Promise<any> {
    if (this.broken || this.refusing) return Promise.reject(this.broken ?? this.refusing);
    const id = `c${this.nextId++}`; // ids are never reused while in flight, so a protocol_error id is ours
    const record = params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify(record)}\n`);
    });
  }

  /** Session events in source order; returns the unsubscribe function. */
  onEvent(listener: (event: RpcEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Closes stdin (Zi's disconnect), waits for the exit, and kills Zi if it does not exit in time. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timeout = Symbol("timeout");
    const bound = (ms: number) => new Promise<typeof timeout>((resolve) => setTimeout(resolve, ms, timeout).unref());
    if ((await Promise.race([this.exited, bound(this.options.closeTimeoutMs ?? 12_000)])) === timeout) {
      this.child.kill("SIGTERM");
      if ((await Promise.race([this.exited, bound(2000)])) === timeout) this.child.kill("SIGKILL");
    }
    return this.exited;
  }

  private onStdout(chunk: Buffer): void {
    // Split on LF bytes only; collect partial records as chunks (no quadratic re-concatenation).
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10)) {
      const line = Buffer.concat([...this.tail, chunk.subarray(0, nl)]).toString("utf8");
      this.tail = [];
      chunk = chunk.subarray(nl + 1);
      if (this.broken) return;
      this.onLine(line);
    }
    if (chunk.length > 0) this.tail.push(chunk);
  }

  private onLine(line: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(line);
    } catch {
      return this.violation("stdout carried a line that is not JSON");
    }
    if (frame.version !== 1 || frame.sequence !== this.sequence + 1) {
      return this.violation(`frame sequence ${frame.sequence} after ${this.sequence}: a frame was lost`);
    }
    this.sequence = frame.sequence;
    switch (frame.type) {
      case "ready":
        return this.settleReady.resolve(frame);
      case "protocol_error":
        return this.onProtocolError(frame); // before any id matching: a protocol_error is not a response
      case "response":
        return this.onResponse(frame);
      case "session_event":
        for (const listener of this.listeners) listener(frame.event);
        return;
      default:
        return this.violation(`unknown frame type ${frame.type}`);
    }
  }

  private onProtocolError(frame: Frame): void {
    const error = new RpcFailure(frame.error.code, frame.error.message, "no", frame.error.details);
    const pending = frame.id === null ? undefined : this.pending.get(frame.id);
    if (pending) {
      this.pending.delete(frame.id);
      pending.reject(error);
    } else if (!frame.fatal) {
      this.options.onUnattributedError?.(frame);
    }
    if (frame.fatal) {
      // invalid_framing: Zi shuts down but still answers what it admitted. Send nothing more.
      this.refusing ??= error;
      this.child.stdin.end();
    }
  }

  private onResponse(frame: Frame): void {
    const pending = this.pending.get(frame.id);
    if (!pending) return this.violation(`response for unknown id ${frame.id}`);
    this.pending.delete(frame.id);
    if (frame.ok) pending.resolve(frame.result);
    else pending.reject(new RpcFailure(frame.error.code, frame.error.message, frame.error.applied));
  }

  private violation(message: string): void {
    this.fail(new RpcFailure("protocol_violation", message, "unknown"));
    this.child.kill("SIGTERM");
  }

  /** From here on every pending and future request fails with `error`. */
  private fail(error: RpcFailure): void {
    this.broken ??= error;
    this.settleReady.reject(this.broken);
    for (const pending of this.pending.values()) pending.reject(this.broken);
    this.pending.clear();
  }
}

/**
 * Every item of `session.get_messages` or `session.get_outcomes`, following `nextStart` until null.
 * The total of each page is retained: if the list shrank or a page does not continue where the last
 * one ended, the session changed under the walk, and it restarts from 0.
 */
export async function pageAll(client: RpcClient, method: "session.get_messages" | "session.get_outcomes"): Promise<any[]> {
  const key = method === "session.get_messages" ? "messages" : "outcomes";
  for (let attempt = 0; attempt < 5; attempt++) {
    const items: any[] = [];
    let total = 0;
    let changed = false;
    for (let start: number | null = 0; start !== null && !changed; ) {
      const page: any = await client.request(method, { start });
      changed = page.start !== start || page.total < total || page[key].some((item: any, i: number) => item.index !== start! + i);
      total = page.total;
      items.push(...page[key]);
      start = page.nextStart;
    }
    if (!changed) return items;
  }
  throw new RpcFailure("operation_failed", `${method}: the session kept changing while paging`, "no");
}

/** Invokes an extension command only if `command.list` names it exactly (no slash parsing). */
export async function runRpcCommand(client: RpcClient, name: string, args = ""): Promise<{ message?: string }> {
  const { commands } = await client.request("command.list");
  if (!commands.some((command: { name: string }) => command.name === name)) {
    throw new RpcFailure("not_found", `no extension command named ${JSON.stringify(name)}`, "no");
  }
  return client.request("command.invoke", { name, arguments: args });
}

export type PermissionDecision = "allow_once" | "allow_always" | "deny";

/**
 * Answers every tool permission request (docs/permissions.md) with `decide`: those announced from now
 * on, and those already waiting (`permission.list`, e.g. raised while events were off). Each request
 * is answered once; `not_found` means it was settled meanwhile (interrupt, timeout) and is ignored. A
 * `decide` that throws denies. Returns the function that stops answering.
 */
export function answerPermissions(
  client: RpcClient,
  decide: (request: RpcEvent) => PermissionDecision | { decision: PermissionDecision; message?: string } | Promise<PermissionDecision | { decision: PermissionDecision; message?: string }>,
): () => void {
  const answered = new Set<string>();
  let stopped = false;
  const answer = async (request: RpcEvent): Promise<void> => {
    if (stopped || answered.has(request.requestId)) return;
    answered.add(request.requestId);
    let reply: { decision: PermissionDecision; message?: string };
    try {
      const given = await decide(request);
      reply = typeof given === "string" ? { decision: given } : given;
    } catch (error) {
      reply = { decision: "deny", message: `the client's permission handler failed: ${(error as Error).message}` };
    }
    await client.request("permission.resolve", { requestId: request.requestId, ...reply }).catch((error: unknown) => {
      if (!(error instanceof RpcFailure && error.code === "not_found")) throw error;
    });
  };
  const unsubscribe = client.onEvent((event) => {
    if (event.type === "permission_requested") void answer(event).catch((error) => process.stderr.write(`permission: ${error}\n`));
  });
  void client.request("permission.list").then(
    ({ requests }: { requests: RpcEvent[] }) => requests.forEach((request) => void answer(request).catch(() => undefined)),
    () => undefined,
  );
  return () => {
    stopped = true;
    unsubscribe();
  };
}

const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

/** A prompt image from a file: base64 `data` and a `mimeType` Zi checks against the bytes. */
export function imageFromFile(path: string): { type: "image"; data: string; mimeType: string } {
  const mimeType = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!mimeType) throw new Error(`${path}: not a .png, .jpg, .gif or .webp file`);
  return { type: "image", data: readFileSync(path).toString("base64"), mimeType };
}

async function main(argv: string[]): Promise<number> {
  const text = argv.join(" ") || "hello";
  const [provider, id] = (process.env.ZI_MODEL ?? "faux/echo").split("/", 2);
  const client = await RpcClient.start({
    command: process.env.ZI_COMMAND,
    args: process.env.ZI_ARGS ? JSON.parse(process.env.ZI_ARGS) : undefined,
    onUnattributedError: (frame) => process.stderr.write(`protocol_error: ${JSON.stringify(frame.error)}\n`),
  });
  let failed = false;
  try {
    client.onEvent((event) => {
      const update = event.type === "message_update" ? event.assistantMessageEvent : undefined;
      if (update?.type === "text_delta") process.stdout.write(update.delta);
    });
    await client.request("model.select", { provider, id });
    const completionId = `cli-${process.pid}-${Date.now()}`;
    const images = process.env.ZI_IMAGE ? [imageFromFile(process.env.ZI_IMAGE)] : undefined;
    const admitted = (await client.request("session.prompt", { delivery: "direct", text, completionId, ...(images ? { images } : {}) })).completionRevision;
    let idle = await client.request("session.await_idle", { completionId });
    // A newer admission revision than the one observed means more input joined this cycle: watch again.
    while (idle.completionRevision < admitted) idle = await client.request("session.await_idle", { completionId });
    process.stdout.write("\n");
    console.log(JSON.stringify({ completion: idle.completion, messages: (await pageAll(client, "session.get_messages")).length }));
    const { session } = await client.request("session.get_usage");
    console.log(JSON.stringify({ usage: { modelCalls: session.modelCalls, toolCalls: session.toolCalls, totalTokens: session.totalTokens, cost: session.cost } }));
    failed = idle.completion === null || idle.completion.stopReason === "error";
  } finally {
    await client.close();
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof RpcFailure ? `${error.code}: ${error.message}` : error}\n`);
      process.exit(1);
    },
  );
}
