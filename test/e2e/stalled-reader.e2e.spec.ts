import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { runStalledReader } from "../support/stalled-reader.js";

// Issue 9, finding 1: a client that stops reading during a long reply of one-token deltas must cost
// Zi the reply's text, not its number of deltas (docs/protocol.md: a stalled client stalls its session).
const TEXT_BYTES = 8 * 1024 * 1024;
const PAUSE_MS = 10_000;
const MiB = 1024 * 1024;
const TEXT = "abcdefghijklmnopqrstuvwxyz0123456789 ".repeat(Math.ceil(TEXT_BYTES / 37)).slice(0, TEXT_BYTES);
const BOUND_MIB = 64 + (3 * TEXT_BYTES) / MiB;

const homes: string[] = [];
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "zi-e2e-stalled-"));
  homes.push(dir);
  return dir;
}

describe("a stalled reader during an 8 MB reply of one-token deltas", () => {
  it("faux/scripted: RSS stays within idle + 64 MiB + 3x the text, and the rebuilt text is exact, under --max-old-space-size=160", async () => {
    const dir = home();
    const script = join(dir, "script.json");
    writeFileSync(script, JSON.stringify({ responses: [{ text: TEXT, tokensPerSecond: 1_000_000 }] }));
    const run = await runStalledReader({
      home: dir,
      args: ["--mode", "rpc", "--no-session", "--faux-script", script],
      nodeArgs: ["--max-old-space-size=160"],
      model: { provider: "faux", id: "scripted" },
      pauseMs: PAUSE_MS,
    });
    expect(run.peakMiB - run.idleMiB).toBeLessThanOrEqual(BOUND_MIB);
    expect(run.rebuilt.length).toBe(TEXT.length);
    expect(run.rebuilt === TEXT).toBe(true);
    expect(run.finalText === TEXT).toBe(true);
    expect(run).toMatchObject({ sequenceOk: true, awaitIdleOk: true, exitCode: 0 });
  }, 120_000);

  it("an OpenAI-compatible SSE server: Zi stops reading the body while stalled, and keeps the same bounds", async () => {
    const server = new OpenAICompatibleServer();
    servers.push(server);
    const baseUrl = await server.start();
    const dir = home();
    writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { local: { baseUrl, noAuth: true, models: [{ id: "m1" }] } } }));
    // 64-character deltas: pi-ai's OpenAI path costs about 50 µs per SSE record, so 2M one-token records
    // would take minutes; 131,072 records still exercise the read gate and the same bounds.
    server.enqueue({ type: "paced_text", text: TEXT, deltaChars: 64 });
    let streamedAtPause = 0;
    let streamedAtResume = 0;
    const run = await runStalledReader({
      home: dir,
      args: ["--mode", "rpc", "--no-session"],
      nodeArgs: ["--max-old-space-size=160"],
      model: { provider: "local", id: "m1" },
      pauseMs: PAUSE_MS,
      onPause: () => (streamedAtPause = server.streamedBytes),
      onResume: () => (streamedAtResume = server.streamedBytes),
    });
    expect(run.peakMiB - run.idleMiB).toBeLessThanOrEqual(BOUND_MIB);
    // The whole body is about 17 MB of SSE records; while the client read nothing, Zi read at most its
    // read-ahead (256 Ki characters of deltas, about 0.5 MB of records) plus what the socket buffers hold.
    expect(streamedAtResume).toBeLessThan(server.streamedBytes / 2);
    expect(streamedAtResume).toBeGreaterThanOrEqual(streamedAtPause);
    expect(run.rebuilt === TEXT).toBe(true);
    expect(run.finalText === TEXT).toBe(true);
    expect(run).toMatchObject({ sequenceOk: true, awaitIdleOk: true, exitCode: 0 });
  }, 180_000);
});
