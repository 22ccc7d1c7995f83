import type { QueueMode, QueuedInput } from "../wire/session-types.js";

export type QueueKind = "steering" | "followUp";

/**
 * Steering and follow-up inputs waiting for delivery. A `one-at-a-time` queue hands out one input
 * per delivery point, an `all` queue everything it holds. Mutations go through SessionStateStore,
 * which announces each change with `queue_update`.
 */
export class InputQueues {
  private steering: QueuedInput[] = [];
  private followUp: QueuedInput[] = [];

  constructor(
    readonly steeringMode: QueueMode,
    readonly followUpMode: QueueMode,
  ) {}

  get size(): number {
    return this.steering.length + this.followUp.length;
  }

  has(kind: QueueKind): boolean {
    return this.list(kind).length > 0;
  }

  push(kind: QueueKind, input: QueuedInput): void {
    this.list(kind).push(input);
  }

  /** Removes and returns what one delivery point takes from `kind`, per the queue's mode. */
  take(kind: QueueKind): QueuedInput[] {
    const list = this.list(kind);
    const mode = kind === "steering" ? this.steeringMode : this.followUpMode;
    return mode === "all" ? list.splice(0) : list.splice(0, 1);
  }

  clear(): void {
    this.steering = [];
    this.followUp = [];
  }

  snapshot(): { steering: QueuedInput[]; followUp: QueuedInput[] } {
    return { steering: this.steering.map(copy), followUp: this.followUp.map(copy) };
  }

  private list(kind: QueueKind): QueuedInput[] {
    return kind === "steering" ? this.steering : this.followUp;
  }
}

const copy = (input: QueuedInput): QueuedInput => ({ ...input });
