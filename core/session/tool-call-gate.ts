import type { DelegationOrigin } from "../wire/session-types.js";
import type { ToolDeclaration } from "./tool-declaration.js";

/** A tool call about to run: its arguments already passed the tool's schema. */
export interface ToolCallCheck {
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** Set when a delegated child makes the call. */
  delegation?: DelegationOrigin;
  /** The called tool's declaration (absent: undeclared, effect `other`). */
  declaration?: ToolDeclaration;
}

/**
 * What an extension's tool-call hook answers: nothing (no opinion), allow (no question asked, but a
 * policy `deny` still denies), deny with a message the model reads, or other arguments (validated
 * against the tool's schema again, then passed on to the next hook and the policy).
 */
export type ToolCallHookResult =
  | undefined
  | void
  | { action: "allow" }
  | { action: "deny"; message?: string }
  | { action: "rewrite"; args: Record<string, unknown> };

export interface ToolCallHookContext {
  /** Aborted when the run is interrupted. */
  signal: AbortSignal;
  cwd: string;
}

export type ToolCallHook = (call: Readonly<ToolCallCheck>, context: ToolCallHookContext) => ToolCallHookResult | Promise<ToolCallHookResult>;

/** What the extension hooks said before the policy is asked. */
export interface HookVerdict {
  /** The extension that allowed or denied; absent when none did. */
  decidedBy?: string;
  action?: "allow" | "deny";
  message?: string;
  /** The extensions that rewrote the arguments, in order. */
  rewrittenBy: string[];
}

/**
 * `mayRead`, with an allowed call: the policy's word on each path a tree search (grep, find, ls) meets
 * under it, a real path; false keeps that path out of the results (docs/permissions.md). Absent: every path.
 */
export type GateResult = { action: "allow"; args: Record<string, unknown>; mayRead?: (real: string) => boolean } | { action: "deny"; message: string };

/** The last word on a call (the permissions plugin): sees what the hooks said, decides, journals. */
export interface ToolPolicy {
  decide(call: ToolCallCheck, hooks: HookVerdict, signal: AbortSignal): Promise<GateResult>;
}

/** Checks a call before it runs; `validate` is the tool's schema check (throws on mismatch). */
export type ToolCallGuard = (call: ToolCallCheck, validate: (args: unknown) => Record<string, unknown>, signal: AbortSignal) => Promise<GateResult>;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The one place every tool call passes before it runs, the session's own and its delegated children's:
 * extension hooks first, in load order, then the policy. A hook that throws denies (a gate fails
 * closed). Without hooks and policy a call passes untouched.
 */
export class ToolCallGate {
  private readonly hooks: { owner: string; hook: ToolCallHook }[] = [];
  private policy: ToolPolicy | undefined;

  constructor(private readonly cwd: string) {}

  addHook(owner: string, hook: ToolCallHook): void {
    this.hooks.push({ owner, hook });
  }

  setPolicy(policy: ToolPolicy): void {
    this.policy = policy;
  }

  readonly check: ToolCallGuard = async (call, validate, signal) => {
    if (this.hooks.length === 0 && !this.policy) return { action: "allow", args: call.args };
    const verdict: HookVerdict = { rewrittenBy: [] };
    let current: ToolCallCheck = call;
    for (const { owner, hook } of this.hooks) {
      let result: ToolCallHookResult;
      try {
        // A copy: a hook that changes the arguments in place changes nothing; only a rewrite, checked again, does.
        result = await hook(Object.freeze({ ...current, args: structuredClone(current.args) }), { signal, cwd: this.cwd });
      } catch (error) {
        process.stderr.write(`zi: extension ${owner}: tool-call hook failed: ${describe(error)}\n`);
        Object.assign(verdict, { decidedBy: owner, action: "deny", message: `The tool call was blocked: the gate of extension ${owner} failed.` });
        break;
      }
      if (!result) continue;
      if (result.action === "rewrite") {
        try {
          current = { ...current, args: validate(result.args) };
        } catch (error) {
          Object.assign(verdict, { decidedBy: owner, action: "deny", message: `Extension ${owner} rewrote the arguments into invalid ones: ${describe(error)}` });
          break;
        }
        verdict.rewrittenBy.push(owner);
        continue;
      }
      verdict.decidedBy = owner;
      if (result.action === "allow") verdict.action = "allow";
      else {
        verdict.action = "deny";
        verdict.message =
          result.action === "deny"
            ? typeof result.message === "string" && result.message !== "" ? result.message : `The tool call was denied by extension ${owner}.`
            : `The tool call was blocked: extension ${owner} gave its gate an unknown answer.`;
      }
      break;
    }
    if (this.policy) return this.policy.decide(current, verdict, signal);
    if (verdict.action === "deny") return { action: "deny", message: verdict.message ?? "denied" };
    return { action: "allow", args: current.args };
  };
}
