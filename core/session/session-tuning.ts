import type { CompactionSettings, RetrySettings } from "./agent-session-options.js";
import type { QueueMode } from "../wire/session-types.js";
import type { SettingsStore } from "../config/settings-store.js";

const QUEUE_MODES: ReadonlySet<unknown> = new Set(["one-at-a-time", "all"]);

/**
 * The session's tunables from settings.json (`retry`, `compaction`, `steeringMode`, `followUpMode`).
 * Only well-typed values are taken; anything else falls back to the session's defaults.
 */
export class SessionTuning {
  constructor(private readonly settings: SettingsStore) {}

  retry(): Partial<RetrySettings> {
    return this.numbers("retry", ["maxAttempts", "baseDelayMs", "maxDelayMs"]);
  }

  compaction(): Partial<CompactionSettings> {
    const picked: Partial<CompactionSettings> = this.numbers("compaction", ["reserveTokens", "keepRecentTokens"]);
    const enabled = this.object("compaction").get("enabled");
    if (typeof enabled === "boolean") picked.enabled = enabled;
    return picked;
  }

  queueMode(key: "steeringMode" | "followUpMode"): QueueMode | undefined {
    const value = this.settings.get(key);
    return QUEUE_MODES.has(value) ? (value as QueueMode) : undefined;
  }

  private numbers<K extends string>(key: string, names: readonly K[]): Partial<Record<K, number>> {
    const source = this.object(key);
    const picked: Partial<Record<K, number>> = {};
    for (const name of names) {
      const value = source.get(name);
      if (typeof value === "number" && Number.isFinite(value) && value >= 0) picked[name] = value;
    }
    return picked;
  }

  private object(key: string): Map<string, unknown> {
    const value = this.settings.get(key);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? new Map(Object.entries(value)) : new Map();
  }
}
