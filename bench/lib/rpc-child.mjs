// One child process spoken to over JSONL stdin/stdout: Zi or one of the baseline children. Every
// child goes through the same reader and the same client code, so a ratio compares the children and
// not two different clients.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { FrameReader, FrameType, preview } from "./frame-reader.mjs";

const STDERR_TAIL_BYTES = 4096;
const CLOSE_TIMEOUT_MS = 20_000;
// A benchmark step that takes this long is hung, not slow.
const WAIT_TIMEOUT_MS = 120_000;

export class RpcChild {
  /** performance.now() just before spawn() and when the first frame was read. */
  spawnedAt = 0;
  firstFrameAt = 0;
  /** Optional (line, sequence, type) => void seeing every frame before any waiter (used to record). */
  tap = null;
  /** The parsed `ready` frame. */
  ready = null;
  /** Line length (LF excluded) of the answer to the last request(). */
  lastAnswerBytes = 0;
  /** Responses and protocol errors read while nothing was awaited: answers to no request of ours. */
  strayAnswers = 0;
  /** Resolves with the parsed `ready` frame (the first frame must be `ready`). */
  started;
  /** Resolves with { code, signal } once the process has exited and its stdio has closed. */
  exited;
  #process;
  #reader = new FrameReader();
  #waiter = null;
  #afterReady = null;
  #stderr = "";
  #exit = null;
  #nextId = 0;
  #strayPreview = null;

  /** node: the Node binary that runs the script (the bench's own by default). */
  constructor(label, script, args, env, cwd, node = process.execPath) {
    this.label = label;
    this.spawnedAt = performance.now();
    this.#process = spawn(node, [script, ...args], { env: env ?? process.env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.pid = this.#process.pid;
    this.#process.stdin.on("error", () => {}); // an early exit surfaces through the exit check instead
    this.#process.stderr.on("data", (chunk) => {
      this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    this.#process.stdout.on("data", (chunk) => this.#reader.push(chunk));
    // 'close' comes after the stdio streams have closed, so every byte of stdout has been read by then.
    this.exited = new Promise((resolve) => {
      this.#process.on("close", (code, signal) => resolve({ code, signal }));
      this.#process.on("error", (error) => resolve({ code: null, signal: null, error }));
    }).then((exit) => {
      this.#reader.end();
      this.#exit = exit;
      this.#settleWaiter(new Error(`${this.label} exited (${describeExit(exit)}) while a frame was awaited${this.#stderrNote()}`));
      return exit;
    });
    this.#reader.onFailure = (error) => this.#settleWaiter(new Error(`${this.label}: ${error.message}`));
    this.started = new Promise((resolve, reject) => {
      this.#waiter = {
        predicate: (line, sequence, type) => {
          this.firstFrameAt = performance.now();
          if (type !== FrameType.ready) throw new Error(`first frame is not ready: ${preview(line)}`);
          this.ready = JSON.parse(line.toString("utf8"));
          return true;
        },
        resolve: () => resolve(this.ready),
        reject,
      };
    });
    this.#reader.handler = (line, sequence, type) => this.#onFrame(line, sequence, type);
  }

  get reader() {
    return this.#reader;
  }

  get stderrTail() {
    return this.#stderr;
  }

  send(data) {
    this.#process.stdin.write(data);
  }

  /**
   * Resolves when predicate(line, sequence, type) returns true for a frame; it may throw to fail the
   * wait. One waiter at a time: measurements drive one child strictly step by step.
   */
  wait(predicate, timeoutMs = WAIT_TIMEOUT_MS) {
    if (this.#waiter) throw new Error(`${this.label}: a wait is already pending`);
    if (this.#reader.failure) return Promise.reject(new Error(`${this.label}: ${this.#reader.failure.message}`));
    if (this.#exit) return Promise.reject(new Error(`${this.label} has exited (${describeExit(this.#exit)})${this.#stderrNote()}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#settleWaiter(new Error(`${this.label}: no awaited frame within ${timeoutMs} ms`)), timeoutMs);
      const settle = (fn) => (value) => {
        clearTimeout(timer);
        fn(value);
      };
      this.#waiter = { predicate, resolve: settle(resolve), reject: settle(reject) };
    });
  }

  /**
   * `wait` for a child whose `ready` may not have been read yet (requests written at spawn): the waiter
   * takes over synchronously after `ready`, so no frame that follows it in the same chunk is missed.
   */
  waitAfterReady(predicate, timeoutMs = WAIT_TIMEOUT_MS) {
    if (this.ready) return this.wait(predicate, timeoutMs);
    if (this.#afterReady) throw new Error(`${this.label}: a wait is already pending`);
    return new Promise((resolve, reject) => {
      this.#afterReady = () => this.wait(predicate, timeoutMs).then(resolve, reject);
      this.started.catch(reject);
    });
  }

  /**
   * Untimed convenience: sends one request and resolves with its parsed response or protocol error
   * (whose line length, LF excluded, is left in `lastAnswerBytes`).
   */
  async request(method, params) {
    const id = `bench-${++this.#nextId}`;
    const request = params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };
    let frame;
    const answered = this.wait((line, sequence, type) => {
      if (type !== FrameType.response && type !== FrameType.protocolError) return false;
      const parsed = JSON.parse(line.toString("utf8"));
      if (parsed.id !== id) throw new Error(`${this.label}: answer to ${parsed.id} while only ${id} was pending: ${preview(line)}`);
      frame = parsed;
      this.lastAnswerBytes = line.length;
      return true;
    });
    this.send(`${JSON.stringify(request)}\n`);
    await answered;
    return frame;
  }

  /**
   * Ends stdin (the client disconnects) and checks the child exits with `expectedCode`, every frame it
   * wrote arrived in gapless order, and no answer came that no request asked for.
   */
  async close(expectedCode = 0) {
    this.#process.stdin.end();
    const timer = setTimeout(() => this.#process.kill("SIGKILL"), CLOSE_TIMEOUT_MS);
    const exit = await this.exited;
    clearTimeout(timer);
    if (this.#reader.failure) throw new Error(`${this.label}: ${this.#reader.failure.message}`);
    if (exit.code !== expectedCode) {
      throw new Error(`${this.label} exited (${describeExit(exit)}), expected code ${expectedCode}${this.#stderrNote()}`);
    }
    if (this.strayAnswers > 0) throw new Error(`${this.label}: ${this.strayAnswers} answer(s) to no pending request, first: ${this.#strayPreview}`);
    return { frames: this.#reader.frames, lastSequence: this.#reader.lastSequence, bytes: this.#reader.bytes };
  }

  /** Last resort on a failed run: our own child only, by its pid. */
  kill() {
    if (!this.#exit) this.#process.kill("SIGKILL");
  }

  #onFrame(line, sequence, type) {
    this.tap?.(line, sequence, type);
    const waiter = this.#waiter;
    if (!waiter) {
      if (type === FrameType.response || type === FrameType.protocolError) {
        this.strayAnswers++;
        this.#strayPreview ??= preview(line);
      }
      return;
    }
    let done;
    try {
      done = waiter.predicate(line, sequence, type);
    } catch (error) {
      this.#waiter = null;
      waiter.reject(error);
      return;
    }
    if (done) {
      this.#waiter = null;
      waiter.resolve();
      const next = this.#afterReady;
      this.#afterReady = null;
      next?.();
    }
  }

  #settleWaiter(error) {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = null;
    waiter.reject(error);
  }

  #stderrNote() {
    const tail = this.#stderr.trim();
    return tail ? `\n--- ${this.label} stderr (tail) ---\n${tail}` : "";
  }
}

function describeExit({ code, signal, error }) {
  if (error) return `spawn failed: ${error.message}`;
  return signal ? `signal ${signal}` : `code ${code}`;
}
