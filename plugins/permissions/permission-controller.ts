import type { ZiExtensionApi } from "../../core/extensions/extension-api.js";
import type { PluginServices } from "../../core/extensions/plugin-services.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import type { ApprovalAnswer } from "../../core/session/tool-approvals.js";
import type { GateResult, HookVerdict, ToolCallCheck, ToolPolicy } from "../../core/session/tool-call-gate.js";
import { declarationOf, describeCall } from "../../core/session/tool-declaration.js";
import type { DecidingRule, PermissionDecision, PermissionRequest, PermissionRule, PermissionSummary, SandboxState } from "../../core/wire/session-types.js";
import { boundedArgs, summarize } from "./call-summary.js";
import { alwaysRule, callUnits, locate } from "./call-units.js";
import { type EffectivePolicy, PermissionPolicy, type PolicyLayer } from "./permission-policy.js";
import type { CallUnit } from "./permission-rule.js";
import { PERMISSIONS_KEY, settingsPolicy } from "./permission-settings.js";
import type { PermissionPort } from "./permission.port.js";

type Services = Pick<PluginServices, "session" | "settings"> & { project: Pick<PluginServices["project"], "trusted"> };

/** A request still waiting: what a policy change re-evaluates, and what its journal entry adds. */
interface Asked {
  units: CallUnit[];
  rule?: DecidingRule;
  addedRules?: PermissionRule[];
}

const describeRule = (rule: DecidingRule): string => {
  if (rule.source === "default") return `the default "${rule.action}"`;
  const { source, action, ...selectors } = rule;
  return `the ${action} rule ${JSON.stringify(selectors)} from ${source === "runtime" ? "the client" : source === "session" ? "this session" : `the ${source} settings`}`;
};

/**
 * The permissions plugin's core: the policy the gate asks after the extension hooks, the questions
 * it raises through the session's approvals, and the journal entry of every decision. The family's
 * handlers reach it through `PermissionPort`.
 */
export class PermissionController implements PermissionPort, ToolPolicy {
  readonly policy = new PermissionPolicy();
  private services: Services | undefined;
  private cwd = ".";
  private readonly asked = new Map<string, Asked>();

  /** Called by the plugin's extension half: reads the settings and takes its place in the gate. */
  attach(zi: Pick<ZiExtensionApi, "cwd">, services: Services | undefined, log: (line: string) => void): void {
    if (!services) return;
    this.services = services;
    this.cwd = zi.cwd;
    const loaded = settingsPolicy(services.settings.getGlobal(PERMISSIONS_KEY), services.settings.getProject(PERMISSIONS_KEY), services.project.trusted);
    for (const warning of loaded.warnings) log(`zi: permissions: ${warning}`);
    this.policy.setSettings(loaded.default, loaded.rules, loaded.waitSeconds);
    services.session.toolGate.setPolicy(this);
  }

  setPolicy(layer: PolicyLayer): EffectivePolicy {
    this.policy.setRuntime(layer);
    const policy = this.policy.describe();
    this.journal({ kind: "policy", policy });
    this.reevaluate();
    return policy;
  }

  setSandbox(layer: Parameters<PermissionPort["setSandbox"]>[0]): SandboxState {
    const sandbox = this.session().sandbox.set(layer);
    this.journal({ kind: "sandbox", sandbox: { mode: sandbox.mode, network: sandbox.network, writableRoots: sandbox.writableRoots } });
    return sandbox;
  }

  list(): PermissionRequest[] {
    return this.session().approvals.list();
  }

  resolve(requestId: string, decision: PermissionDecision, message?: string): void {
    const session = this.session();
    const request = session.approvals.list().find((pending) => pending.requestId === requestId);
    if (!request) throw new RpcError("not_found", `no pending permission request ${JSON.stringify(requestId)}`);
    if (decision === "allow_always") {
      const asked = this.asked.get(requestId);
      const added = this.policy.addSessionRules(request.alwaysRules);
      if (asked) asked.addedRules = added;
    }
    session.approvals.resolve(requestId, decision, message);
    if (decision === "allow_always") this.reevaluate();
  }

  async decide(call: ToolCallCheck, hooks: HookVerdict, signal: AbortSignal): Promise<GateResult> {
    const base = hooks.rewrittenBy.length > 0 ? { rewrittenBy: hooks.rewrittenBy } : {};
    if (hooks.action === "deny") {
      const message = hooks.message ?? "denied";
      this.record(call, "deny", "extension", { ...base, extension: hooks.decidedBy, message });
      return { action: "deny", message };
    }
    // Today's behaviour, unchanged and unparsed: nothing to decide, nothing to journal.
    if (this.policy.permissive && hooks.action === undefined && hooks.rewrittenBy.length === 0) return { action: "allow", args: call.args };
    const declaration = declarationOf(call);
    const description = describeCall(call.toolName, declaration, call.args, this.cwd);
    const sandbox = this.session().sandbox;
    const evaluation = this.policy.evaluate(callUnits(call.toolName, declaration.effect, description, this.cwd, (real) => sandbox.protectedPlace(real, this.cwd)));
    const { rule } = evaluation;
    if (evaluation.action === "deny") {
      const message = `Permission denied by ${describeRule(rule)}.`;
      this.record(call, "deny", "rule", { ...base, rule, message });
      return { action: "deny", message };
    }
    if (evaluation.action === "allow") {
      this.record(call, "allow", "rule", { ...base, rule, ...(hooks.decidedBy ? { extension: hooks.decidedBy } : {}) });
      return this.allowed(call, rule);
    }
    if (hooks.action === "allow") {
      this.record(call, "allow", "extension", { ...base, rule, extension: hooks.decidedBy });
      return this.allowed(call, rule);
    }
    const answer = await this.ask(call, evaluation.asking, rule, base, signal, await summarize(declaration, description, call.args, this.cwd));
    return answer.action === "allow" ? this.allowed(call, rule) : answer;
  }

  /**
   * An allowed call, with what a tree search under it may read: a path that a `deny` or `ask` rule
   * naming paths covers, judged as if this tool named it, is left out, unless that same rule decided
   * the call (a search of `secrets`, asked about by the rule `secrets/**` and allowed, searches it).
   * The default and rules without a path judged the whole call already.
   */
  private allowed(call: ToolCallCheck, decidedBy: DecidingRule): GateResult {
    if (!this.policy.limitsPaths) return { action: "allow", args: call.args };
    const { effect } = declarationOf(call);
    const decided = JSON.stringify(decidedBy);
    const mayRead = (real: string): boolean => {
      const unit: CallUnit = { kind: "path", tool: call.toolName, effect, ...locate(this.cwd, real) };
      // Most files meet no such rule: then nothing can keep them out, and the whole policy is not asked.
      if (!this.policy.limits(unit)) return true;
      const { action, rule } = this.policy.evaluate([unit]);
      return action === "allow" || rule.source === "default" || (rule.path === undefined && !rule.outsideCwd) || JSON.stringify(rule) === decided;
    };
    return { action: "allow", args: call.args, mayRead };
  }

  private async ask(call: ToolCallCheck, asking: CallUnit[], rule: DecidingRule, base: object, signal: AbortSignal, summary: PermissionSummary): Promise<GateResult> {
    const approvals = this.session().approvals;
    const alwaysRules: PermissionRule[] = [];
    for (const unit of asking) {
      const candidate = alwaysRule(unit);
      if (candidate && !alwaysRules.some((known) => JSON.stringify(known) === JSON.stringify(candidate))) alwaysRules.push(candidate);
    }
    const question = {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      ...boundedArgs(call.args),
      summary,
      rule,
      alwaysRules,
      ...(call.delegation ? { delegation: { ...call.delegation } } : {}),
    };
    const waitSeconds = this.policy.waitSeconds;
    let requestId: string | undefined;
    const answer = await approvals.ask(question, signal, waitSeconds === undefined ? undefined : waitSeconds * 1000, (request) => {
      requestId = request.requestId;
      this.asked.set(request.requestId, { units: asking });
    });
    const asked = requestId === undefined ? undefined : this.asked.get(requestId);
    if (requestId !== undefined) this.asked.delete(requestId);
    const allowed = answer.decision !== "deny";
    const message = allowed ? undefined : this.denial(answer, rule, waitSeconds);
    this.record(call, allowed ? "allow" : "deny", answer.decidedBy, {
      ...base,
      rule: asked?.rule ?? rule,
      ...(requestId === undefined ? {} : { requestId }),
      ...(answer.decidedBy === "client" ? { clientDecision: answer.decision } : {}),
      ...(asked?.addedRules?.length ? { addedRules: asked.addedRules } : {}),
      ...(message === undefined ? {} : { message }),
    });
    return allowed ? { action: "allow", args: call.args } : { action: "deny", message: message! };
  }

  private denial(answer: ApprovalAnswer, rule: DecidingRule, waitSeconds: number | undefined): string {
    switch (answer.decidedBy) {
      case "client":
        return answer.message ? `Permission denied by the user: ${answer.message}` : "Permission denied by the user.";
      case "rule":
        return answer.message ?? `Permission denied by ${describeRule(rule)}.`;
      case "timeout":
        return `Permission denied: nobody answered within ${waitSeconds} s.`;
      case "interrupt":
        return "Permission denied: the run was interrupted.";
      case "disconnect":
        return "Permission denied: the client disconnected; nothing runs after that.";
      case "no_client":
        return `Permission denied: this call needs approval (${describeRule(rule)}), and nobody can answer in --mode json or -p. Allow it with a rule under "permissions" in settings.json, or run it over --mode rpc.`;
    }
  }

  /** Settles the pending requests a changed policy now allows or denies (`decidedBy: "rule"`). */
  private reevaluate(): void {
    this.session().approvals.settleWhere((request): (ApprovalAnswer & { decidedBy: "rule" }) | undefined => {
      const asked = this.asked.get(request.requestId);
      if (!asked) return undefined;
      const evaluation = this.policy.evaluate(asked.units);
      if (evaluation.action === "ask") return undefined;
      asked.rule = evaluation.rule;
      return evaluation.action === "allow" ? { decision: "allow_once", decidedBy: "rule" } : { decision: "deny", decidedBy: "rule", message: `Permission denied by ${describeRule(evaluation.rule)}.` };
    });
  }

  private record(call: ToolCallCheck, decision: "allow" | "deny", decidedBy: string, details: object): void {
    const { args, argsTruncated } = boundedArgs(call.args);
    this.journal({
      kind: "decision",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      decision,
      decidedBy,
      ...details,
      ...(call.delegation ? { delegation: { ...call.delegation } } : {}),
      args,
      ...(argsTruncated ? { argsTruncated } : {}),
    });
  }

  private journal(data: Record<string, unknown>): void {
    try {
      this.services?.session.appendPermissionEntry(data);
    } catch (error) {
      // The journal was closed under us (Zi shutting down): the decision still stands.
      process.stderr.write(`zi: permissions: a decision was not journaled: ${(error as Error).message}\n`);
    }
  }

  private session(): Services["session"] {
    if (!this.services) throw new RpcError("operation_failed", "the permissions plugin was not loaded");
    return this.services.session;
  }
}
