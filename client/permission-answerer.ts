import type { AgentSessionEvent, PermissionDecision, PermissionRequest } from "../core/wire/session-types.js";
import { ZiRpcError } from "./zi-rpc-error.js";

/** What a permission handler answers: a decision, or a decision with the message the model reads. */
export type PermissionAnswer = PermissionDecision | { decision: PermissionDecision; message?: string };
export type PermissionHandler = (request: PermissionRequest) => PermissionAnswer | Promise<PermissionAnswer>;

export interface PermissionChannel {
  subscribe(listener: (event: AgentSessionEvent) => void): () => void;
  list(): Promise<{ requests: PermissionRequest[] }>;
  resolve(requestId: string, decision: PermissionDecision, message?: string): Promise<unknown>;
}

/**
 * Answers every permission request with one handler: those announced from now on, and those already
 * waiting when it starts (found with `permission.list`, so a request raised before the handler, or
 * while events were off, is not left hanging). Each request is answered once; a request settled
 * meanwhile (interrupt, timeout) answers `not_found`, which is expected and ignored. A handler that
 * throws denies: a gate fails closed.
 */
export class PermissionAnswerer {
  private readonly answered = new Set<string>();
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly channel: PermissionChannel,
    private readonly handler: PermissionHandler,
    private readonly onError: (error: unknown) => void,
  ) {
    this.unsubscribe = channel.subscribe((event) => {
      if (event.type === "permission_requested") void this.answer(event as unknown as PermissionRequest);
    });
    void channel.list().then(
      ({ requests }) => requests.forEach((request) => void this.answer(request)),
      (error: unknown) => this.onError(error),
    );
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
  }

  private async answer(request: PermissionRequest): Promise<void> {
    if (this.stopped || this.answered.has(request.requestId)) return;
    this.answered.add(request.requestId);
    let answer: { decision: PermissionDecision; message?: string };
    try {
      const given = await this.handler(request);
      answer = typeof given === "string" ? { decision: given } : given;
    } catch (error) {
      answer = { decision: "deny", message: `the client's permission handler failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    try {
      await this.channel.resolve(request.requestId, answer.decision, answer.message);
    } catch (error) {
      if (!(error instanceof ZiRpcError && error.code === "not_found")) this.onError(error);
    }
  }
}
