// An esbuild plugin for `npm run build` (scripts/bundle.mjs): the `openai` SDK's SSE reader
// (`iterSSEChunks` in core/streaming.mjs, which every OpenAI-compatible stream of pi-ai goes through)
// copies the rest of its buffer after every event it cuts off (`data = data.slice(patternIndex)`), so
// a read of n events costs n copies of what is left of it: quadratic in the read's size. Node's fetch
// hands over reads of up to 64 KiB (~430 chat-completion events) whenever the model is ahead of the
// reader, and then these copies (and their ~32 KiB array buffers, one per event) were the largest
// single cost of a streamed answer (docs/performance.md, issue 27). The replacement walks the same
// buffer with an offset and copies what is left once per read. It cuts and yields exactly the same
// bytes: test/core/models/linear-sse-chunks.spec.ts compares the SDK's SSE messages with and without it.
import { readFile } from "node:fs/promises";

const STREAMING = /[\\/]node_modules[\\/]openai[\\/]core[\\/]streaming\.mjs$/;

/** The SDK's loop (openai 6.x), as it is; the build fails when it is no longer there. */
const QUADRATIC = `        let patternIndex;
        while ((patternIndex = findDoubleNewlineIndex(data)) !== -1) {
            yield data.slice(0, patternIndex);
            data = data.slice(patternIndex);
        }
`;
const LINEAR = `        let patternIndex;
        let start = 0;
        while ((patternIndex = findDoubleNewlineIndex(start === 0 ? data : data.subarray(start))) !== -1) {
            yield data.slice(start, start + patternIndex);
            start += patternIndex;
        }
        if (start > 0) data = data.slice(start);
`;

/** core/streaming.mjs with the linear loop; throws when the SDK's loop is not found exactly once. */
export function linearSseChunks(source) {
  const at = source.indexOf(QUADRATIC);
  if (at === -1 || source.indexOf(QUADRATIC, at + 1) !== -1) {
    throw new Error("bundle: the openai SDK's iterSSEChunks changed; update scripts/linear-sse-chunks.mjs");
  }
  return source.slice(0, at) + LINEAR + source.slice(at + QUADRATIC.length);
}

export const linearSseChunksPlugin = {
  name: "linear-sse-chunks",
  setup(build) {
    build.onLoad({ filter: STREAMING }, async ({ path }) => ({ contents: linearSseChunks(await readFile(path, "utf8")), loader: "js" }));
  },
};
