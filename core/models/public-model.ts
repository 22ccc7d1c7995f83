import type { PublicModel } from "../wire/session-types.js";

/**
 * Copies exactly the public descriptor fields, in this order, whatever else the source object carries
 * (pi-ai's carries base URLs, headers, compat flags): an allow-list, so nothing private can cross RPC by
 * a field added later. A plain object (the wire's), with its own copy of `input`; a field the source
 * lacks is present and undefined (JSON leaves it out). Written out rather than projected through
 * class-transformer, whose 20 KiB were compiled and run before every first response for this one copy.
 */
export function publicModel(model: PublicModel): PublicModel {
  return {
    provider: model.provider,
    id: model.id,
    name: model.name,
    reasoning: model.reasoning,
    input: [...model.input],
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
  };
}
