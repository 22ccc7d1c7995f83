import { AbortRace } from "../session/abort-race.js";
import type * as PiAi from "@mariozechner/pi-ai";
import type { BufferedModelStream } from "./buffered-model-stream.js";
import { GATED_APIS, WARM_UP_HEADER, allowWarmUpOrigin } from "./gated-fetch.js";
import type { ResolvedModel } from "./model-runtime.js";

/** Thrown from `onPayload`, which every pi-ai provider awaits before it sends anything. */
const STOP_BEFORE_SENDING = new Error("zi: provider warm-up (never sent)");

/**
 * A model call made the way the session makes one (ModelRegistry: its stream function, the read gate,
 * the buffered event stream), with these options instead of the session's.
 */
export type WarmUpCall = (model: PiAi.Model<PiAi.Api>, context: PiAi.Context, options: PiAi.SimpleStreamOptions) => Promise<BufferedModelStream>;

/** The warm-up call, started with a context; its options (the warm-up server, no key) are the warmer's. */
export type WarmUpStart = (context: PiAi.Context, signal: AbortSignal) => Promise<BufferedModelStream>;

/**
 * Runs a warm-up call the way a prompt runs a model call (SessionRehearsal: a whole turn of a session
 * of its own, so Zi's first-turn code is compiled before the first prompt too, not only the
 * provider's). Resolves with whether the call's reply was read to its end.
 */
export type WarmUpDriver = (model: ResolvedModel, start: WarmUpStart, signal: AbortSignal) => Promise<boolean>;

/**
 * What a first prompt sends, in small: a system prompt, a user message and a tool (its JSON Schema
 * converted as the session's tools are), so the SDK's request building runs as it will then.
 */
const WARM_UP_CONTEXT: PiAi.Context = {
  systemPrompt: "Zi's provider warm-up.",
  messages: [{ role: "user", content: "warm up", timestamp: 0 }],
  tools: [
    {
      name: "warm_up",
      description: "Not a tool: the warm-up's request carries one, as a session's does.",
      parameters: { type: "object", properties: { text: { type: "string", description: "any text" } }, required: ["text"] },
    } as unknown as PiAi.Tool,
  ],
};

/**
 * Loads and runs a provider's code path before its first real call: a model's first prompt paid for
 * pi-ai's provider module and its SDK (the `openai` package is ~115 files, ~40 ms to load), for
 * compiling Node's fetch (~35 ms) and for running all of it cold. Once a model is resolved, a warm-up
 * call is made that never leaves the machine: for the APIs whose SDK fetches through Zi's gated fetch
 * it goes, through the same code as a session's call (WarmUpCall), to a server of Zi's own on
 * 127.0.0.1 (WarmUpServer) that answers with a short event stream, so the SDK, fetch's request and
 * response, the read gate and the event handling all run once; the call is sent there by its base
 * URL and, whatever URL the SDK built, by the gated fetch (WARM_UP_HEADER). For the other APIs it
 * stops in `onPayload`, before anything is sent (the SDK is loaded and its client built), and a fetch
 * to a loopback server readies fetch's HTTP client (`loopbackFetch`). It runs after the current turn
 * (the answer that resolved the model goes out first), once per API; a real call of the API that
 * starts meanwhile drops the rest of it (`supersede`).
 */
export class ProviderWarmer {
  /** Every warm-up still running in this process (nobody awaits one; a test's teardown must). */
  private static readonly running = new Set<Promise<boolean>>();
  /**
   * The warmer every ModelRegistry uses: what it warms (loaded modules, compiled code, fetch's client)
   * is the process's, so a process with a registry per session (ACP) warms each API once, not a
   * warm-up call and a loopback fetch beside every session's first prompt.
   */
  static readonly process = new ProviderWarmer();
  /** Per API: its warm-up, and while it runs, what drops the rest of it. */
  private readonly warmed = new Map<string, { warming: Promise<boolean>; superseded?: AbortController }>();
  private fetchWarmed = false;
  private driver: WarmUpDriver | undefined;

  /** From now on, warm-up calls against a warm-up server are run by `driver` (see WarmUpDriver). */
  driveWith(driver: WarmUpDriver): void {
    this.driver = driver;
  }

  /**
   * `load`, when given, loads what `call` will use; it is started first. Settles (never rejects) once
   * the warm-up call has ended, with whether it ran as far as it was meant to (the warm-up server's
   * reply was read to its end, or the payload was built); callers need not wait for it. False for an
   * API already warmed, and for a warm-up superseded before its end.
   */
  warm(resolved: ResolvedModel, call: WarmUpCall, load?: () => Promise<unknown>): Promise<boolean> {
    const { model } = resolved;
    if (this.warmed.has(model.api)) return Promise.resolve(false);
    const superseded = new AbortController();
    const { signal } = superseded;
    const warming = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      // The call's modules (`load`: pi-ai, its provider module and SDK) are read while fetch's
      // implementation and the warm-up server load, not only once the call reaches each: resolving a
      // model loads only pi-ai's catalogue now, and an editor's first prompt (ACP) comes at once.
      void load?.().catch(() => undefined);
      try {
        if (GATED_APIS.has(model.api)) {
          this.fetchWarmed = true;
          return await this.localCall(call, resolved, signal);
        }
        const fetchWarm = this.fetchWarmed ? undefined : ProviderWarmer.loopbackFetch();
        this.fetchWarmed = true;
        const [ran] = await Promise.all([ProviderWarmer.stoppedCall(call, model), fetchWarm]);
        return ran;
      } catch {
        return false; // a provider that fails before its payload is built warms nothing more; the real call reports
      }
    });
    const entry: { warming: Promise<boolean>; superseded?: AbortController } = { warming, superseded };
    this.warmed.set(model.api, entry);
    ProviderWarmer.running.add(warming);
    void warming.finally(() => {
      ProviderWarmer.running.delete(warming);
      // An abort now would only run the listeners the call left on its signal, in the real call's time.
      entry.superseded = undefined;
    });
    return warming;
  }

  /**
   * A real call of `api` is starting: a warm-up of it still running would only compete with it for
   * the main thread (the call runs the path itself now), so what is left of it is dropped.
   */
  supersede(api: string): void {
    this.warmed.get(api)?.superseded?.abort();
  }

  /** The warm-up of `api` (as `warm` first returned it), if one was started. */
  warming(api: string): Promise<boolean> | undefined {
    return this.warmed.get(api)?.warming;
  }

  /** Settles once every warm-up this process started has ended (an in-process host's teardown, a test's). */
  static async settled(): Promise<void> {
    while (ProviderWarmer.running.size > 0) await Promise.all(ProviderWarmer.running);
  }

  /**
   * `settled()`, or `withinMs` later, whichever comes first: for a front end that holds a new session
   * back until its provider path is warm. A warm-up never leaves the machine, so the bound is only a
   * guard against a fault in one.
   */
  static async settledWithin(withinMs: number): Promise<void> {
    await new AbortRace(AbortSignal.timeout(withinMs)).run(() => ProviderWarmer.settled());
  }

  /**
   * One HTTP fetch to a server of Zi's own on 127.0.0.1, closed at once: fetch's HTTP client, its
   * connection pool and its response parser (a WebAssembly module compiled on first use) are then
   * ready for the first real request. Nothing leaves the machine.
   */
  private static async loopbackFetch(): Promise<void> {
    const { createServer } = await import("node:http");
    const server = createServer((_request, response) => response.writeHead(204, { connection: "close" }).end());
    try {
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
      const address = server.address();
      if (address === null || typeof address === "string") return;
      await (await fetch(`http://127.0.0.1:${address.port}/`)).arrayBuffer();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }

  /** The whole call against a WarmUpServer; true once its reply was read to the end. */
  private async localCall(call: WarmUpCall, resolved: ResolvedModel, signal: AbortSignal): Promise<boolean> {
    const { model } = resolved;
    // Node loads fetch's implementation (undici, ~15 ms of CPU on Node 20) on first use: here, before
    // the provider's modules load, rather than once the SDK fetches (later, nearer the first prompt).
    new Headers();
    // Loaded here, not with the registry: node:http is not part of start-up.
    const { WarmUpServer } = await import("./warm-up-server.js");
    if (signal.aborted) return false;
    const server = await WarmUpServer.start(model.api);
    const disallow = allowWarmUpOrigin(server.origin);
    try {
      const local = { ...model, baseUrl: server.baseUrlFor(model.baseUrl) };
      const headers = { [WARM_UP_HEADER]: server.origin };
      const start: WarmUpStart = (context, callSignal) =>
        call(local, context, { apiKey: "zi-warm-up", maxRetries: 0, signal: AbortSignal.any([signal, callSignal]), headers });
      const ended = await (this.driver ?? ProviderWarmer.consumed)(resolved, start, signal);
      return server.requests === 1 && ended;
    } finally {
      disallow();
      await server.close();
    }
  }

  /** The call consumed as the session consumes one (AssistantStreamer): taken one by one, waited on between. */
  private static async consumed(_model: ResolvedModel, start: WarmUpStart, signal: AbortSignal): Promise<boolean> {
    const events = await start(WARM_UP_CONTEXT, signal);
    for (;;) {
      if (events.take() !== undefined) continue;
      if (!(await events.arrival())) break;
    }
    return (await events.result()).stopReason === "stop";
  }

  private static async stoppedCall(call: WarmUpCall, model: PiAi.Model<PiAi.Api>): Promise<boolean> {
    const events = await call(model, { messages: [] }, { apiKey: "zi-warm-up", maxRetries: 0, onPayload: () => Promise.reject(STOP_BEFORE_SENDING) });
    const ended = await events.result();
    return ended.errorMessage === STOP_BEFORE_SENDING.message;
  }
}
