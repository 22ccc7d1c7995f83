/**
 * The writes handed to the sink and not yet completed, each with the records and bytes it carries,
 * oldest first. A sink completes its writes in order, so one callback for every write can take them
 * from the front. A ring over arrays kept for the writer's life: nothing is allocated per write.
 */
export class WriteLog {
  private records: number[] = new Array<number>(16).fill(0);
  private bytes: number[] = new Array<number>(16).fill(0);
  private head = 0;
  private count = 0;

  get empty(): boolean {
    return this.count === 0;
  }

  add(records: number, bytes: number): void {
    if (this.count === this.records.length) this.grow();
    const i = (this.head + this.count) % this.records.length;
    this.records[i] = records;
    this.bytes[i] = bytes;
    this.count++;
  }

  /** The oldest write's records; call `takenBytes` next for its bytes. */
  takeRecords(): number {
    return this.records[this.head];
  }

  /** The oldest write's bytes, and it leaves the log. */
  takenBytes(): number {
    const bytes = this.bytes[this.head];
    this.head = (this.head + 1) % this.records.length;
    this.count--;
    return bytes;
  }

  private grow(): void {
    const size = this.records.length;
    const order = (list: number[]) => [...list.slice(this.head), ...list.slice(0, this.head), ...new Array<number>(size).fill(0)];
    this.records = order(this.records);
    this.bytes = order(this.bytes);
    this.head = 0;
  }
}
