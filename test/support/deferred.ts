/** A promise with its resolve handle, to hold a faux reply or a tool until the test releases it. */
export class Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve!: (value: T) => void;

  constructor() {
    this.promise = new Promise<T>((resolve) => (this.resolve = resolve));
  }
}

/** A faux reply step that signals when the model is called and waits for `release()`. */
export class HeldReply<M> {
  readonly called = new Deferred();
  private readonly gate = new Deferred();

  constructor(private readonly reply: M) {}

  readonly step = async (): Promise<M> => {
    this.called.resolve();
    await this.gate.promise;
    return this.reply;
  };

  release(): void {
    this.gate.resolve();
  }
}
