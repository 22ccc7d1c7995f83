import type { CatalogModel, PublicModel } from "../wire/session-types.js";

export const MODELS = Symbol.for("zi.port.models");

/**
 * `configuredOnly`: only the models a call can use now (faux, and providers with credentials), in the
 * same order; the rest of the catalogue (~970 models) is neither made nor copied. ACP's model option
 * asks for it on every `session/new`.
 */
export interface ModelListOptions {
  configuredOnly?: boolean;
}

/** What `model.*` methods need. Unknown provider/id throws `not_found`; no credentials, `operation_failed`. */
export interface ModelPort {
  list(options?: ModelListOptions): Promise<CatalogModel[]>;
  select(provider: string, id: string): Promise<PublicModel>;
}
