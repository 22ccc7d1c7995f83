import { randomUUID } from "node:crypto";
import { RpcError } from "../kernel/rpc-error.js";
import type { PermissionDecision, PermissionRequest } from "../wire/session-types.js";
import type { MethodCalls } from "./method-calls.js";

/** The options of a permission dialog, as the client shows them, and the decision each one is. */
const CHOICES = new Map<string, { decision: PermissionDecision; message?: string }>([
  ["Allow once", { decision: "allow_once" }],
  ["Always allow", { decision: "allow_always" }],
  ["Reject", { decision: "deny", message: "rejected by the user" }],
]);

/** pi's answer to a dialog: a value, a confirmation, or a cancellation. */
export interface ExtensionUiResponse {
  type: "extension_ui_response";
  id: string;
  value?: unknown;
  confirmed?: unknown;
  cancelled?: unknown;
}

/**
 * pi's extension UI sub-protocol on Zi's side. Zi's permission requests are pi `select` dialogs whose
 * answer goes to `permission.resolve`; a command's feedback is a `notify`. A dialog Zi settled first
 * (a rule, the wait bound, an interrupt) ignores a late answer, as the permission family does.
 */
export class PiExtensionUi {
  /** Open dialogs by their `extension_ui_request` id: the permission request each one asks about. */
  private readonly open = new Map<string, string>();

  constructor(
    private readonly methods: MethodCalls,
    private readonly send: (frame: Record<string, unknown>) => Promise<void>,
    private readonly log: (message: string) => void,
  ) {}

  /** A `permission_requested` event: ask the client. */
  async ask(request: PermissionRequest): Promise<void> {
    const id = randomUUID();
    this.open.set(id, request.requestId);
    const timeout = request.expiresAt ? Math.max(0, Date.parse(request.expiresAt) - Date.now()) : undefined;
    await this.send({
      type: "extension_ui_request",
      id,
      method: "select",
      title: `Allow ${request.toolName}: ${request.summary.title}?`,
      options: [...CHOICES.keys()],
      ...(timeout === undefined ? {} : { timeout }),
    });
  }

  /** A command's local feedback (never shown to the model): a fire-and-forget `notify`. */
  notify(message: string, notifyType: "info" | "warning" | "error" = "info"): Promise<void> {
    return this.send({ type: "extension_ui_request", id: randomUUID(), method: "notify", message, notifyType });
  }

  /** An `extension_ui_response` line; one for no open dialog is dropped, as pi drops it. */
  async answer(response: ExtensionUiResponse): Promise<void> {
    const requestId = this.open.get(response.id);
    if (requestId === undefined) return;
    this.open.delete(response.id);
    const choice = response.cancelled === true || typeof response.value !== "string" ? undefined : CHOICES.get(response.value);
    const { decision, message } = choice ?? { decision: "deny" as const, message: response.cancelled === true ? "cancelled" : "no option chosen" };
    try {
      await this.methods.call("permission.resolve", { requestId, decision, ...(message === undefined ? {} : { message }) });
    } catch (error) {
      // not_found: settled meanwhile (a rule, the wait bound, an interrupt); nothing left to decide.
      if (!(error instanceof RpcError && error.code === "not_found")) this.log(`zi: pi-rpc: permission.resolve failed: ${(error as Error).message}`);
    }
  }
}
