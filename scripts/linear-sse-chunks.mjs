// An esbuild plugin for `npm run build` (scripts/bundle.mjs): the `openai` SDK's SSE reader
// (`iterSSEChunks` in core/streaming.mjs, which every OpenAI-compatible stream of pi-ai goes through)
// copies the rest of its buffer after every event it cuts off (`data = data.slice(patternIndex)`), so
// a read of n events costs n copies of what is left of it: quadratic in the read's size. Node's fetch
// hands over reads of up to 64 KiB (~430 chat-completion events) whenever the model is ahead of the
// reader, and then these copies (and their ~32 KiB array buffers, one per event) were the largest
// single cost of a streamed answer (docs/performance.md, issue 27). The replacement walks the read
// with an offset, copies what is left once per read, and hands `_iterSSEMessages` all the events of
// a read at once (views of the read: its line decoder copies what it is given), instead of one async
// generator step per event. The same bytes are cut, in the same order, and a read is taken only when
// the events of the one before have all been consumed, as before: test/core/models/linear-sse-chunks.spec.ts
// compares the SDK's SSE messages with and without it.
import { readFile } from "node:fs/promises";

const STREAMING = /[\\/]node_modules[\\/]openai[\\/]core[\\/]streaming\.mjs$/;

/** The SDK's code (openai 6.x) as it is, and what replaces it; the build fails when one is no longer there. */
const REPLACEMENTS = [
  // iterSSEChunks' loop over one read: every event, then the rest of the read (the next read is appended to it).
  [
    `        let patternIndex;
        while ((patternIndex = findDoubleNewlineIndex(data)) !== -1) {
            yield data.slice(0, patternIndex);
            data = data.slice(patternIndex);
        }
`,
    `        let patternIndex;
        let start = 0;
        const events = [];
        while ((patternIndex = findDoubleNewlineIndex(start === 0 ? data : data.subarray(start))) !== -1) {
            events.push(data.subarray(start, start + patternIndex));
            start += patternIndex;
        }
        if (start > 0) data = data.slice(start);
        if (events.length > 0) yield events;
`,
  ],
  // What is left at the end of the body, as one more event.
  [
    `    if (data.length > 0) {
        yield data;
    }
`,
    `    if (data.length > 0) {
        yield [data];
    }
`,
  ],
  // _iterSSEMessages takes the events of a read one by one.
  [`    for await (const sseChunk of iterSSEChunks(iter)) {\n`, `    for await (const sseChunks of iterSSEChunks(iter)) for (const sseChunk of sseChunks) {\n`],
];

/** core/streaming.mjs made linear; throws when a piece of the SDK's code is not found exactly once. */
export function linearSseChunks(source) {
  let out = source;
  for (const [sdk, linear] of REPLACEMENTS) {
    const at = out.indexOf(sdk);
    if (at === -1 || out.indexOf(sdk, at + 1) !== -1) throw new Error("bundle: the openai SDK's iterSSEChunks changed; update scripts/linear-sse-chunks.mjs");
    out = out.slice(0, at) + linear + out.slice(at + sdk.length);
  }
  return out;
}

export const linearSseChunksPlugin = {
  name: "linear-sse-chunks",
  setup(build) {
    let patched = 0;
    build.onLoad({ filter: STREAMING }, async ({ path }) => {
      patched++;
      return { contents: linearSseChunks(await readFile(path, "utf8")), loader: "js" };
    });
    // The SDK's streaming module moved (or the bundle stopped loading it): fail, not ship it unpatched.
    build.onEnd(() => {
      if (patched === 0) throw new Error("linear-sse-chunks: the openai SDK's core/streaming.mjs was not bundled; update scripts/linear-sse-chunks.mjs");
    });
  },
};
