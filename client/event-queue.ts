/**
 * An async iterator fed by pushes: what `ZiClient.events()` returns. Items are buffered from the moment
 * the iterator was created until they are read, so nothing between two `next()` calls is lost. The
 * buffer is unbounded: an iterator nobody reads must be ended with `return()` (a `break` out of
 * `for await` does it), or it keeps every event.
 */
export class EventQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private head = 0;
  private waiter: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | undefined;
  private done = false;
  private failure: unknown;

  constructor(private readonly onReturn: () => void = () => {}) {}

  push(item: T): void {
    if (this.done) return;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter.resolve({ value: item, done: false });
    } else {
      this.buffer.push(item);
    }
  }

  /** Ends the iteration once the buffer is read; with `error`, the last `next()` rejects with it. */
  end(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failure = error;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      this.settleEnd(waiter);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.buffer.length) {
      const value = this.buffer[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.buffer.length) this.compact();
      return Promise.resolve({ value, done: false });
    }
    if (this.done) return new Promise((resolve, reject) => this.settleEnd({ resolve, reject }));
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.buffer.length = 0;
    this.head = 0;
    this.failure = undefined;
    this.end();
    this.onReturn();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private settleEnd(waiter: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void }): void {
    if (this.failure === undefined) return waiter.resolve({ value: undefined, done: true });
    const failure = this.failure;
    this.failure = undefined; // reported once; later next() calls just say done
    waiter.reject(failure);
  }

  private compact(): void {
    this.buffer.splice(0, this.head);
    this.head = 0;
  }
}
