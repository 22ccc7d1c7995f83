import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ZI_BIN = resolve("dist/bin/zi.js");

export interface ZiSpawnOptions {
  args?: string[];
  env?: Record<string, string>;
  fauxScript?: object;
  cwd?: string;
  ziHome?: string;
}

/**
 * The built `zi` as a black box. Every stdout byte is split on LF and parsed as a frame; the harness
 * fails the test if any line is not JSON, if `version` is not 1, or if `sequence` ever skips.
 */
export class ZiProcess {
  private static readonly live = new Set<ZiProcess>();
  readonly child: ChildProcessWithoutNullStreams;
  readonly frames: any[] = [];
  readonly problems: string[] = [];
  readonly ziHome: string;
  stderr = "";
  stdoutBytes = 0;
  private pending = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(options: ZiSpawnOptions = {}) {
    if (!existsSync(ZI_BIN)) throw new Error(`${ZI_BIN} is missing: run \`npm run build\` before the e2e tests`);
    this.ziHome = options.ziHome ?? mkdtempSync(join(tmpdir(), "zi-e2e-home-"));
    const args = [...(options.args ?? ["--mode", "rpc", "--no-session"])];
    if (options.fauxScript) {
      const file = join(this.ziHome, "faux-script.json");
      writeFileSync(file, JSON.stringify(options.fauxScript));
      args.push("--faux-script", file);
    }
    this.child = spawn(process.execPath, [ZI_BIN, ...args], {
      cwd: options.cwd ?? this.ziHome,
      env: { PATH: process.env.PATH ?? "", HOME: this.ziHome, ZI_HOME: this.ziHome, ...options.env },
    });
    this.child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
    ZiProcess.live.add(this);
    void this.exited.then(() => ZiProcess.live.delete(this));
  }

  /** For afterEach: a failed test must not leave a Zi running (it would keep Jest alive). */
  static killAll(): void {
    for (const zi of ZiProcess.live) zi.child.kill("SIGKILL");
    ZiProcess.live.clear();
  }

  static fauxScriptFile(dir: string, script: object): string {
    const file = join(dir, "script.json");
    writeFileSync(file, JSON.stringify(script));
    return file;
  }

  /**
   * Writes the records with one write, so that records sent together reach Zi in one read (a pipe write
   * of up to 4 KiB is atomic) and are admitted back to back, with no event-loop turn between them.
   */
  send(...records: (object | string | Buffer)[]): void {
    const parts = records.map((record) =>
      Buffer.isBuffer(record) ? record : Buffer.from(`${typeof record === "string" ? record : JSON.stringify(record)}\n`),
    );
    this.child.stdin.write(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  }

  request(id: string, method: string, params?: object): void {
    this.send(params === undefined ? { version: 1, id, method } : { version: 1, id, method, params });
  }

  /** Sends a request and resolves with its correlated response. */
  async call(id: string, method: string, params?: object, timeoutMs = 15000): Promise<any> {
    this.request(id, method, params);
    return this.waitFor((f) => f.type === "response" && f.id === id, timeoutMs);
  }

  async waitFor(predicate: (frame: any) => boolean, timeoutMs = 15000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (let seen = 0; ; ) {
      for (; seen < this.frames.length; seen++) if (predicate(this.frames[seen])) return this.frames[seen];
      if (Date.now() > deadline) throw new Error(`timed out; frames so far:\n${this.frames.map((f) => JSON.stringify(f).slice(0, 300)).join("\n")}\nstderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Resolves once stderr contains `text`. */
  async waitForStderr(text: string, timeoutMs = 15000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)} on stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  events(type?: string): any[] {
    return this.frames.filter((f) => f.type === "session_event" && (type === undefined || f.event.type === type)).map((f) => f.event);
  }

  /** Closes stdin and waits for the exit; asserts the frame stream stayed well-formed. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const exit = await this.exited;
    this.assertWellFormed();
    return exit;
  }

  assertWellFormed(): void {
    if (this.pending.length > 0) this.problems.push(`unterminated stdout tail: ${this.pending.toString().slice(0, 200)}`);
    if (this.problems.length > 0) throw new Error(`malformed protocol output:\n${this.problems.join("\n")}`);
  }

  readJson(path: string): unknown {
    return JSON.parse(readFileSync(path, "utf8"));
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutBytes += chunk.length;
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10)) {
      const line = data.subarray(0, nl).toString("utf8");
      data = data.subarray(nl + 1);
      let frame: any;
      try {
        frame = JSON.parse(line);
      } catch {
        this.problems.push(`not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      if (frame.version !== 1) this.problems.push(`bad version: ${line.slice(0, 200)}`);
      if (frame.sequence !== this.frames.length + 1) this.problems.push(`sequence ${frame.sequence} after ${this.frames.length}`);
      this.frames.push(frame);
    }
    this.pending = Buffer.from(data);
    for (const wake of this.waiters.splice(0)) wake();
  }
}
