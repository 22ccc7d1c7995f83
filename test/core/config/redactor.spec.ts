import { describe, expect, it } from "@jest/globals";
import { Redactor } from "../../../core/config/redactor.js";

const KEY = "sk-test-0123456789abcdefghijklmnop";

describe("Redactor: one set of secrets for the process", () => {
  it("scrubs plain text, JSON text, and every source's secrets", () => {
    const redactor = new Redactor();
    redactor.add(KEY);
    redactor.add("short");
    expect(redactor.redact(`key ${KEY} and short`)).toBe("key [redacted] and [redacted]");
    // JSON text: only secrets long enough not to rewrite protocol text.
    expect(redactor.redactJson(JSON.stringify({ text: `${KEY} short` }))).toBe('{"text":"[redacted] short"}');
  });

  it("holds back a streamed tail until it cannot start a secret: joined deltas hold no key, whatever the split", () => {
    const redactor = new Redactor();
    redactor.add(KEY);
    const text = `the key is ${KEY}, and ${KEY.slice(0, 10)} is not one.`;
    for (let size = 1; size <= text.length; size += 3) {
      const scrubber = redactor.stream();
      let joined = "";
      for (let at = 0; at < text.length; at += size) joined += scrubber.push(text.slice(at, at + size));
      joined += scrubber.end();
      expect(joined).toBe(`the key is [redacted], and ${KEY.slice(0, 10)} is not one.`);
    }
  });

  it("passes a stream through untouched while no secret is known", () => {
    const scrubber = new Redactor().stream();
    expect(scrubber.push("sk-")).toBe("sk-");
    expect(scrubber.end()).toBe("");
  });
});
