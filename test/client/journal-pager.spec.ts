import { describe, expect, it } from "@jest/globals";
import { JournalPager, type Page } from "../../client/journal-pager.js";

type Item = { index: number; v: string };

/** A list the test mutates between page requests; records every (start, limit) asked. */
class MutableList {
  items: string[];
  readonly asked: [number, number][] = [];
  onFetch: (call: number) => void = () => {};
  constructor(items: string[]) {
    this.items = items;
  }
  fetch = async (start: number, limit: number): Promise<Page<Item>> => {
    this.asked.push([start, limit]);
    this.onFetch(this.asked.length);
    const slice = this.items.slice(start, start + limit).map((v, i) => ({ index: start + i, v }));
    const next = start + slice.length;
    return { start, total: this.items.length, nextStart: next < this.items.length ? next : null, items: slice };
  };
}

async function collect(iterator: AsyncIterable<Item>): Promise<Item[]> {
  const out: Item[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe("JournalPager", () => {
  it("follows nextStart until null", async () => {
    const list = new MutableList(["a", "b", "c", "d", "e"]);
    const items = await collect(new JournalPager(list.fetch, { pageSize: 2 }).items());
    expect(items.map((item) => item.v)).toEqual(["a", "b", "c", "d", "e"]);
    expect(list.asked).toEqual([[0, 2], [2, 2], [4, 2]]);
  });

  it("follows a list that grows while paging to its new end, without restarting", async () => {
    const list = new MutableList(["a", "b", "c"]);
    list.onFetch = (call) => call === 2 && list.items.push("d", "e");
    let restarts = 0;
    const items = await collect(new JournalPager(list.fetch, { pageSize: 2, onRestart: () => restarts++ }).items());
    expect(items.map((item) => item.v)).toEqual(["a", "b", "c", "d", "e"]);
    expect(restarts).toBe(0);
  });

  it("restarts from 0 when the total shrinks under the walk", async () => {
    const list = new MutableList(["a", "b", "c", "d"]);
    list.onFetch = (call) => {
      if (call === 2) list.items = ["x", "y", "z"];
    };
    let restarts = 0;
    const items = await collect(new JournalPager(list.fetch, { pageSize: 2, onRestart: () => restarts++ }).items());
    expect(restarts).toBe(1);
    expect(items.map((item) => `${item.index}${item.v}`)).toEqual(["0a", "1b", "0x", "1y", "2z"]);
  });

  it("gives up after maxRestarts when the list keeps being rewritten", async () => {
    const list = new MutableList(["a", "b", "c", "d"]);
    list.onFetch = (call) => (list.items = call % 2 === 1 ? ["a", "b", "c", "d"] : ["a", "b", "c"]);
    const walk = collect(new JournalPager(list.fetch, { pageSize: 2, maxRestarts: 2 }).items());
    await expect(walk).rejects.toMatchObject({ code: "operation_failed", source: "client" });
  });

  it("restarts when a page does not start where it was asked to", async () => {
    let call = 0;
    const fetch = async (start: number): Promise<Page<Item>> => {
      call++;
      if (call === 2) return { start: start + 1, total: 3, nextStart: null, items: [{ index: start + 1, v: "?" }] };
      const items = ["a", "b", "c"].slice(start, start + 2).map((v, i) => ({ index: start + i, v }));
      return { start, total: 3, nextStart: start + items.length < 3 ? start + items.length : null, items };
    };
    const items = await collect(new JournalPager(fetch, { pageSize: 2 }).items());
    expect(items.map((item) => item.v)).toEqual(["a", "b", "a", "b", "c"]);
  });
});
