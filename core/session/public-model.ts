import type { PublicModel } from "../wire/session-types.js";

/** Copies exactly the public descriptor fields, whatever else the source object carries. */
export function publicModel(model: PublicModel): PublicModel {
  const { provider, id, name, reasoning, input, contextWindow, maxTokens } = model;
  return { provider, id, name, reasoning, input: [...input], contextWindow, maxTokens };
}
