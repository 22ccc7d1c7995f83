import { describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import { BufferedModelStream } from "../../../core/models/buffered-model-stream.js";

const loadPiAi = () => import("@mariozechner/pi-ai");

function delta(i: number): PiAi.AssistantMessageEvent {
  return { type: "text_delta", contentIndex: 0, delta: `d${i}`, partial: {} as PiAi.AssistantMessage };
}

describe("BufferedModelStream", () => {
  it("delivers every event in order to a consumer that falls far behind, then the result", async () => {
    const piAi = await loadPiAi();
    const source = piAi.createAssistantMessageEventStream();
    const buffered = new BufferedModelStream(source);
    const final = piAi.fauxAssistantMessage("done");
    for (let i = 0; i < 5000; i++) source.push(delta(i));
    source.push({ type: "done", reason: "stop", message: final });
    source.end();
    const seen: string[] = [];
    for await (const event of buffered) {
      if (event.type === "text_delta") seen.push(event.delta);
      if (seen.length % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => `d${i}`));
    expect(await buffered.result()).toBe(final);
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
});
