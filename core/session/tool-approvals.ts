import { randomUUID } from "node:crypto";
import type { SessionEventOf, PermissionDecider, PermissionDecision, PermissionRequest } from "../wire/session-types.js";
import type { SessionStateStore } from "./session-state-store.js";

/** A request as its asker describes it; the broker adds the ID and the times. */
export type ApprovalQuestion = Omit<PermissionRequest, "requestId" | "requestedAt" | "expiresAt">;

/** How a question was answered. `no_client`: nobody can answer (`--mode json`), so no request was raised. */
/** An answer to a raised request: someone could decide it, so never `no_client` (permission_resolved's deciders). */
type RaisedAnswer = ApprovalAnswer & { decidedBy: PermissionDecider };

export interface ApprovalAnswer {
  decision: PermissionDecision;
  decidedBy: PermissionDecider | "no_client";
  message?: string;
  /** The request as it was announced (absent for `no_client` and after close). */
  request?: PermissionRequest;
}

interface Pending {
  request: PermissionRequest;
  settle(answer: ApprovalAnswer): void;
}

/**
 * The tool calls waiting for a person's decision. Each request enters the session state with
 * `permission_requested` and leaves it with `permission_resolved`, through the store's one ordered
 * path; the first settlement wins (a client's answer, the wait bound, an interrupt, a disconnect), so
 * a second answer finds nothing. Shared by a session and its delegated children.
 */
export class ToolApprovals {
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  /** False where nobody can answer (`--mode json`): a question is denied at once, unannounced. */
  answerable = true;

  constructor(private readonly store: SessionStateStore) {}

  /** The pending requests, oldest first. */
  list(): PermissionRequest[] {
    return [...this.pending.values()].map((entry) => entry.request);
  }

  /**
   * Raises a request and resolves with its answer. Never waits on a closed broker, an aborted signal
   * or a process nobody can answer. `waitMs` bounds the wait (a denial by `timeout`); `onRaised` sees
   * the request before it is announced.
   */
  ask(question: ApprovalQuestion, signal: AbortSignal, waitMs?: number, onRaised?: (request: PermissionRequest) => void): Promise<ApprovalAnswer> {
    if (this.closed) return Promise.resolve({ decision: "deny", decidedBy: "disconnect" });
    if (signal.aborted) return Promise.resolve({ decision: "deny", decidedBy: "interrupt" });
    if (!this.answerable) return Promise.resolve({ decision: "deny", decidedBy: "no_client" });
    const now = Date.now();
    const request: PermissionRequest = { requestId: randomUUID(), ...question, requestedAt: new Date(now).toISOString() };
    if (waitMs !== undefined) request.expiresAt = new Date(now + waitMs).toISOString();
    return new Promise<ApprovalAnswer>((resolve) => {
      const timer = waitMs === undefined ? undefined : setTimeout(() => this.settle(request.requestId, { decision: "deny", decidedBy: "timeout" }), waitMs);
      const onAbort = (): void => void this.settle(request.requestId, { decision: "deny", decidedBy: "interrupt" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(request.requestId, {
        request,
        settle: (answer) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve({ ...answer, request });
        },
      });
      onRaised?.(request);
      void this.store.openPermissionRequest(request);
    });
  }

  /** A client's answer; false when the request is unknown or already settled. */
  resolve(requestId: string, decision: PermissionDecision, message?: string): boolean {
    return this.settle(requestId, message === undefined ? { decision, decidedBy: "client" } : { decision, decidedBy: "client", message });
  }

  /** Settles every pending request `decide` answers (a policy change that now decides them). */
  settleWhere(decide: (request: PermissionRequest) => RaisedAnswer | undefined): void {
    for (const { request } of [...this.pending.values()]) {
      const answer = decide(request);
      if (answer) this.settle(request.requestId, answer);
    }
  }

  /** Denies every pending request, announced, e.g. on `session.interrupt`. */
  denyAll(decidedBy: "interrupt" | "disconnect"): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { decision: "deny", decidedBy });
  }

  /** The client is gone: deny what waits, and every later question at once. */
  close(): void {
    this.closed = true;
    this.denyAll("disconnect");
  }

  private settle(requestId: string, answer: RaisedAnswer): boolean {
    const entry = this.pending.get(requestId);
    if (!entry) return false;
    this.pending.delete(requestId);
    const { request } = entry;
    const resolved: SessionEventOf<"permission_resolved"> = {
      type: "permission_resolved",
      requestId,
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      decision: answer.decision,
      decidedBy: answer.decidedBy,
    };
    if (answer.message !== undefined) resolved.message = answer.message;
    if (request.delegation) resolved.delegation = { ...request.delegation };
    void this.store.closePermissionRequest(requestId, resolved);
    entry.settle(answer);
    return true;
  }
}
