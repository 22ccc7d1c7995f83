import { RpcError } from "../kernel/rpc-error.js";
import type { ModelRuntime } from "../models/model-runtime.js";
import type { ThinkingPort } from "../ports/thinking.port.js";
import type { SettingsWriter } from "./agent-session-options.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import { THINKING_LEVELS } from "../wire/session-types.js";
import type { ThinkingLevel, ThinkingList, ThinkingSelection } from "../wire/session-types.js";

/**
 * `thinking.*`. The session remembers the level last requested (the preference) and runs with
 * that level clamped to the selected model (the effective level, `state.thinkingLevel`). Changing
 * the model re-clamps the preference, so moving to a model without reasoning and back restores it.
 * The journal records each requested level; a resumed session re-clamps it to the restored model.
 */
export class SessionThinking implements ThinkingPort {
  constructor(
    private readonly runtime: ModelRuntime,
    private readonly store: SessionStateStore,
    private readonly recorder: JournalAppender,
    private preferred: ThinkingLevel,
    private readonly settings: SettingsWriter | undefined,
  ) {}

  list(): ThinkingList {
    return { levels: this.store.supportedThinkingLevels, current: this.store.thinkingLevel };
  }

  async select(level: ThinkingLevel, scope: "global" | "project" | undefined): Promise<ThinkingSelection> {
    if (!THINKING_LEVELS.includes(level)) throw new RpcError("operation_failed", `unknown thinking level "${String(level)}"`);
    if (scope !== undefined && !this.settings) {
      throw new RpcError("operation_failed", "this session cannot persist settings");
    }
    this.preferred = level;
    const { delivered } = this.recorder.append({ type: "thinking_level_change", thinkingLevel: level });
    await delivered;
    const effective = this.runtime.clampThinking(this.store.model, level);
    await this.store.setThinkingLevel(effective);
    if (scope !== undefined) await this.settings!.write(scope, { thinkingLevel: level });
    return { requested: level, effective, persisted: scope ?? null };
  }

  /** Applies the preference to the model now selected (after a model change). */
  reclamp(): Promise<void> {
    return this.store.setThinkingLevel(this.runtime.clampThinking(this.store.model, this.preferred));
  }
}
