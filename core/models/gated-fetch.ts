import type { ReadGate } from "./read-gate.js";

/** Carries a model call's id from pi-ai's options to the fetch below; removed before the request leaves. */
export const READ_GATE_HEADER = "x-zi-read-gate";
/** pi-ai providers whose SDK sends `options.headers` through the global `fetch`. */
export const GATED_APIS: ReadonlySet<string> = new Set(["openai-completions", "openai-responses", "anthropic-messages"]);
/**
 * Marks a warm-up call (provider-warmer.ts): with READ_GATE_HEADER it is answered here with an empty
 * event stream, so the SDK's whole path runs and nothing leaves the process.
 */
export const WARM_UP_HEADER = "x-zi-warm-up";
let warmUpsAnswered = 0;

/** How many warm-up calls were answered here so far. */
export function warmUpsAnsweredCount(): number {
  return warmUpsAnswered;
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
    const id = headers?.get(READ_GATE_HEADER);
    if (!headers || id === null || id === undefined) return original(input, init);
    headers.delete(READ_GATE_HEADER);
    const response = headers.has(WARM_UP_HEADER) ? warmUpAnswer() : await original(input, { ...init, headers });
    const gate = gates.get(id);
    if (gate === undefined || response.body === null) return response;
    // Shadowing `body` keeps the Response itself (status, headers, url, text() on an unread body).
    Object.defineProperty(response, "body", { value: gatedBody(response.body, gate), configurable: true });
    return response;
  };
}

function warmUpAnswer(): Response {
  warmUpsAnswered++;
  return new Response("data: [DONE]\n\n", { status: 200, headers: { "content-type": "text/event-stream" } });
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
