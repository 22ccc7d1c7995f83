import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionDecision, PermissionRequest, PermissionRule } from "../wire/session-types.js";
import { ACP_MODES, DEFAULT_ACP_MODE, type PolicyLayer } from "./acp-permission-modes.js";
import { toolKind } from "./acp-tool-calls.js";

/** What the bridge calls of the permission family (`permission.set_policy`, `permission.resolve`), through the method client. */
export interface AcpPermissionPort {
  setPolicy(layer: PolicyLayer): Promise<unknown> | unknown;
  resolve(requestId: string, decision: PermissionDecision, message?: string): Promise<unknown> | unknown;
}

/** What an ACP session keeps of its permission choices across reconnects (journaled as `acp_session_options`). */
export interface AcpPermissionOptions {
  modeId: string;
  rejected: PermissionRule[];
}

/** Asks the editor about one tool call: `session/request_permission`. */
export type PermissionAsker = (request: Omit<acp.RequestPermissionRequest, "sessionId">) => Promise<acp.RequestPermissionResponse>;

const OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject", kind: "reject_always" },
];

/**
 * One ACP session's side of Zi's permission family: the session mode is the client's policy layer
 * (plus the deny rules "Always reject" added), and each `permission_requested` of the session is a
 * `session/request_permission` whose answer goes to `permission.resolve`. On `session/cancel` every
 * request still open is settled as denied here, whatever the editor answers later.
 */
export class AcpPermissionBridge {
  private modeId = DEFAULT_ACP_MODE;
  private readonly rejected: PermissionRule[] = [];
  /** Requests asked of the editor and not yet answered, by request id. */
  private readonly open = new Set<string>();
  private port: AcpPermissionPort | undefined;
  private closed = false;

  /** Called with the mode and the "Always reject" rules whenever they change (the session journals them). */
  onChange: ((options: AcpPermissionOptions) => void) | undefined;

  constructor(
    private readonly ask: PermissionAsker,
    private readonly log: (message: string) => void,
  ) {}

  /** A session reopened: its journaled mode and rules, applied once the family is attached. */
  restore(options: AcpPermissionOptions): void {
    if (ACP_MODES.has(options.modeId)) this.modeId = options.modeId;
    this.rejected.splice(0, this.rejected.length, ...options.rejected.filter((rule) => rule.action === "deny"));
  }

  /** Once the session's plugins have loaded: the permissions plugin's port, and the mode's policy. */
  attach(port: AcpPermissionPort | undefined): void {
    this.port = port;
    if (!port) {
      this.log("zi: acp: the permissions plugin is not loaded; modes have no effect and tools run without asking");
      return;
    }
    this.apply();
  }

  modes(): acp.SessionModeState {
    return { availableModes: [...ACP_MODES.values()].map((definition) => definition.mode), currentModeId: this.modeId };
  }

  setMode(modeId: string): void {
    if (!ACP_MODES.has(modeId)) throw RequestError.invalidParams(undefined, `unknown mode ${JSON.stringify(modeId)}; the modes are ${[...ACP_MODES.keys()].join(", ")}`);
    this.modeId = modeId;
    if (this.port) this.apply();
    this.onChange?.({ modeId: this.modeId, rejected: [...this.rejected] });
  }

  /** A `permission_requested` of this session: ask the editor, then resolve with its answer. */
  async request(request: PermissionRequest): Promise<void> {
    this.open.add(request.requestId);
    let outcome: acp.RequestPermissionOutcome;
    try {
      const response = await this.ask({
        toolCall: {
          toolCallId: request.toolCallId,
          title: request.summary.title,
          kind: toolKind(request.summary.kind),
          status: "pending",
          ...(request.argsTruncated ? {} : { rawInput: request.args }),
        },
        options: OPTIONS,
      });
      outcome = response.outcome;
    } catch (error) {
      // A request the connection's end abandoned (Zi shutting down, the editor gone) is denied without a word.
      if (!this.closed && this.open.has(request.requestId)) this.log(`zi: acp: session/request_permission failed, denying the call: ${(error as Error).message}`);
      outcome = { outcome: "cancelled" };
    }
    // Settled already: by a cancel, an interrupt, a timeout or a rule.
    if (!this.open.delete(request.requestId)) return;
    const choice = outcome.outcome === "selected" ? outcome.optionId : "cancelled";
    switch (choice) {
      case "allow_once":
      case "allow_always":
        this.resolve(request.requestId, choice);
        break;
      case "reject_always":
        this.resolve(request.requestId, "deny", "rejected by the user");
        this.rejectAlways(request.alwaysRules);
        break;
      case "reject_once":
        this.resolve(request.requestId, "deny", "rejected by the user");
        break;
      default:
        this.resolve(request.requestId, "deny", "cancelled");
    }
  }

  /** The session is closing: requests still open are denied, and their failures are no news. */
  close(): void {
    this.closed = true;
    this.cancelAll();
  }

  /** `session/cancel`: every request still open is denied now; the editor's later answers are ignored. */
  cancelAll(): void {
    const open = [...this.open];
    this.open.clear();
    for (const requestId of open) this.resolve(requestId, "deny", "cancelled");
  }

  /** Deny rules for what "Always allow" would have allowed: kept with the session's mode, for the session. */
  private rejectAlways(rules: readonly PermissionRule[]): void {
    for (const rule of rules) this.rejected.push({ ...rule, action: "deny" });
    if (rules.length === 0) return;
    if (this.port) this.apply();
    this.onChange?.({ modeId: this.modeId, rejected: [...this.rejected] });
  }

  private apply(): void {
    const layer = ACP_MODES.get(this.modeId)!.layer;
    const failed = (error: unknown) => this.log(`zi: acp: permission.set_policy failed: ${(error as Error).message}`);
    // Called now, not a turn later: a prompt the editor sends after the mode change must meet the new policy.
    try {
      void Promise.resolve(this.port!.setPolicy({ ...layer, rules: [...layer.rules, ...this.rejected] })).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private resolve(requestId: string, decision: "allow_once" | "allow_always" | "deny", message?: string): void {
    // A request no longer pending (settled by an interrupt, a timeout or a rule meanwhile) answers not_found: nothing to do.
    try {
      void Promise.resolve(this.port?.resolve(requestId, decision, message)).catch(() => undefined);
    } catch {
      // the same: nothing pending under that id
    }
  }
}
