import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk";
import type { ZiMethodClient } from "../boot/in-process-methods.js";
import type { ModelPort } from "../ports/model.port.js";
import { THINKING_LEVELS, type CatalogModel, type ThinkingLevel } from "../wire/session-types.js";

export const MODEL_OPTION = "model";
export const THINKING_OPTION = "thought_level";
/** The model menu's value while no model is selected (no `defaultModel`, nothing recorded in the journal). */
export const NO_MODEL = "none";

const modelValue = (model: { provider: string; id: string }): string => `${model.provider}/${model.id}`;

/**
 * ACP v1 offers model choice through session config options. Zi exposes two: `model` (the models
 * whose credentials are configured, grouped by provider) and `thought_level` (the levels the selected
 * model supports; only for a reasoning model). Reading them is `session.get_state` and the list
 * `model.list` answers; setting one is `model.select` / `thinking.select`, through the session's
 * method client.
 */
export class AcpConfigOptions {
  /**
   * `models`: the session's model port, asked for the configured models only. Copying the whole
   * catalogue (~970 models) for the few shown here cost ~1.5 ms of every session/new
   * (docs/performance.md, ACP, Session 38); through the method client, a JSON copy on top (Session 33).
   */
  constructor(
    private readonly methods: ZiMethodClient,
    private readonly models: Pick<ModelPort, "list">,
  ) {}

  async list(): Promise<acp.SessionConfigOption[]> {
    const [state, catalog] = await Promise.all([this.methods.call("session.get_state"), this.models.list({ configuredOnly: true })]);
    const current = state.model.type === "selected" ? modelValue(state.model) : NO_MODEL;
    const options: acp.SessionConfigOption[] = [
      { id: MODEL_OPTION, name: "Model", category: "model", type: "select", currentValue: current, options: this.modelChoices(catalog, current) },
    ];
    const levels = state.supportedThinkingLevels;
    if (state.model.type === "selected" && levels.length > 1) {
      options.push({
        id: THINKING_OPTION,
        name: "Thinking",
        category: "thought_level",
        type: "select",
        currentValue: state.thinkingLevel,
        options: levels.map((level) => ({ value: level, name: level })),
      });
    }
    return options;
  }

  async set(configId: string, value: string): Promise<void> {
    if (configId === MODEL_OPTION) {
      const slash = value.indexOf("/");
      if (slash <= 0) throw RequestError.invalidParams(undefined, `a model is "provider/id", got ${JSON.stringify(value)}`);
      await this.methods.call("model.select", { provider: value.slice(0, slash), id: value.slice(slash + 1) });
    } else if (configId === THINKING_OPTION) {
      if (!(THINKING_LEVELS as readonly string[]).includes(value)) throw RequestError.invalidParams(undefined, `unknown thinking level ${JSON.stringify(value)}`);
      await this.methods.call("thinking.select", { level: value as ThinkingLevel });
    } else {
      throw RequestError.invalidParams(undefined, `unknown config option ${JSON.stringify(configId)}`);
    }
  }

  private modelChoices(catalog: readonly CatalogModel[], current: string): acp.SessionConfigSelectOptions {
    const byProvider = new Map<string, acp.SessionConfigSelectOption[]>();
    if (current === NO_MODEL) byProvider.set("", [{ value: NO_MODEL, name: "No model selected" }]);
    for (const model of catalog) {
      const list = byProvider.get(model.provider) ?? [];
      list.push({ value: modelValue(model), name: model.name });
      byProvider.set(model.provider, list);
    }
    if (byProvider.size <= 1) return [...byProvider.values()].flat();
    return [...byProvider].map(([provider, options]) => ({ group: provider || "none", name: provider || "None", options }));
  }
}
