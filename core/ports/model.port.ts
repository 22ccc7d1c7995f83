import type { CatalogModel, PublicModel } from "../wire/session-types.js";

export const MODELS = Symbol.for("zi.port.models");

/** What `model.*` methods need. Unknown provider/id throws `not_found`; no credentials, `operation_failed`. */
export interface ModelPort {
  list(): Promise<CatalogModel[]>;
  select(provider: string, id: string): Promise<PublicModel>;
}
