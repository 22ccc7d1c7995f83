import type { decodeSearchable } from "./searchable-text.js";
import type { MessagePort } from "node:worker_threads";
import type { grepRegExp } from "./search-backend.js";

/** What a search worker is started with (as workerData). */
export interface SearchWorkerData {
  maxScanFileBytes: number;
  /** Bumped by the worker as it goes: the pool's watchdog sees a pattern that makes no progress. */
  heartbeat: SharedArrayBuffer;
}

/** What to look for; workers are reused across searches, so each batch says it. */
export interface SearchSpec {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  perFileLimit: number;
  /** A match's text is cut to this many UTF-16 units (what a result can show, and a little more). */
  keepChars: number;
}

/** One batch of files to search, and its answer: [index in the batch, line number, line text] per match. */
export interface SearchBatch {
  id: number;
  spec: SearchSpec;
  files: string[];
}
export interface SearchBatchResult {
  id: number;
  matches: [number, number, string][];
}

/** Lookaround can see past a line's end in the whole text, so such patterns skip the whole-file test. */
const LOOKAROUND_SOURCE = "\\(\\?<?[=!]";

/**
 * The body of a search worker, run from its source text (so it works from the sources, tsc's output
 * and the bundle alike): everything it uses comes in as arguments or is a global. Regular expressions
 * run here, never on Zi's main thread, so a pattern that backtracks without end stalls only this
 * worker, which the pool's watchdog ends.
 */
export function searchWorkerMain(
  port: MessagePort,
  data: SearchWorkerData,
  { readFileSync, statSync }: Pick<typeof import("node:fs"), "readFileSync" | "statSync">,
  decode: typeof decodeSearchable,
  compile: typeof grepRegExp,
  lookaround: string,
): void {
  const beat = new Int32Array(data.heartbeat);
  const hasLookaround = new RegExp(lookaround);
  let compiled: { key: string; line: RegExp; whole: RegExp | undefined } | undefined;
  port.on("message", (batch: SearchBatch) => {
    const { spec } = batch;
    const key = JSON.stringify([spec.pattern, spec.literal, spec.ignoreCase]);
    if (compiled?.key !== key) {
      const line = compile(spec.pattern, spec.literal, spec.ignoreCase);
      // One pass over the whole text first: most files do not match, and they are never split.
      const whole = hasLookaround.test(spec.pattern) && !spec.literal ? undefined : compile(spec.pattern, spec.literal, spec.ignoreCase, "m");
      compiled = { key, line, whole };
    }
    const { line, whole } = compiled;
    const matches: [number, number, string][] = [];
    batch.files.forEach((absolute, index) => {
      Atomics.add(beat, 0, 1);
      let text: string | undefined;
      try {
        if (statSync(absolute).size > data.maxScanFileBytes) return;
        text = decode(readFileSync(absolute));
      } catch {
        return; // gone or unreadable: a search reports what it could see
      }
      if (text === undefined) return;
      // A CR before LF would stop "$" from matching at a line's end, so such files are split anyway.
      if (whole && !text.includes("\r") && !whole.test(text)) return;
      let found = 0;
      let start = 0;
      for (let number = 1; start < text.length; number++) {
        if ((number & 4095) === 0) Atomics.add(beat, 0, 1);
        const newline = text.indexOf("\n", start);
        const end = newline < 0 ? text.length : newline;
        const content = text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
        if (line.test(content)) {
          matches.push([index, number, content.length > spec.keepChars ? content.slice(0, spec.keepChars) : content]);
          if (++found >= spec.perFileLimit) return;
        }
        if (newline < 0) return;
        start = newline + 1;
      }
    });
    const result: SearchBatchResult = { id: batch.id, matches };
    port.postMessage(result);
  });
}

/**
 * The worker's source text: the body and what it is handed. `require` stays inside this string, where
 * no bundler rewrites it (an eval'd worker is a CommonJS script).
 */
export function searchWorkerSource(decode: typeof decodeSearchable, compile: typeof grepRegExp): string {
  const modules = 'const { parentPort, workerData } = require("node:worker_threads"); const fs = require("node:fs");';
  return `${modules}\n(${searchWorkerMain.toString()})(parentPort, workerData, fs, ${decode.toString()}, ${compile.toString()}, ${JSON.stringify(LOOKAROUND_SOURCE)});`;
}
