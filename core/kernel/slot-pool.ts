export type Slot = "ordinary" | "reserved";

/**
 * The admission bound: `ordinary` slots for every method, plus `reserved` slots that only an interrupt
 * may take, and only once the ordinary ones are full, so a client can always stop runaway work.
 */
export class SlotPool {
  private ordinaryUsed = 0;
  private reservedUsed = 0;

  constructor(
    private readonly ordinary: number,
    private readonly reserved: number,
  ) {}

  acquire(kind: "ordinary" | "interrupt"): Slot | null {
    if (this.ordinaryUsed < this.ordinary) {
      this.ordinaryUsed++;
      return "ordinary";
    }
    if (kind === "interrupt" && this.reservedUsed < this.reserved) {
      this.reservedUsed++;
      return "reserved";
    }
    return null;
  }

  release(slot: Slot): void {
    if (slot === "ordinary") this.ordinaryUsed--;
    else this.reservedUsed--;
  }
}
