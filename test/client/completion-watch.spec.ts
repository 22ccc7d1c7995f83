import { describe, expect, it } from "@jest/globals";
import { CompletionWatch, type CompletionWatchPort } from "../../client/completion-watch.js";
import type { CompletionObservation, PromptResult } from "../../client/protocol-types.js";

/** Answers prompts and idle watches from scripted queues and records the calls in order. */
class ScriptedPort implements CompletionWatchPort {
  readonly calls: string[] = [];
  constructor(
    private readonly prompts: PromptResult[],
    private readonly idles: CompletionObservation[],
  ) {}
  async prompt(params: { delivery: string; completionId: string }) {
    this.calls.push(`prompt:${params.delivery}:${params.completionId}`);
    return this.prompts.shift()!;
  }
  async awaitIdle(params: { completionId: string }) {
    this.calls.push(`await_idle:${params.completionId}`);
    return this.idles.shift()!;
  }
  async interrupt() {
    this.calls.push("interrupt");
    return {};
  }
}

const observed = (completionRevision: number, text: string | null): CompletionObservation => ({
  completionId: "c",
  completionRevision,
  messageCount: 2 * completionRevision,
  completion: text === null ? null : { text, textTruncated: false, stopReason: "stop" },
});

describe("CompletionWatch", () => {
  it("issues another idle watch while the observed revision is older than the newest admission", async () => {
    const port = new ScriptedPort(
      [{ delivery: "direct", admission: "started", completionRevision: 1 }, { delivery: "continue", admission: "started", completionRevision: 2 }],
      [observed(1, "early"), observed(2, "late")],
    );
    const watch = new CompletionWatch(port, "c");
    await watch.prompt("one");
    await watch.prompt("", "continue");
    const settled = await watch.settle();
    expect(settled).toMatchObject({ completionRevision: 2, completion: { text: "late" }, interrupted: false });
    expect(port.calls).toEqual(["prompt:direct:c", "prompt:continue:c", "await_idle:c", "await_idle:c"]);
  });

  it("accepts the first observation at or past the newest admission", async () => {
    const port = new ScriptedPort([{ delivery: "direct", admission: "started", completionRevision: 3 }], [observed(4, "x")]);
    const watch = new CompletionWatch(port, "c");
    await watch.prompt("one");
    expect(watch.revision).toBe(3);
    expect((await watch.settle()).completionRevision).toBe(4);
    expect(port.calls.filter((call) => call.startsWith("await_idle"))).toHaveLength(1);
  });

  it("keeps the highest admission revision when a queued admission reports an older one", async () => {
    const port = new ScriptedPort(
      [{ delivery: "direct", admission: "started", completionRevision: 2 }, { delivery: "steer", admission: "queued", completionRevision: 2 }],
      [observed(2, "done")],
    );
    const watch = new CompletionWatch(port, "c");
    await watch.prompt("one");
    await watch.prompt("later", "steer");
    expect(watch.revision).toBe(2);
    expect((await watch.settle()).completion?.text).toBe("done");
  });

  it("interrupts once when the budget is already spent and reports the settlement", async () => {
    const port = new ScriptedPort([], [observed(0, null)]);
    const settled = await new CompletionWatch(port, "c").settle({ signal: AbortSignal.abort() });
    expect(settled.interrupted).toBe(true);
    expect(port.calls).toEqual(["interrupt", "await_idle:c"]);
  });
});
