import { ZiRpcError } from "./zi-rpc-error.js";

export interface Page<T> {
  start: number;
  total: number;
  nextStart: number | null;
  items: T[];
}

export interface PagerOptions {
  /** Items per request, 1..100 (Zi's maximum is the default). */
  pageSize?: number;
  /** How many times a walk may start over before the pager gives up. */
  maxRestarts?: number;
  /** Told when the walk starts over from index 0: items already yielded will come again. */
  onRestart?: () => void;
}

/**
 * Walks an indexed list (`session.get_messages`, `session.get_outcomes`) by following `nextStart` until
 * it is null, yielding items as pages arrive. It retains the `total` of each page: Zi's transcript and
 * outcome list only grow, so a growing total is followed to the new end, while a shrinking total, a
 * page that does not start where the last one ended, or items whose `index` does not run on means the
 * list was rewritten under the walk: it starts over from 0 (items carry their `index`, so a consumer
 * keyed by index simply overwrites).
 */
export class JournalPager<T extends { index: number }> {
  constructor(
    private readonly fetch: (start: number, limit: number) => Promise<Page<T>>,
    private readonly options: PagerOptions = {},
  ) {}

  async *items(): AsyncGenerator<T, void, undefined> {
    const limit = this.options.pageSize ?? 100;
    const maxRestarts = this.options.maxRestarts ?? 3;
    for (let restarts = 0; ; restarts++) {
      if (restarts > maxRestarts) {
        throw new ZiRpcError("operation_failed", `the list kept changing while paging (${maxRestarts} restarts)`, "no", "client");
      }
      if (restarts > 0) this.options.onRestart?.();
      if (yield* this.walk(limit)) return;
    }
  }

  /** One walk from 0; returns false when the list was rewritten under it. */
  private async *walk(limit: number): AsyncGenerator<T, boolean, undefined> {
    let total = 0;
    for (let start: number | null = 0; start !== null; ) {
      const page = await this.fetch(start, limit);
      const runsOn = page.start === start && page.items.every((item, i) => item.index === start! + i);
      if (!runsOn || page.total < total) return false;
      // An empty page that is not the last would never advance: treat it like a rewrite.
      if (page.nextStart !== null && (page.items.length === 0 || page.nextStart !== start + page.items.length)) return false;
      total = page.total;
      yield* page.items;
      start = page.nextStart;
    }
    return true;
  }
}
