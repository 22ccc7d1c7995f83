import { Expose, plainToInstance } from "class-transformer";
import type { PublicModel } from "../wire/session-types.js";

/**
 * The public model descriptor as an allow-list: only the `@Expose`d fields are copied out of whatever
 * object a provider describes its model with (pi-ai's carries base URLs, headers, compat flags), so
 * nothing private can cross RPC by a field added later.
 */
class PublicModelProjection implements PublicModel {
  @Expose() provider!: string;
  @Expose() id!: string;
  @Expose() name!: string;
  @Expose() reasoning!: boolean;
  @Expose() input!: ("text" | "image")[];
  @Expose() contextWindow!: number;
  @Expose() maxTokens!: number;
}

/** Copies exactly the public descriptor fields, whatever else the source object carries. */
export function publicModel(model: PublicModel): PublicModel {
  const projected = plainToInstance(PublicModelProjection, model, { excludeExtraneousValues: true, enableImplicitConversion: false });
  // A plain object (the wire's), with its own copy of `input`.
  return { ...projected, input: [...projected.input] };
}
