import type { CompletionObservation, PromptResult } from "./protocol-types.js";
import type { Delivery, PromptImage } from "../core/wire/session-types.js";

/** What a watch needs of the client: the two requests it is built on, and the interrupt for budgets. */
export interface CompletionWatchPort {
  prompt(params: { delivery: Delivery; text: string; completionId: string; images?: PromptImage[] }): Promise<PromptResult>;
  awaitIdle(params: { completionId: string }): Promise<unknown>;
  interrupt(): Promise<unknown>;
}

export interface SettleOptions {
  /** A work budget: when it aborts, the watch interrupts the session and still reports the settlement. */
  signal?: AbortSignal;
}

export interface SettledCompletion extends CompletionObservation {
  /** True when `signal` aborted and the watch interrupted the session. */
  interrupted: boolean;
}

/**
 * One logical work cycle, named by a stable completionId (docs/protocol.md, completion watches). Every
 * prompt of the cycle carries the ID; `settle()` issues `session.await_idle` with it and, while the
 * observed revision is older than the newest admission revision this watch was told about, issues
 * another idle watch: that input was admitted after the earlier idle observation. Completion evidence
 * therefore comes from Zi's own capture, never from guessing over events.
 *
 * `completion` is null when no assistant reply was captured for the ID, including when a prompt without
 * a completionId (or with another ID) started or joined work after this cycle's prompts: Zi then
 * refuses to attribute that output to this watch.
 */
export class CompletionWatch {
  private admittedRevision = 0;

  constructor(
    private readonly client: CompletionWatchPort,
    readonly completionId: string,
  ) {}

  /** The newest `completionRevision` an admission of this cycle reported. */
  get revision(): number {
    return this.admittedRevision;
  }

  /** Admits input into this cycle; `continue`, `steer` and `follow_up` join the active run. */
  async prompt(text: string, delivery: Delivery = "direct", images?: PromptImage[]): Promise<PromptResult> {
    const result = await this.client.prompt(images === undefined ? { delivery, text, completionId: this.completionId } : { delivery, text, completionId: this.completionId, images });
    if (result.completionRevision !== undefined && result.completionRevision > this.admittedRevision) {
      this.admittedRevision = result.completionRevision;
    }
    return result;
  }

  /** Resolves once the session settled after every admission of this cycle known so far. */
  async settle(options: SettleOptions = {}): Promise<SettledCompletion> {
    let interrupted = false;
    let interrupting: Promise<unknown> | undefined;
    const onAbort = (): void => {
      interrupted = true;
      // The settlement is still reported through the idle watch; a failed interrupt must not hide it.
      interrupting = this.client.interrupt().catch(() => {});
    };
    const { signal } = options;
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        const observed = (await this.client.awaitIdle({ completionId: this.completionId })) as CompletionObservation;
        if (observed.completionRevision >= this.admittedRevision) {
          await interrupting;
          return { ...observed, interrupted };
        }
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }
}
