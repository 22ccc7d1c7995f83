import type { JournalModel } from "../journal/journal-view-types.js";
import type { ModelRuntime } from "../models/model-runtime.js";
import type { ModelListOptions, ModelPort } from "../ports/model.port.js";
import { publicModel } from "../models/public-model.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { SessionThinking } from "./session-thinking.js";
import type { CatalogModel, PublicModel } from "../wire/session-types.js";

/**
 * `model.*`. Selecting resolves the model (not_found / operation_failed come from the runtime),
 * journals `model_change`, announces `model_changed` and re-clamps the thinking level. Selecting
 * while a run is active is allowed: the next model call uses the new model.
 *
 * A resumed session's model is resolved by `ensureRestored()` (resolving may load the provider
 * catalogue); the CLI's composition root awaits it before `ready`, embedders may leave it to the
 * first run, and until then the state says `unselected`. If it cannot be
 * resolved, the session stays unselected and says why on stderr.
 */
export class SessionModels implements ModelPort {
  private selections: Promise<unknown> = Promise.resolve();
  private generation = 0;
  private restoring: Promise<void> | undefined;

  constructor(
    private readonly runtime: ModelRuntime,
    private readonly store: SessionStateStore,
    private readonly recorder: JournalAppender,
    private readonly thinking: SessionThinking,
    private toRestore: JournalModel | null,
    private readonly warn: (message: string) => void,
  ) {}

  /** True while a model restored from the journal is still to be resolved. */
  get restorePending(): boolean {
    return this.toRestore !== null || this.restoring !== undefined;
  }

  list(options?: ModelListOptions): Promise<CatalogModel[]> {
    return this.runtime.list(options);
  }

  /** Selections apply in request order, whatever order their resolutions finish in. */
  select(provider: string, id: string): Promise<PublicModel> {
    this.generation++;
    this.toRestore = null;
    const selection = this.selections.then(() => this.apply(provider, id));
    this.selections = selection.catch(() => undefined);
    return selection;
  }

  ensureRestored(): Promise<void> {
    if (this.restoring) return this.restoring;
    const target = this.toRestore;
    if (!target) return Promise.resolve();
    this.toRestore = null;
    const attempt = this.restore(target, this.generation);
    this.restoring = attempt;
    void attempt.finally(() => {
      if (this.restoring === attempt) this.restoring = undefined;
    });
    return attempt;
  }

  private async restore(target: JournalModel, generation: number): Promise<void> {
    try {
      const resolved = await this.runtime.resolve(target.provider, target.modelId);
      // A model.select issued meanwhile wins over the journal's older choice.
      if (generation !== this.generation) return;
      await this.store.setModel(resolved);
      await this.thinking.reclamp();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.warn(`cannot restore the session's model ${target.provider}/${target.modelId} (${reason}); no model is selected`);
    }
  }

  private async apply(provider: string, id: string): Promise<PublicModel> {
    const resolved = await this.runtime.resolve(provider, id);
    const { delivered } = this.recorder.append({
      type: "model_change",
      provider: resolved.descriptor.provider,
      modelId: resolved.descriptor.id,
    });
    await delivered;
    await this.store.setModel(resolved);
    await this.thinking.reclamp();
    return publicModel(resolved.descriptor);
  }
}
