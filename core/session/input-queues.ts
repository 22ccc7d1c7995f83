import { RPC_LIMITS } from "../wire/limits.js";
import type { QueueMode, QueuedInput } from "../wire/session-types.js";
import { clipUtf8 } from "../wire/utf8-clip.js";
import { imageBytes } from "../wire/prompt-image.js";

/** What an input costs the queues: its text and its images' base64. */
const inputBytes = (input: QueuedInput): number => Buffer.byteLength(input.text) + imageBytes(input.images);

export type QueueKind = "steering" | "followUp";

interface Held {
  input: QueuedInput;
  bytes: number;
}

/**
 * Steering and follow-up inputs waiting for delivery. A `one-at-a-time` queue hands out one input
 * per delivery point, an `all` queue everything it holds. Mutations go through SessionStateStore,
 * which announces each change with `queue_update`.
 *
 * Both queues together hold at most `maxQueuedInputs` inputs and `maxQueuedInputBytes` of text, and
 * what the state and `queue_update` show of them is a projection bounded by construction: each text
 * clipped to `maxQueuedInputPreviewBytes` (with its true size when clipped). So a queue_update costs
 * at most a fixed size, and the state always fits one output record.
 */
export class InputQueues {
  private steering: Held[] = [];
  private followUp: Held[] = [];
  private bytes = 0;

  constructor(
    readonly steeringMode: QueueMode,
    readonly followUpMode: QueueMode,
    private readonly limits: { maxQueuedInputs: number; maxQueuedInputBytes: number; maxQueuedInputPreviewBytes: number } = RPC_LIMITS,
  ) {}

  get size(): number {
    return this.steering.length + this.followUp.length;
  }

  has(kind: QueueKind): boolean {
    return this.list(kind).length > 0;
  }

  /** Why `input` cannot be queued now, or undefined when it can. */
  refusal(input: QueuedInput): string | undefined {
    if (this.size >= this.limits.maxQueuedInputs) return `the input queues hold ${this.limits.maxQueuedInputs} inputs already`;
    if (this.bytes + inputBytes(input) > this.limits.maxQueuedInputBytes) {
      return `the input queues would exceed ${this.limits.maxQueuedInputBytes} bytes of text and images`;
    }
    return undefined;
  }

  push(kind: QueueKind, input: QueuedInput): void {
    const bytes = inputBytes(input);
    this.bytes += bytes;
    this.list(kind).push({ input, bytes });
  }

  /** Removes and returns what one delivery point takes from `kind`, per the queue's mode. */
  take(kind: QueueKind): QueuedInput[] {
    const list = this.list(kind);
    const mode = kind === "steering" ? this.steeringMode : this.followUpMode;
    const taken = mode === "all" ? list.splice(0) : list.splice(0, 1);
    for (const held of taken) this.bytes -= held.bytes;
    return taken.map((held) => held.input);
  }

  clear(): void {
    this.steering = [];
    this.followUp = [];
    this.bytes = 0;
  }

  snapshot(): { steering: QueuedInput[]; followUp: QueuedInput[] } {
    return { steering: this.steering.map(this.project), followUp: this.followUp.map(this.project) };
  }

  private readonly project = ({ input }: Held): QueuedInput => {
    const clipped = clipUtf8(input.text, this.limits.maxQueuedInputPreviewBytes);
    const shown: QueuedInput = input.completionId === undefined ? { text: clipped.text } : { text: clipped.text, completionId: input.completionId };
    if (clipped.truncated) {
      shown.textTruncated = true;
      shown.textBytes = Buffer.byteLength(input.text);
    }
    if (input.images?.length) shown.imageCount = input.images.length;
    return shown;
  };

  private list(kind: QueueKind): Held[] {
    return kind === "steering" ? this.steering : this.followUp;
  }
}
