import { describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import { BufferedModelStream, COALESCE_BACKLOG_EVENTS, READ_AHEAD_CHARS } from "../../../core/models/buffered-model-stream.js";
import { ReadGate } from "../../../core/models/read-gate.js";

const loadPiAi = () => import("@mariozechner/pi-ai");

function delta(i: number): PiAi.AssistantMessageEvent {
  return { type: "text_delta", contentIndex: 0, delta: `d${i}`, partial: {} as PiAi.AssistantMessage };
}

describe("BufferedModelStream", () => {
  it("delivers every delta in order to a consumer that falls far behind, coalescing those that waited", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const buffered = new BufferedModelStream(source);
    const final = piAi.fauxAssistantMessage("done");
    for (let i = 0; i < 5000; i++) source.push(delta(i));
    source.push({ type: "done", reason: "stop", message: final });
    source.end();
    await new Promise((resolve) => setImmediate(resolve)); // the whole reply is buffered before the consumer starts
    const seen: string[] = [];
    for await (const event of buffered) {
      if (event.type === "text_delta") seen.push(event.delta);
      if (seen.length % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const all = Array.from({ length: 5000 }, (_, i) => `d${i}`);
    expect(seen.join("")).toBe(all.join(""));
    // The first deltas pass one by one; those that queued behind COALESCE_BACKLOG_EVENTS others merge.
    expect(seen.slice(0, COALESCE_BACKLOG_EVENTS)).toEqual(all.slice(0, COALESCE_BACKLOG_EVENTS));
    expect(seen.length).toBe(COALESCE_BACKLOG_EVENTS + 1);
    expect(await buffered.result()).toBe(final);
  });

  it("never merges deltas of different content blocks or kinds", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const buffered = new BufferedModelStream(source);
    for (let i = 0; i < COALESCE_BACKLOG_EVENTS; i++) source.push(delta(i));
    source.push({ type: "text_delta", contentIndex: 0, delta: "a", partial: {} as PiAi.AssistantMessage });
    source.push({ type: "text_delta", contentIndex: 0, delta: "b", partial: {} as PiAi.AssistantMessage });
    source.push({ type: "thinking_delta", contentIndex: 0, delta: "t", partial: {} as PiAi.AssistantMessage });
    source.push({ type: "text_delta", contentIndex: 1, delta: "c", partial: {} as PiAi.AssistantMessage });
    source.push({ type: "text_delta", contentIndex: 1, delta: "d", partial: {} as PiAi.AssistantMessage });
    source.end(piAi.fauxAssistantMessage("x"));
    await new Promise((resolve) => setImmediate(resolve));
    const tail: string[] = [];
    let index = 0;
    for await (const event of buffered) {
      if (index++ >= COALESCE_BACKLOG_EVENTS && "delta" in event) tail.push(`${event.type}/${event.contentIndex}/${event.delta}`);
    }
    expect(tail).toEqual(["text_delta/0/ab", "thinking_delta/0/t", "text_delta/1/cd"]);
  });

  it("closes the read gate while READ_AHEAD_CHARS of deltas wait, and reopens it as the consumer catches up", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const gate = new ReadGate();
    const buffered = new BufferedModelStream(source, gate);
    const chunk = "x".repeat(64 * 1024);
    for (let i = 0; i < READ_AHEAD_CHARS / chunk.length; i++) {
      source.push({ type: "text_delta", contentIndex: 0, delta: chunk, partial: {} as PiAi.AssistantMessage });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.wait()).toBeInstanceOf(Promise);
    const iterator = buffered[Symbol.asyncIterator]();
    await iterator.next();
    expect(gate.wait()).toBeUndefined();
    source.end(piAi.fauxAssistantMessage("x"));
    await iterator.return?.();
  });

  it("never holds the provider back for a caller that only awaits result() (the compactor)", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const gate = new ReadGate();
    const buffered = new BufferedModelStream(source, gate);
    source.push({ type: "text_delta", contentIndex: 0, delta: "x".repeat(READ_AHEAD_CHARS), partial: {} as PiAi.AssistantMessage });
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.wait()).toBeInstanceOf(Promise);
    const result = buffered.result();
    expect(gate.wait()).toBeUndefined();
    const final = piAi.fauxAssistantMessage("done");
    source.push({ type: "done", reason: "stop", message: final });
    expect(await result).toBe(final);
  });

  it("waits for events that arrive later", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const buffered = new BufferedModelStream(source);
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const event of buffered) if (event.type === "text_delta") seen.push(event.delta);
    })();
    source.push(delta(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    source.push(delta(2));
    source.end(piAi.fauxAssistantMessage("x"));
    await consumer;
    expect(seen).toEqual(["d1", "d2"]);
  });

  it("rethrows a failure of the source after the events before it", async () => {
    const failing: PiAi.AssistantMessageEventStream = {
      async *[Symbol.asyncIterator]() {
        yield delta(1);
        throw new Error("socket closed");
      },
      result: () => Promise.reject(new Error("no result")),
    } as unknown as PiAi.AssistantMessageEventStream;
    const buffered = new BufferedModelStream(failing);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of buffered) if (event.type === "text_delta") seen.push(event.delta);
      })(),
    ).rejects.toThrow("socket closed");
    expect(seen).toEqual(["d1"]);
    await expect(buffered.result()).rejects.toThrow("no result");
  });

  it("hands waiting events out one by one with take(), and arrival() says when more wait or the stream has ended", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const buffered = new BufferedModelStream(source);
    expect(buffered.take()).toBeUndefined();
    const arrived = buffered.arrival();
    source.push(delta(1));
    source.push(delta(2));
    expect(await arrived).toBe(true);
    const taken: string[] = [];
    while (taken.length < 2) {
      const event = buffered.take();
      if (event === undefined) expect(await buffered.arrival()).toBe(true);
      else if (event.type === "text_delta") taken.push(event.delta);
    }
    expect(taken).toEqual(["d1", "d2"]);
    expect(buffered.take()).toBeUndefined();
    const ended = buffered.arrival();
    source.end(piAi.fauxAssistantMessage("x"));
    expect(await ended).toBe(false);
  });

  it("lets settle amend the final message once, before a consumer or result() sees it", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const settled: PiAi.AssistantMessage[] = [];
    const buffered = new BufferedModelStream(source, new ReadGate(), (message) => {
      settled.push(message);
      message.errorMessage = "[scrubbed]";
    });
    const failed: PiAi.AssistantMessage = { ...piAi.fauxAssistantMessage(""), stopReason: "error", errorMessage: "key sk-secret leaked" };
    source.push({ type: "error", reason: "error", error: failed });
    source.end(failed);
    const seen: PiAi.AssistantMessageEvent[] = [];
    for await (const event of buffered) seen.push(event);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.type === "error" && seen[0]!.error.errorMessage).toBe("[scrubbed]");
    expect((await buffered.result()).errorMessage).toBe("[scrubbed]");
    expect(settled).toEqual([failed]);
  });

  it("delivers the events of a pi-ai stream that had events queued before it was buffered, then those pushed later", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    source.push(delta(1));
    const buffered = new BufferedModelStream(source);
    source.push(delta(2));
    const final = piAi.fauxAssistantMessage("done");
    source.push({ type: "done", reason: "stop", message: final });
    source.end();
    const seen: string[] = [];
    for await (const event of buffered) seen.push(event.type === "text_delta" ? event.delta : event.type);
    expect(seen).toEqual(["d1", "d2", "done"]);
    expect(await buffered.result()).toBe(final);
  });
});
