/**
 * Keeps the first `limit` items in sort order out of a stream that arrives in any order, in memory
 * bounded by a few times `limit`, and counts everything offered.
 */
export class SortedBest<T> {
  private items: T[] = [];
  total = 0;

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  add(item: T): void {
    this.total++;
    this.items.push(item);
    if (this.items.length >= 4 * this.limit + 64) this.trim();
  }

  /** The first `limit` items, sorted. */
  take(): T[] {
    this.trim();
    return this.items;
  }

  private trim(): void {
    this.items.sort(this.compare);
    if (this.items.length > this.limit) this.items.length = this.limit;
  }
}
