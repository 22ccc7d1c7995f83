import type * as PiAi from "@mariozechner/pi-ai";
import { GATED_APIS, READ_GATE_HEADER, WARM_UP_HEADER, registerReadGate, warmUpsAnsweredCount } from "./gated-fetch.js";
import type { SimpleStream } from "./pi-ai-loader.js";
import { ReadGate } from "./read-gate.js";

/** Thrown from `onPayload`, which every pi-ai provider awaits before it sends anything. */
const STOP_BEFORE_SENDING = new Error("zi: provider warm-up (never sent)");

/**
 * Loads and runs a provider's code path before its first real call: a model's first prompt paid for
 * pi-ai's provider module and its SDK (the `openai` package is ~115 files, ~40 ms to load), for
 * compiling Node's fetch (~35 ms) and for running the SDK's streaming code cold. Once a model is
 * resolved, a warm-up call is made that never leaves the process: for the APIs whose SDK fetches
 * through Zi's gated fetch it is answered there with an empty event stream (the whole path runs, the
 * read gate included); for the others it stops in `onPayload`, before anything is sent (the SDK is
 * loaded and its client built). A fetch to a loopback server of Zi's own readies fetch's HTTP client
 * (`loopbackFetch`). It runs after the current turn
 * (the answer that resolved the model goes out first), once per API.
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
  private readonly warmed = new Set<string>();
  private fetchWarmed = false;

  /**
   * Settles (never rejects) once the warm-up call has ended, with whether it ran as far as it was
   * meant to (the gated fetch answered it, or the payload was built); callers need not wait for it.
   * False for an API already warmed.
   */
  warm(model: PiAi.Model<PiAi.Api>, stream: Promise<SimpleStream>): Promise<boolean> {
    if (this.warmed.has(model.api)) return Promise.resolve(false);
    this.warmed.add(model.api);
    const warming = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const fetchWarm = this.fetchWarmed ? undefined : ProviderWarmer.loopbackFetch();
      this.fetchWarmed = true;
      try {
        const streamSimple = await stream;
        const [ran] = await Promise.all([GATED_APIS.has(model.api) ? ProviderWarmer.answeredCall(streamSimple, model) : ProviderWarmer.stoppedCall(streamSimple, model), fetchWarm]);
        return ran;
      } catch {
        return false; // a provider that fails before its payload is built warms nothing more; the real call reports
      }
    });
    ProviderWarmer.running.add(warming);
    void warming.finally(() => ProviderWarmer.running.delete(warming));
    return warming;
  }

  /** Settles once every warm-up this process started has ended (an in-process host's teardown, a test's). */
  static async settled(): Promise<void> {
    while (ProviderWarmer.running.size > 0) await Promise.all(ProviderWarmer.running);
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

  private static async answeredCall(streamSimple: SimpleStream, model: PiAi.Model<PiAi.Api>): Promise<boolean> {
    const before = warmUpsAnsweredCount();
    const registration = registerReadGate(new ReadGate());
    try {
      const headers = { [READ_GATE_HEADER]: registration.header, [WARM_UP_HEADER]: "1" };
      await streamSimple(model, { messages: [] }, { apiKey: "zi-warm-up", maxRetries: 0, headers }).result();
    } finally {
      registration.release();
    }
    return warmUpsAnsweredCount() > before;
  }

  private static async stoppedCall(streamSimple: SimpleStream, model: PiAi.Model<PiAi.Api>): Promise<boolean> {
    const ended = await streamSimple(model, { messages: [] }, { apiKey: "zi-warm-up", maxRetries: 0, onPayload: () => Promise.reject(STOP_BEFORE_SENDING) }).result();
    return ended.errorMessage === STOP_BEFORE_SENDING.message;
  }
}
