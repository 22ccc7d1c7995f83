import type { ReadGate } from "./read-gate.js";

/** Carries a model call's id from pi-ai's options to the fetch below; removed before the request leaves. */
export const READ_GATE_HEADER = "x-zi-read-gate";
/** pi-ai providers whose SDK sends `options.headers` through the global `fetch`. */
export const GATED_APIS: ReadonlySet<string> = new Set(["openai-completions", "openai-responses", "anthropic-messages"]);
/**
 * Marks a warm-up call (provider-warmer.ts); its value is the origin of the warm-up's own loopback
 * server (warm-up-server.ts), registered by `allowWarmUpOrigin`. Such a request is sent there, its path
 * kept, whatever URL the SDK built: a warm-up reaches no provider even if an SDK ignored the base URL.
 */
export const WARM_UP_HEADER = "x-zi-warm-up";
const warmUpOrigins = new Set<string>();

/** Lets warm-up requests go to `origin` (a loopback server of Zi's own) until the returned function is called. */
export function allowWarmUpOrigin(origin: string): () => void {
  warmUpOrigins.add(origin);
  return () => warmUpOrigins.delete(origin);
}

const gates = new Map<string, ReadGate>();
let nextId = 0;
let installed = false;

/**
 * pi-ai's providers read their HTTP response as fast as it arrives and push every event into an
 * unbounded queue, and they take no fetch option. Their SDKs call the global `fetch`, so Zi wraps it
 * once: a request that carries READ_GATE_HEADER (added to the call's headers by `registerReadGate`)
 * has the header removed and gets a response body that reads the real one only while the call's gate
 * is open. While it is closed nothing is read, the fetch body's own small buffer fills, the socket is
 * no longer read, and TCP pushes back on the provider. Any other fetch passes through untouched.
 * (An AsyncLocalStorage would find the call without a header, but on Node 20 it turns on promise
 * hooks for the whole process: measured 13% of the CPU of a streamed reply.)
 */
export function installGatedFetch(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async function gatedFetch(input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> {
    const headers = init?.headers === undefined ? undefined : new Headers(init.headers);
    if (!headers) return original(input, init);
    const warmUp = headers.get(WARM_UP_HEADER);
    if (warmUp !== null) {
      headers.delete(WARM_UP_HEADER);
      input = warmUpTarget(input, warmUp);
    }
    const id = headers.get(READ_GATE_HEADER);
    if (id === null) return warmUp === null ? original(input, init) : original(input, { ...init, headers });
    headers.delete(READ_GATE_HEADER);
    const response = await original(input, { ...init, headers });
    const gate = gates.get(id);
    if (gate === undefined || response.body === null) return response;
    // Shadowing `body` keeps the Response itself (status, headers, url, text() on an unread body).
    Object.defineProperty(response, "body", { value: gatedBody(response.body, gate), configurable: true });
    return response;
  };
}

/** A warm-up request's URL on its loopback server; anything else is refused before it is sent. */
function warmUpTarget(input: Parameters<typeof fetch>[0], origin: string): string {
  if (!warmUpOrigins.has(origin)) throw new Error("zi: a warm-up request without its warm-up server (not sent)");
  if (typeof input !== "string" && !(input instanceof URL)) throw new Error("zi: a warm-up request given as a Request (not sent)");
  const url = new URL(input);
  return `${origin}${url.pathname}${url.search}`;
}

/** The header value naming `gate` until `release` is called (when the call's stream has ended). */
export function registerReadGate(gate: ReadGate): { header: string; release: () => void } {
  const id = String(++nextId);
  gates.set(id, gate);
  return { header: id, release: () => gates.delete(id) };
}

/**
 * An error object's type in a streamed body (`"error":{"message":…,"type":"server_error"`): OpenAI's
 * and Anthropic's SSE error events. Inside a JSON string the quotes would be escaped, so model text
 * cannot match; and it is consulted only when the call ended in an error.
 */
const ERROR_TYPE = /"error"\s*:\s*\{[^{}]*?"type"\s*:\s*"([a-z_]{1,64})"/;
/** Enough of the previous chunk to find an error object cut between two chunks. */
const SNIFF_TAIL_CHARS = 512;

function gatedBody(body: ReadableStream<Uint8Array>, gate: ReadGate): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const decoder = new TextDecoder();
  let tail = "";
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const wait = gate.wait();
        if (wait) await wait;
        reader ??= body.getReader();
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (gate.streamErrorType === undefined) {
          const text = tail + decoder.decode(value, { stream: true });
          gate.streamErrorType = ERROR_TYPE.exec(text)?.[1];
          tail = text.slice(-SNIFF_TAIL_CHARS);
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader ? reader.cancel(reason) : body.cancel(reason);
      },
    },
    // Nothing is read ahead of the consumer: a pull happens only when it asks for the next chunk.
    { highWaterMark: 0 },
  );
}
