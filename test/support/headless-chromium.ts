import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CHROMIUM = process.env.CHROMIUM_BIN ?? "chromium";

/**
 * Debian's chromium, headless, on a local file: `--dump-dom` prints the DOM after the page loaded and
 * its scripts (if any could run) ran; stderr carries chromium's own log, console messages included
 * (`--enable-logging=stderr`).
 */
export function dumpDom(file: string, extra: string[] = []): Promise<{ code: number | null; dom: string; log: string }> {
  const profile = mkdtempSync(join(tmpdir(), "zi-chromium-"));
  return new Promise((resolve, reject) => {
    const child = spawn(CHROMIUM, [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--enable-logging=stderr",
      "--v=0",
      `--user-data-dir=${profile}`,
      ...extra,
      "--dump-dom",
      `file://${file}`,
    ]);
    let dom = "";
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (dom += chunk));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      rmSync(profile, { recursive: true, force: true });
      resolve({ code, dom, log });
    });
  });
}
