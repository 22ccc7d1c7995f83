import { type CompactionSettings, DEFAULT_RETRY, type RetrySettings } from "./agent-session-options.js";
import type { QueueMode } from "../wire/session-types.js";
import type { BudgetSettings } from "../wire/budget-types.js";
import type { SettingsScope, SettingsStore } from "../config/settings-store.js";
import { warnOnStderr, type Warn } from "../config/stderr-warning.js";

const QUEUE_MODES: ReadonlySet<unknown> = new Set(["one-at-a-time", "all"]);

interface Range {
  min: number;
  max: number;
  integer: boolean;
}

/**
 * The documented range of every numeric tunable (docs/models.md). A value outside it is clamped to
 * the nearest end, with one stderr line: a `maxAttempts` of a million with no delay would otherwise
 * hammer a failing provider (1,223 requests in 3 s were measured before these bounds).
 */
export const TUNING_RANGES = {
  retry: {
    maxAttempts: { min: 0, max: 10, integer: true },
    baseDelayMs: { min: 100, max: 60_000, integer: true },
    maxDelayMs: { min: 100, max: 300_000, integer: true },
  },
  compaction: {
    reserveTokens: { min: 1024, max: 1_000_000, integer: true },
    keepRecentTokens: { min: 1024, max: 1_000_000, integer: true },
  },
} as const satisfies Record<string, Record<string, Range>>;

type RetryKey = keyof typeof TUNING_RANGES.retry;

/**
 * The session's tunables from settings.json (`retry`, `compaction`, `steeringMode`, `followUpMode`).
 * Only well-typed values are taken (anything else falls back to the default) and numbers are clamped
 * to TUNING_RANGES. A project's `.zi/settings.json` replaces the global value of a key whole, except
 * that an untrusted project may make `retry` only more cautious: fewer attempts, longer delays.
 */
export class SessionTuning {
  constructor(
    private readonly settings: SettingsStore,
    private readonly projectTrusted: boolean,
    private readonly warn: Warn = warnOnStderr,
  ) {}

  retry(): Partial<RetrySettings> {
    const global = this.numbers("global", "retry");
    if (!this.settings.has("project", "retry")) return global;
    const project = this.numbers("project", "retry");
    if (this.projectTrusted) return project;
    // Untrusted: start from what applies without the project file; take only the cautious changes.
    const base: RetrySettings = { ...DEFAULT_RETRY, ...global };
    const cautious: Partial<RetrySettings> = { ...base };
    const take = (key: RetryKey, value: number | undefined, safer: boolean) => {
      if (value === undefined) return;
      if (safer) cautious[key] = value;
      else this.warn(`project settings: retry.${key} ${value} ignored (an untrusted project may not raise retrying; base ${base[key]})`);
    };
    take("maxAttempts", project.maxAttempts, (project.maxAttempts ?? 0) <= base.maxAttempts);
    take("baseDelayMs", project.baseDelayMs, (project.baseDelayMs ?? 0) >= base.baseDelayMs);
    take("maxDelayMs", project.maxDelayMs, (project.maxDelayMs ?? 0) >= base.maxDelayMs);
    // A longer base delay than the cap would be capped away: the cap follows it (more cautious still).
    cautious.maxDelayMs = Math.max(cautious.maxDelayMs!, cautious.baseDelayMs!);
    return cautious;
  }

  compaction(): Partial<CompactionSettings> {
    const scope = this.settings.has("project", "compaction") ? "project" : "global";
    const picked: Partial<CompactionSettings> = this.numbers(scope, "compaction");
    const enabled = this.object(scope, "compaction").get("enabled");
    if (typeof enabled === "boolean") picked.enabled = enabled;
    return picked;
  }

  /** `budget` ({ run?, session? } of BUDGET_NAMES); the session checks it and warns about what it cannot take. */
  budget(): BudgetSettings | undefined {
    const scope = this.projectTrusted && this.settings.has("project", "budget") ? "project" : "global";
    const value = this.settings.getScoped(scope, "budget");
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as BudgetSettings) : undefined;
  }

  queueMode(key: "steeringMode" | "followUpMode"): QueueMode | undefined {
    const value = this.settings.get(key);
    return QUEUE_MODES.has(value) ? (value as QueueMode) : undefined;
  }

  private numbers<K extends keyof typeof TUNING_RANGES>(scope: SettingsScope, key: K): Partial<Record<keyof (typeof TUNING_RANGES)[K], number>> {
    const source = this.object(scope, key);
    const ranges: Record<string, Range> = TUNING_RANGES[key];
    const picked: Record<string, number> = {};
    for (const [name, range] of Object.entries(ranges)) {
      const value = source.get(name);
      if (typeof value !== "number" || !Number.isFinite(value)) continue;
      const bounded = Math.min(range.max, Math.max(range.min, range.integer ? Math.round(value) : value));
      if (bounded !== value) this.warn(`${scope} settings: ${key}.${name} ${value} is outside ${range.min}..${range.max}; using ${bounded}`);
      picked[name] = bounded;
    }
    if (key === "retry" && picked.maxDelayMs !== undefined && picked.baseDelayMs !== undefined && picked.maxDelayMs < picked.baseDelayMs) {
      picked.maxDelayMs = picked.baseDelayMs;
    }
    return picked as Partial<Record<keyof (typeof TUNING_RANGES)[K], number>>;
  }

  private object(scope: SettingsScope, key: string): Map<string, unknown> {
    const value = this.settings.getScoped(scope, key);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? new Map(Object.entries(value)) : new Map();
  }
}
