import type { DecidingRule, PermissionAction, PermissionRule, SourcedPermissionRule } from "../../core/wire/session-types.js";
import { type CallUnit, CompiledRule } from "./permission-rule.js";
import { normalizeRule, SEVERITY } from "./rule-check.js";

export type RuleSource = SourcedPermissionRule["source"];

/** The settings a layer contributes; absent fields leave the layer below in force. */
export interface PolicyLayer {
  default?: PermissionAction;
  rules: PermissionRule[];
  waitSeconds?: number;
}

/** The effective policy as `permission.set_policy` returns it. */
export interface EffectivePolicy {
  default: PermissionAction;
  rules: SourcedPermissionRule[];
  waitSeconds?: number;
}

export interface Evaluation {
  action: PermissionAction;
  rule: DecidingRule;
  /** The units the decision left at `ask` (what `allow_always` should cover). */
  asking: CallUnit[];
}

interface Entry {
  compiled: CompiledRule;
  sourced: SourcedPermissionRule;
}

const sourced = (rule: PermissionRule, source: RuleSource): SourcedPermissionRule => ({ ...normalizeRule(rule), source });

/**
 * The layered policy: settings (global, then project), the client's run-time layer, and the session
 * rules `allow_always` adds. For each unit of a call: a matching `deny` rule denies, else a session
 * allow rule allows, else an `ask` rule asks, else an `allow` rule allows, else the default decides.
 * A call is as strict as its strictest unit (a compound command is allowed only if every part is).
 */
export class PermissionPolicy {
  private settingsDefault: PermissionAction = "allow";
  private settingsWait: number | undefined;
  private runtime: PolicyLayer | undefined;
  private settingsRules: Entry[] = [];
  private runtimeRules: Entry[] = [];
  private readonly sessionRules: Entry[] = [];
  /** The settings' and the client's `deny` and `ask` rules that name paths (session rules only allow); built on first use. */
  private limiting: Entry[] | undefined;

  /** Settings layers, already tightened where the project is untrusted. */
  setSettings(defaultAction: PermissionAction, rules: { rule: PermissionRule; source: "global" | "project" }[], waitSeconds: number | undefined): void {
    this.settingsDefault = defaultAction;
    this.settingsWait = waitSeconds;
    this.settingsRules = rules.map(({ rule, source }) => ({ compiled: new CompiledRule(rule), sourced: sourced(rule, source) }));
    this.limiting = undefined;
  }

  /** The client's layer (`permission.set_policy`): replaces the previous one whole. */
  setRuntime(layer: PolicyLayer): void {
    this.runtime = layer;
    this.runtimeRules = layer.rules.map((rule) => ({ compiled: new CompiledRule(rule), sourced: sourced(rule, "runtime") }));
    this.limiting = undefined;
  }

  /** Rules `allow_always` adds; a rule already held is not added twice. */
  addSessionRules(rules: readonly PermissionRule[]): PermissionRule[] {
    const added: PermissionRule[] = [];
    for (const rule of rules) {
      const key = JSON.stringify(normalizeRule(rule));
      if (this.sessionRules.some((entry) => JSON.stringify(normalizeRule(entry.compiled.rule)) === key)) continue;
      this.sessionRules.push({ compiled: new CompiledRule(rule), sourced: sourced(rule, "session") });
      added.push(normalizeRule(rule));
    }
    return added;
  }

  get default(): PermissionAction {
    return this.runtime?.default ?? this.settingsDefault;
  }

  get waitSeconds(): number | undefined {
    return this.runtime?.waitSeconds ?? this.settingsWait;
  }

  /** True while the policy lets everything run without a rule (today's behaviour): nothing to decide or journal. */
  get permissive(): boolean {
    return this.default === "allow" && this.settingsRules.length === 0 && this.runtimeRules.length === 0 && this.sessionRules.length === 0;
  }

  /** True while a `deny` or `ask` rule names paths: only then may a tree search meet a path it keeps out. */
  get limitsPaths(): boolean {
    return this.pathLimits().length > 0;
  }

  /** Whether a `deny` or `ask` rule that names paths matches `unit`: when none does, no such rule can decide it. */
  limits(unit: CallUnit): boolean {
    return this.pathLimits().some((entry) => entry.compiled.matches(unit));
  }

  private pathLimits(): Entry[] {
    this.limiting ??= [...this.settingsRules, ...this.runtimeRules].filter(({ compiled: { rule } }) => rule.action !== "allow" && (rule.path !== undefined || rule.outsideCwd === true));
    return this.limiting;
  }

  describe(): EffectivePolicy {
    const policy: EffectivePolicy = {
      default: this.default,
      rules: [...this.settingsRules, ...this.runtimeRules, ...this.sessionRules].map((entry) => ({ ...entry.sourced })),
    };
    if (this.waitSeconds !== undefined) policy.waitSeconds = this.waitSeconds;
    return policy;
  }

  evaluate(units: readonly CallUnit[]): Evaluation {
    let result: Evaluation | undefined;
    const asking: CallUnit[] = [];
    for (const unit of units) {
      const one = this.evaluateUnit(unit);
      if (one.action === "ask") asking.push(unit);
      if (!result || SEVERITY[one.action] > SEVERITY[result.action]) result = { ...one, asking };
    }
    return result ?? { action: this.default, rule: { action: this.default, source: "default" }, asking };
  }

  private evaluateUnit(unit: CallUnit): Omit<Evaluation, "asking"> {
    const all = [...this.settingsRules, ...this.runtimeRules, ...this.sessionRules];
    const first = (action: PermissionAction, entries: Entry[] = all) => entries.find((entry) => entry.compiled.rule.action === action && entry.compiled.matches(unit));
    const found = first("deny") ?? first("allow", this.sessionRules) ?? first("ask") ?? first("allow");
    const decided: Omit<Evaluation, "asking"> = found ? { action: found.compiled.rule.action, rule: { ...found.sourced } } : { action: this.default, rule: { action: this.default, source: "default" } };
    // A part not read exactly may run a command a deny or ask rule names without the unwrapping finding
    // it (`$x file`): while such rules exist, it is never allowed unasked, whatever else allows it.
    if (decided.action === "allow" && unit.kind === "command" && unit.opaque) {
      const guard = all.find((entry) => entry.compiled.rule.action !== "allow" && entry.compiled.rule.command !== undefined && (!entry.compiled.rule.tool || entry.compiled.matchesTool(unit.tool)));
      if (guard) return { action: "ask", rule: { ...guard.sourced } };
    }
    // An edit of `.git`, `.zi`, the hooks path or ZI_HOME (a hook that runs at the next commit, the
    // settings that hold these rules) is allowed only by a rule whose literal path names that place:
    // never by an effect, tool or default allow, nor by a wildcard that happens to reach it (`**`).
    if (decided.action === "allow" && unit.kind === "path" && unit.protectedBy !== undefined && !found?.compiled.reaches(unit.protectedBy, unit.root)) {
      return { action: "ask", rule: decided.rule };
    }
    return decided;
  }
}
