import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { AgentSessionEvent, Delivery, PermissionDecision, PromptImage, ThinkingLevel } from "../core/wire/session-types.js";
import { PermissionAnswerer, type PermissionHandler } from "./permission-answerer.js";
import type {
  CompletionObservation,
  EventModeName,
  PageParams,
  ParamsOf,
  PromptResult,
  ReadyFrame,
  ResultOf,
  ZiMethodName,
} from "./protocol-types.js";
import { CompletionWatch, type SettledCompletion } from "./completion-watch.js";
import { EventQueue } from "./event-queue.js";
import { JournalPager, type PagerOptions } from "./journal-pager.js";
import { ZiConnection, type ExitStatus, type ZiConnectionOptions } from "./zi-connection.js";
import { ZiRpcError } from "./zi-rpc-error.js";

export interface ZiClientOptions extends ZiConnectionOptions {
  /** The executable; default: the running node. */
  command?: string;
  /** The whole argument list; when set, `ziPath` and `ziArgs` are ignored. */
  args?: string[];
  /** The zi entry point; default: the `dist/bin/zi.js` this library was built with. */
  ziPath?: string;
  /** Flags after `--mode rpc`; default `["--no-session"]`. */
  ziArgs?: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** `prompt(text, options)`: the other params of `session.prompt`. */
export interface PromptOptions {
  /** Default `direct`. */
  delivery?: Delivery;
  completionId?: string;
  /** At most `ready.limits.maxPromptImages`, `maxPromptImageBytes` of base64 in all; the model must take images. */
  images?: PromptImage[];
}

export interface PromptAndAwaitOptions {
  /** Default `direct` (which Zi refuses while the session is running; use `follow_up` or `continue`). */
  delivery?: Delivery;
  images?: PromptImage[];
  /** Default: a fresh UUID. Pass the same ID to join an existing cycle. */
  completionId?: string;
  /** Work budget: on abort the session is interrupted and the settlement still reported. */
  signal?: AbortSignal;
}

export interface PromptCompletion extends SettledCompletion {
  /** The admission: `queued` input (steer/follow_up while idle) waits for a later turn and settles at once. */
  prompt: PromptResult;
}

/**
 * A typed client for `zi --mode rpc`. Node built-ins only; everything from Zi's sources is imported as
 * types, so this module can ship to clients on its own.
 *
 * ```ts
 * const zi = await ZiClient.start({ env: { ...process.env, ZI_HOME: "/tmp/zi" } });
 * await zi.selectModel("faux", "echo");
 * const { completion } = await zi.promptAndAwait("hello");
 * await zi.close();
 * ```
 */
export class ZiClient {
  private constructor(
    readonly connection: ZiConnection,
    /** The `ready` frame: the session state at connect time and every protocol bound as a number. */
    readonly readyFrame: ReadyFrame,
  ) {}

  /** Spawns Zi and resolves once `ready` arrived; a Zi that exits first rejects with its stderr. */
  static async start(options: ZiClientOptions = {}): Promise<ZiClient> {
    const ziPath = options.ziPath ?? fileURLToPath(new URL("../bin/zi.js", import.meta.url));
    const args = options.args ?? [ziPath, "--mode", "rpc", ...(options.ziArgs ?? ["--no-session"])];
    const child = spawn(options.command ?? process.execPath, args, { env: options.env ?? process.env, cwd: options.cwd });
    const connection = new ZiConnection(child, options);
    try {
      return new ZiClient(connection, await connection.ready);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  get limits(): ReadyFrame["limits"] {
    return this.readyFrame.limits;
  }

  /** Any method, typed by name. */
  request<M extends ZiMethodName>(method: M, ...params: undefined extends ParamsOf<M> ? [ParamsOf<M>?] : [ParamsOf<M>]): Promise<ResultOf<M>> {
    return this.connection.request(method, params[0] as object | undefined) as Promise<ResultOf<M>>;
  }

  getState() {
    return this.request("session.get_state");
  }

  getMessages(params?: PageParams) {
    return this.request("session.get_messages", params);
  }

  getOutcomes(params?: PageParams) {
    return this.request("session.get_outcomes", params);
  }

  /**
   * `session.prompt`, as its params object, or as `prompt(text, { delivery, images, completionId })`
   * (delivery defaults to `direct`). Images are `{ type: "image", data: <base64>, mimeType }`.
   */
  prompt(params: ParamsOf<"session.prompt">): Promise<ResultOf<"session.prompt">>;
  prompt(text: string, options?: PromptOptions): Promise<ResultOf<"session.prompt">>;
  prompt(input: ParamsOf<"session.prompt"> | string, options: PromptOptions = {}) {
    if (typeof input !== "string") return this.request("session.prompt", input);
    const { delivery = "direct", ...rest } = options;
    return this.request("session.prompt", { delivery, text: input, ...rest });
  }

  getUsage() {
    return this.request("session.get_usage");
  }

  getContext() {
    return this.request("session.get_context");
  }

  interrupt() {
    return this.request("session.interrupt");
  }

  awaitIdle(params?: ParamsOf<"session.await_idle">) {
    return this.request("session.await_idle", params);
  }

  setEvents(mode: EventModeName) {
    return this.request("connection.set_events", { mode });
  }

  listCommands() {
    return this.request("command.list");
  }

  /** Invokes exactly `name`; Zi answers `not_found` (nothing invoked) for a name it does not know. */
  invokeCommand(name: string, args = "") {
    return this.request("command.invoke", { name, arguments: args });
  }

  /** Like invokeCommand, but first checks `command.list`: an unlisted name is refused locally. */
  async runCommand(name: string, args = ""): Promise<ResultOf<"command.invoke">> {
    const { commands } = await this.listCommands();
    if (!commands.some((command) => command.name === name)) {
      throw new ZiRpcError("not_found", `no extension command named ${JSON.stringify(name)}`, "no", "client", undefined, "command.invoke");
    }
    return this.invokeCommand(name, args);
  }

  listModels() {
    return this.request("model.list");
  }

  selectModel(provider: string, id: string) {
    return this.request("model.select", { provider, id });
  }

  listThinking() {
    return this.request("thinking.list");
  }

  selectThinking(level: ThinkingLevel, scope?: "global" | "project") {
    return this.request("thinking.select", scope === undefined ? { level } : { level, scope });
  }

  /** Sets the client's layer of the tool permission policy; resolves with the effective policy. */
  setPermissionPolicy(policy: ParamsOf<"permission.set_policy">) {
    return this.request("permission.set_policy", policy);
  }

  /** The tool calls waiting for a permission decision. */
  listPermissions() {
    return this.request("permission.list");
  }

  /** Answers one request; Zi answers `not_found` when it was settled meanwhile (interrupt, timeout, another answer). */
  resolvePermission(requestId: string, decision: PermissionDecision, message?: string) {
    return this.request("permission.resolve", message === undefined ? { requestId, decision } : { requestId, decision, message });
  }

  /**
   * Answers every permission request with `handler`: those raised from now on and those already
   * waiting. Return a decision (`"allow_once"`, `"allow_always"`, `"deny"`) or `{ decision, message }`;
   * a throw denies. `onError` hears failures other than a request settled meanwhile (default: ignored).
   * Returns the function that stops answering. See docs/permissions.md.
   */
  onPermissionRequest(handler: PermissionHandler, onError: (error: unknown) => void = () => {}): () => void {
    const answerer = new PermissionAnswerer(
      {
        subscribe: (listener) => this.connection.subscribe(listener),
        list: () => this.listPermissions(),
        resolve: (requestId, decision, message) => this.resolvePermission(requestId, decision, message),
      },
      handler,
      onError,
    );
    return () => answerer.stop();
  }

  /**
   * Session events from now on, in source order. Ends when the connection closes (with an error if
   * it broke). End it early with `break` (or `return()`), or it buffers every later event.
   */
  events(): AsyncIterableIterator<AgentSessionEvent> {
    const queue: EventQueue<AgentSessionEvent> = new EventQueue(() => {
      unsubscribe();
      stopEnd();
    });
    const unsubscribe = this.connection.subscribe((event) => queue.push(event));
    const stopEnd = this.connection.onEnd((error) => queue.end(error));
    return queue;
  }

  /** Session events to a callback; returns the unsubscribe function. */
  onEvent(listener: (event: AgentSessionEvent) => void): () => void {
    return this.connection.subscribe(listener);
  }

  /** A completion watch for one logical work cycle (several prompts may join it). */
  watch(completionId: string = randomUUID()): CompletionWatch {
    return new CompletionWatch(
      {
        prompt: (params) => this.prompt(params),
        awaitIdle: (params) => this.awaitIdle(params) as Promise<CompletionObservation>,
        interrupt: () => this.interrupt(),
      },
      completionId,
    );
  }

  /** Prompts with a completion ID and resolves with Zi's completion evidence once the cycle settled. */
  async promptAndAwait(text: string, options: PromptAndAwaitOptions = {}): Promise<PromptCompletion> {
    const watch = this.watch(options.completionId);
    const prompt = await watch.prompt(text, options.delivery ?? "direct", options.images);
    return { prompt, ...(await watch.settle({ signal: options.signal })) };
  }

  /** Every transcript item, following `nextStart` (see JournalPager for the restart rule). */
  allMessages(options: PagerOptions = {}) {
    const pager = new JournalPager(async (start, limit) => {
      const page = await this.getMessages({ start, limit });
      return { ...page, items: page.messages };
    }, options);
    return pager.items();
  }

  /** Every operation outcome in journal order, following `nextStart`. */
  allOutcomes(options: PagerOptions = {}) {
    const pager = new JournalPager(async (start, limit) => {
      const page = await this.getOutcomes({ start, limit });
      return { ...page, items: page.outcomes };
    }, options);
    return pager.items();
  }

  /** Disconnects: Zi interrupts work, answers every pending request, and exits (bounded; then killed). */
  close(): Promise<ExitStatus> {
    return this.connection.close();
  }
}
