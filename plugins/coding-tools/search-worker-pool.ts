import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { grepRegExp } from "./search-backend.js";
import { type SearchBatch, type SearchBatchResult, type SearchSpec, type SearchWorkerData, searchWorkerSource } from "./search-worker-main.js";
import { decodeSearchable } from "./searchable-text.js";

/**
 * A pattern that makes no progress on one file for this long is given up on (the worker is ended):
 * a linear pattern on the largest file grep reads (32 MiB) takes a small fraction of it.
 */
const STALL_MS = 3000;
const WATCH_EVERY_MS = 250;
/** Files per batch: small first, so a search that stops early reads little, then larger, so messages stay few. */
const FIRST_BATCH = 16;
const LARGEST_BATCH = 512;
const MAX_WORKERS = 4;
/** An idle worker is ended after this long: a session that searched once does not keep its threads. */
const IDLE_MS = 30_000;

interface PooledWorker {
  worker: Worker;
  heartbeat: Int32Array;
  /** The heartbeat when last looked at, and since when it has not moved. */
  lastBeat: number;
  stillSince: number;
  onResult?: (result: SearchBatchResult) => void;
  onError?: (error: Error) => void;
  idleTimer?: NodeJS.Timeout;
}

/**
 * The threads the Node search matches in (used when ripgrep is not installed): files are read and
 * matched there, in parallel, while Zi's main thread stays free for the protocol and signals. A
 * watchdog ends a worker whose pattern stops making progress, and the search fails with a message.
 * Results come back in the files' order, so a search can stop as soon as it has enough.
 */
export class SearchWorkerPool {
  private static instance: SearchWorkerPool | undefined;
  private readonly idle: PooledWorker[] = [];
  private source: string | undefined;

  static shared(): SearchWorkerPool {
    SearchWorkerPool.instance ??= new SearchWorkerPool();
    return SearchWorkerPool.instance;
  }

  /**
   * Searches `files` (absolute paths, in order); `onMatch` gets every match in file order, lines
   * ascending, and returns false to stop the search.
   */
  search(spec: SearchSpec, files: readonly string[], signal: AbortSignal, onMatch: (file: number, line: number, text: string) => boolean): Promise<void> {
    const batches: { start: number; end: number }[] = [];
    for (let start = 0, size = FIRST_BATCH; start < files.length; start += size, size = Math.min(size * 2, LARGEST_BATCH)) {
      batches.push({ start, end: Math.min(start + size, files.length) });
    }
    if (batches.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const results = new Map<number, SearchBatchResult["matches"]>();
      const busy = new Set<PooledWorker>();
      let nextToSend = 0;
      let nextToEmit = 0;
      let done = false;
      const finish = (error?: Error): void => {
        if (done) return;
        done = true;
        clearInterval(watchdog);
        signal.removeEventListener("abort", onAbort);
        for (const pooled of busy) this.drain(pooled);
        if (error) reject(error);
        else resolve();
      };
      const onAbort = (): void => finish(new Error("The search was interrupted."));
      const send = (pooled: PooledWorker): void => {
        if (done || nextToSend >= batches.length) {
          this.release(pooled);
          return;
        }
        const id = nextToSend++;
        const { start, end } = batches[id]!;
        busy.add(pooled);
        pooled.onResult = (result) => {
          busy.delete(pooled);
          results.set(result.id, result.matches);
          emit();
          send(pooled);
        };
        pooled.lastBeat = Atomics.load(pooled.heartbeat, 0);
        pooled.stillSince = Date.now();
        pooled.worker.ref();
        const batch: SearchBatch = { id, spec, files: files.slice(start, end) };
        pooled.worker.postMessage(batch);
      };
      const emit = (): void => {
        for (let matches = results.get(nextToEmit); matches !== undefined && !done; matches = results.get(nextToEmit)) {
          results.delete(nextToEmit);
          const base = batches[nextToEmit]!.start;
          nextToEmit++;
          for (const [index, line, text] of matches) {
            if (!onMatch(base + index, line, text)) return finish();
          }
          if (nextToEmit === batches.length) return finish();
        }
      };
      const watchdog = setInterval(() => {
        const now = Date.now();
        for (const pooled of busy) {
          const beat = Atomics.load(pooled.heartbeat, 0);
          if (beat !== pooled.lastBeat) {
            pooled.lastBeat = beat;
            pooled.stillSince = now;
          } else if (now - pooled.stillSince >= STALL_MS) {
            busy.delete(pooled);
            void pooled.worker.terminate();
            finish(new Error(`grep: the pattern ran for over ${STALL_MS / 1000} s on one file without finishing (without ripgrep, patterns such as (a+)+$ can take exponential time); simplify the pattern, or install ripgrep.`));
            return;
          }
        }
      }, WATCH_EVERY_MS);
      watchdog.unref();
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) return onAbort();
      const count = Math.min(batches.length, Math.max(1, Math.min(availableParallelism(), MAX_WORKERS)));
      for (let i = 0; i < count; i++) {
        const pooled = this.acquire((error) => {
          busy.delete(pooled);
          finish(new Error(`the search worker failed: ${error.message}`));
        });
        send(pooled);
      }
    });
  }

  private acquire(onError: (error: Error) => void): PooledWorker {
    const pooled = this.idle.pop() ?? this.spawn();
    clearTimeout(pooled.idleTimer);
    pooled.onError = onError;
    return pooled;
  }

  private spawn(): PooledWorker {
    this.source ??= searchWorkerSource(decodeSearchable, grepRegExp);
    const heartbeat = new SharedArrayBuffer(4);
    const workerData: SearchWorkerData = { maxScanFileBytes: CODING_TOOL_LIMITS.maxScanFileBytes, heartbeat };
    const worker = new Worker(this.source, { eval: true, workerData, stdout: false, stderr: false });
    const pooled: PooledWorker = { worker, heartbeat: new Int32Array(heartbeat), lastBeat: 0, stillSince: 0 };
    worker.on("message", (result: SearchBatchResult) => pooled.onResult?.(result));
    worker.on("error", (error: Error) => {
      this.forget(pooled);
      pooled.onError?.(error);
    });
    worker.on("exit", () => this.forget(pooled));
    worker.unref();
    return pooled;
  }

  /** An idle worker waits unreferenced: it never keeps Zi's process alive. */
  private release(pooled: PooledWorker): void {
    pooled.onResult = undefined;
    pooled.onError = undefined;
    pooled.worker.unref();
    if (!this.idle.includes(pooled)) this.idle.push(pooled);
    clearTimeout(pooled.idleTimer);
    pooled.idleTimer = setTimeout(() => {
      this.forget(pooled);
      void pooled.worker.terminate();
    }, IDLE_MS);
    pooled.idleTimer.unref();
  }

  /** A worker still busy when its search ended: back to the pool when it answers, ended if it stalls. */
  private drain(pooled: PooledWorker): void {
    const timer = setTimeout(() => {
      this.forget(pooled);
      void pooled.worker.terminate();
    }, STALL_MS);
    timer.unref();
    pooled.worker.unref();
    pooled.onResult = () => {
      clearTimeout(timer);
      this.release(pooled);
    };
  }

  private forget(pooled: PooledWorker): void {
    const index = this.idle.indexOf(pooled);
    if (index >= 0) this.idle.splice(index, 1);
  }
}
