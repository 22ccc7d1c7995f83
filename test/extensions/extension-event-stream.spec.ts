import { describe, expect, it } from "@jest/globals";
import { ExtensionEventStream } from "../../core/extensions/extension-event-stream.js";
import { FakeExtensionSession } from "./support/fake-extension-session.js";

describe("ExtensionEventStream", () => {
  it("gives subscribers the session's events and its own, and unsubscribes from both", async () => {
    const session = new FakeExtensionSession();
    const stream = new ExtensionEventStream(session, () => {});
    const seen: string[] = [];
    const off = stream.subscribe((event) => void seen.push(event.type));
    session.emit({ type: "agent_start" });
    await stream.emit({ type: "extension_error", extension: "x", error: "e" });
    off();
    session.emit({ type: "agent_end" });
    await stream.emit({ type: "extension_error", extension: "y", error: "e" });
    expect(seen).toEqual(["agent_start", "extension_error"]);
    expect(session.listenerCount).toBe(0);
  });

  it("keeps its own events in order and resolves emit only once a slow listener accepted the event", async () => {
    const stream = new ExtensionEventStream(new FakeExtensionSession(), () => {});
    const accepted: string[] = [];
    let release!: () => void;
    stream.subscribe((event) => {
      if (event.extension === "first") return new Promise<void>((resolve) => (release = () => (accepted.push("first"), resolve())));
      accepted.push(String(event.extension));
    });
    let firstDone = false;
    const first = stream.emit({ type: "extension_error", extension: "first", error: "e" }).then(() => (firstDone = true));
    const second = stream.emit({ type: "extension_error", extension: "second", error: "e" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(firstDone).toBe(false);
    expect(accepted).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(accepted).toEqual(["first", "second"]);
  });

  it("reports a failing listener and still delivers to the others", async () => {
    const warnings: string[] = [];
    const stream = new ExtensionEventStream(new FakeExtensionSession(), (line) => warnings.push(line));
    const seen: string[] = [];
    stream.subscribe(() => {
      throw new Error("bad listener");
    });
    stream.subscribe(async () => {
      throw new Error("bad async listener");
    });
    stream.subscribe((event) => void seen.push(event.type));
    await stream.emit({ type: "extension_error" });
    expect(seen).toEqual(["extension_error"]);
    expect(warnings).toEqual(["zi: a listener failed on extension_error: bad listener", "zi: a listener failed on extension_error: bad async listener"]);
  });
});
