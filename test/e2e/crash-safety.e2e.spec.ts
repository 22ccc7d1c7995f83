import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FUZZ_SEED } from "../support/fuzz-records.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const KILLS = 6;

/** mulberry32: a small seeded generator, so a failing kill sequence reruns with the same ZI_FUZZ_SEED. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Streaming replies with tool calls (file writes, plan updates, reads), so kills land in every phase of a run. */
function script(round: number): object {
  // Paced at 200 tokens/s, so that the frames of a run arrive spread out.
  const talk = (text: string) => ({ text: text.repeat(6), tokensPerSecond: 200 });
  return {
    responses: [
      {
        ...talk(`r${round} plan `),
        toolCalls: [
          { name: "write", arguments: { path: `notes/r${round}.txt`, content: `round ${round}\n`.repeat(50) } },
          { name: "update_plan", arguments: { steps: [{ title: `round ${round}`, status: "in_progress" }] } },
        ],
      },
      { ...talk(`r${round} check `), toolCalls: [{ name: "read", arguments: { path: `notes/r${round}.txt` } }] },
      talk(`r${round} done `),
    ],
  };
}

/** The journal's complete lines, parsed; at most the last line may be torn by the kill. */
function journalEntries(file: string): { entries: any[]; tornTail: boolean } {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const tail = lines.pop()!;
  const entries = lines.map((line, index) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`journal line ${index + 1} of ${lines.length} is damaged: ${line.slice(0, 200)}`);
    }
  });
  return { entries, tornTail: tail.length > 0 };
}

describe("crash safety: SIGKILL at random points of streaming runs with tool calls", () => {
  it(`keeps every entry whose entry_appended was read, over ${KILLS} kills and resumes (ZI_FUZZ_SEED=${FUZZ_SEED})`, async () => {
    const random = seededRandom(FUZZ_SEED);
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-crash-"));
    const project = mkdtempSync(join(tmpdir(), "zi-e2e-crash-project-"));
    mkdirSync(join(home, "sessions"), { recursive: true });
    const seen = new Map<string, unknown>();
    let file: string | undefined;
    for (let round = 0; round < KILLS; round++) {
      const args = file === undefined ? ["--mode", "rpc"] : ["--mode", "rpc", "--session", file];
      const zi = new ZiProcess({ ziHome: home, cwd: project, args, fauxScript: script(round) });
      const ready = await zi.waitFor((f) => f.type === "ready");
      // Resuming reads the journal back: every entry seen so far is there, as it was announced.
      if (file !== undefined) {
        const messages = [...seen.values()].filter((entry: any) => entry.type === "message").length;
        expect(ready.state.messageCount).toBeGreaterThanOrEqual(messages);
      }
      await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
      await zi.call("p", "session.prompt", { delivery: "direct", text: `round ${round}` });
      // Kill after a random number of the run's entries (it appends about 8) and a few frames more, so kills
      // land in every phase: streaming, between a tool call and its result, between turns, after the end.
      const from = zi.frames.length;
      const killEntries = 1 + Math.floor(random() * 9);
      const extra = Math.floor(random() * 4);
      const ended = (f: any) => f.type === "session_event" && f.event.type === "agent_end";
      const appended = () => zi.frames.slice(from).filter((f) => f.type === "session_event" && f.event.type === "entry_appended").length;
      const reached = await zi.waitFor((f) => ended(f) || appended() >= killEntries, 60_000);
      const killAfter = zi.frames.indexOf(reached) + 1 + extra;
      await zi.waitFor((f) => ended(f) || zi.frames.length >= killAfter, 60_000);
      zi.child.kill("SIGKILL");
      const read = zi.frames.slice();
      await zi.exited;
      for (const frame of read) {
        if (frame.type === "session_event" && frame.event.type === "entry_appended") seen.set(frame.event.entry.id, frame.event.entry);
      }
      zi.assertWellFormed();

      file ??= join(home, "sessions", readdirSync(join(home, "sessions")).find((name) => name.endsWith(".jsonl"))!);
      const { entries } = journalEntries(file);
      const onDisk = new Map(entries.map((entry) => [entry.id, entry]));
      for (const [id, entry] of seen) expect(onDisk.get(id)).toEqual(entry);
      // The journal is one chain: each entry's parent is the entry before it.
      entries.slice(1).forEach((entry, index) => expect(entry.parentId).toBe(entries[index]!.id));
    }
    // The last resume must open the journal and page every message without a warning about damage.
    const last = new ZiProcess({ ziHome: home, cwd: project, args: ["--mode", "rpc", "--session", file!] });
    const ready = await last.waitFor((f) => f.type === "ready");
    const page = (await last.call("g", "session.get_messages", { limit: 100 })).result;
    expect(page.total).toBe(ready.state.messageCount);
    expect(last.stderr).not.toMatch(/malformed|damaged/);
    expect((await last.close()).code).toBe(0);
    expect(seen.size).toBeGreaterThan(KILLS);
  }, 180_000);
});
