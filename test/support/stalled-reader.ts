import { spawn } from "node:child_process";
import { memoryOf, sleep } from "./tool-processes.js";
import { ZI_BIN } from "./zi-process.js";

export interface StalledReaderRun {
  /** Zi's RSS (MiB) once `ready` was read and the process had settled. */
  idleMiB: number;
  /** The highest RSS (MiB) sampled while the client read nothing. */
  peakMiB: number;
  /** What the client rebuilt from the `text_delta` deltas, and the final `message_end` text. */
  rebuilt: string;
  finalText: string | undefined;
  deltaFrames: number;
  sequenceOk: boolean;
  awaitIdleOk: boolean;
  exitCode: number | null;
}

export interface StalledReaderOptions {
  home: string;
  args: string[];
  nodeArgs?: string[];
  model: { provider: string; id: string };
  pauseMs: number;
  /** Called once the client has stopped reading, and again just before it resumes. */
  onPause?: () => void;
  onResume?: () => void;
}

const rssMiB = (pid: number): number => memoryOf(pid).rss / (1024 * 1024);

/**
 * A client that stops reading Zi's stdout as soon as the reply's first delta arrives, samples Zi's RSS
 * while it reads nothing, then reads everything. Frames are parsed one by one and only the deltas
 * are kept, so the client's own memory stays small.
 */
export async function runStalledReader(options: StalledReaderOptions): Promise<StalledReaderRun> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ZI_BIN, ...options.args], {
    cwd: options.home,
    env: { PATH: process.env.PATH ?? "", HOME: options.home, ZI_HOME: options.home },
  });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const deltas: string[] = [];
  let finalText: string | undefined;
  let expected = 1;
  let sequenceOk = true;
  let awaitIdleOk = false;
  let carry = "";
  let watch: ((frame: any) => boolean) | undefined;
  let resolveWatch: (() => void) | undefined;
  const until = (predicate: (frame: any) => boolean) =>
    new Promise<void>((resolve) => {
      watch = predicate;
      resolveWatch = resolve;
    });
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    const lines = (carry + chunk).split("\n");
    carry = lines.pop()!;
    for (const line of lines) {
      const frame = JSON.parse(line);
      if (frame.sequence !== expected++) sequenceOk = false;
      const event = frame.type === "session_event" ? frame.event : undefined;
      if (event?.type === "message_update" && event.assistantMessageEvent.type === "text_delta") deltas.push(event.assistantMessageEvent.delta);
      if (event?.type === "message_end" && event.message.role === "assistant") {
        finalText = event.message.content.filter((block: any) => block.type === "text").map((block: any) => block.text).join("");
      }
      if (frame.type === "response" && frame.id === "w") awaitIdleOk = frame.ok === true && frame.result?.completion?.stopReason === "stop";
      if (watch?.(frame)) {
        watch = undefined;
        resolveWatch!();
      }
    }
  });
  const send = (record: object) => child.stdin.write(`${JSON.stringify({ version: 1, ...record })}\n`);
  try {
    await until((frame) => frame.type === "ready");
    await sleep(300);
    const idleMiB = rssMiB(child.pid!);
    let next = until((frame) => frame.type === "response" && frame.id === "m");
    send({ id: "m", method: "model.select", params: options.model });
    await next;
    next = until((frame) => frame.type === "session_event" && frame.event.type === "message_update");
    send({ id: "p", method: "session.prompt", params: { delivery: "direct", text: "go", completionId: "c" } });
    send({ id: "w", method: "session.await_idle", params: { completionId: "c" } });
    await next;
    child.stdout.pause();
    options.onPause?.();
    let peakMiB = rssMiB(child.pid!);
    for (const end = Date.now() + options.pauseMs; Date.now() < end; ) {
      await sleep(100);
      peakMiB = Math.max(peakMiB, rssMiB(child.pid!));
    }
    options.onResume?.();
    next = until((frame) => frame.type === "response" && frame.id === "w");
    child.stdout.resume();
    await next;
    child.stdin.end();
    const exitCode = await exited;
    return { idleMiB, peakMiB, rebuilt: deltas.join(""), finalText, deltaFrames: deltas.length, sequenceOk, awaitIdleOk, exitCode };
  } finally {
    child.kill("SIGKILL");
  }
}
