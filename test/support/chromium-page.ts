import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { CHROMIUM } from "./headless-chromium.js";

interface CdpMessage {
  id?: number;
  method?: string;
  params?: any;
  result?: any;
  error?: { message: string };
  sessionId?: string;
}

export interface PageVisit {
  /** Every request the page made (its own file:// load and inline data: URLs excluded: they fetch nothing). */
  requests: string[];
  /** Console calls, uncaught exceptions and log entries of level warning or error (CSP refusals among them). */
  problems: string[];
  /** From navigation to the load event, in ms (chromium's own timestamps). */
  loadMs: number;
  evaluate(expression: string): Promise<unknown>;
  screenshot(width: number, height: number): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Debian's chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: fd 3 in,
 * fd 4 out, NUL-separated JSON), no puppeteer: opens a local file and records what the page requested
 * and complained about.
 */
export async function visit(file: string): Promise<PageVisit> {
  const profile = mkdtempSync(join(tmpdir(), "zi-cdp-"));
  const child: ChildProcess = spawn(
    CHROMIUM,
    ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-extensions", `--user-data-dir=${profile}`, "--remote-debugging-pipe", "about:blank"],
    { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
  );
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const waiting = new Map<number, (message: CdpMessage) => void>();
  const listeners: ((message: CdpMessage) => void)[] = [];
  let buffered = Buffer.alloc(0);
  output.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (let end = buffered.indexOf(0); end !== -1; end = buffered.indexOf(0)) {
      const message = JSON.parse(buffered.subarray(0, end).toString("utf8")) as CdpMessage;
      buffered = buffered.subarray(end + 1);
      if (message.id !== undefined) waiting.get(message.id)?.(message);
      else for (const listener of listeners) listener(message);
    }
  });
  let nextId = 0;
  const send = (method: string, params: object = {}, sessionId?: string): Promise<any> => {
    const id = ++nextId;
    input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return new Promise((resolve, reject) =>
      waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result))),
    );
  };
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const requests: string[] = [];
  const problems: string[] = [];
  const url = `file://${file}`;
  let navigatedAt = 0;
  let loadedAt = 0;
  const loaded = new Promise<void>((resolve) =>
    listeners.push((message) => {
      if (message.sessionId !== sessionId) return;
      const params = message.params;
      if (message.method === "Network.requestWillBeSent" && params.request.url !== url && !params.request.url.startsWith("data:")) requests.push(params.request.url);
      if (message.method === "Runtime.consoleAPICalled") problems.push(`console.${params.type}: ${JSON.stringify(params.args)}`);
      if (message.method === "Runtime.exceptionThrown") problems.push(`exception: ${params.exceptionDetails.text}`);
      if (message.method === "Log.entryAdded" && (params.entry.level === "error" || params.entry.level === "warning")) problems.push(`log: ${params.entry.text}`);
      if (message.method === "Page.frameStartedLoading" && navigatedAt === 0) navigatedAt = performance.now();
      if (message.method === "Page.loadEventFired") {
        loadedAt = performance.now();
        resolve();
      }
    }),
  );
  for (const domain of ["Runtime", "Log", "Network", "Page"]) await send(`${domain}.enable`, {}, sessionId);
  const started = performance.now();
  await send("Page.navigate", { url }, sessionId);
  await loaded;
  return {
    requests,
    problems,
    loadMs: loadedAt - (navigatedAt || started),
    async evaluate(expression) {
      const { result, exceptionDetails } = await send("Runtime.evaluate", { expression, returnByValue: true }, sessionId);
      if (exceptionDetails) throw new Error(exceptionDetails.text);
      return result.value;
    },
    async screenshot(width, height) {
      await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
      const { data } = await send("Page.captureScreenshot", { format: "png" }, sessionId);
      return Buffer.from(data, "base64");
    },
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await send("Browser.close").catch(() => undefined);
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
