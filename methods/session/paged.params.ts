import { IsInt, Max, Min } from "class-validator";
import { Optional } from "../../core/family/family-api.js";

/**
 * The `start`/`limit` window of a paged method, bounded by that method's own page size. Each call makes
 * a new class: class-validator keeps decorators per class, so every method's params class extends a
 * window of its own and one method's bound never reaches another's.
 */
export function pagedParams(maxItems: number) {
  class PagedParams {
    @Optional()
    @IsInt()
    @Min(0)
    start?: number;

    @Optional()
    @IsInt()
    @Min(1)
    @Max(maxItems)
    limit?: number;
  }
  return PagedParams;
}
