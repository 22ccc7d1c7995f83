import { describe, expect, it } from "@jest/globals";
import { EventQueue } from "../../client/event-queue.js";

describe("EventQueue", () => {
  it("hands out buffered items before the end, then the error once, then done", async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.end(new Error("broken"));
    queue.push(3); // after the end: dropped
    expect(await queue.next()).toEqual({ value: 1, done: false });
    expect(await queue.next()).toEqual({ value: 2, done: false });
    await expect(queue.next()).rejects.toThrow("broken");
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it("wakes a waiting reader and ends it cleanly", async () => {
    const queue = new EventQueue<string>();
    const first = queue.next();
    queue.push("a");
    expect(await first).toEqual({ value: "a", done: false });
    const second = queue.next();
    queue.end();
    expect(await second).toEqual({ value: undefined, done: true });
  });

  it("unsubscribes on break and drops what it buffered", async () => {
    let returned = 0;
    const queue = new EventQueue<number>(() => returned++);
    for (let i = 0; i < 3000; i++) queue.push(i);
    const seen: number[] = [];
    for await (const item of queue) {
      seen.push(item);
      if (item === 2000) break;
    }
    expect(seen).toHaveLength(2001);
    expect(returned).toBe(1);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });
});
