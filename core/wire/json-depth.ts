/**
 * Depth-safe JSON. V8's `JSON.parse` itself is iterative, but everything that walks the parsed value
 * afterwards (validators, transformers, `JSON.stringify`, structured clone) recurses, and 20,000 nested
 * arrays overflow the stack there, far from the input that caused it. The bound is therefore checked
 * once, right after parsing, by an explicit-stack walk whose cost is the number of containers, not the
 * length of the text (a megabyte of prompt text is one string node).
 */

/** Zi's own bound on JSON nesting (arrays and objects), for protocol records and the files people write. */
export const MAX_JSON_DEPTH = 64;

/**
 * Journals hold what models produced (tool-call arguments nest as deep as a model likes), so their lines
 * get a looser bound, still far below what the recursive walkers downstream can take.
 */
export const MAX_STORED_JSON_DEPTH = 1024;

/** Thrown by `parseJson` for JSON nested deeper than the bound; a SyntaxError, so parse-error paths apply. */
export class JsonDepthError extends SyntaxError {
  constructor(
    readonly maxDepth: number,
    /** The top-level key (of an object) under which the bound was exceeded, when there is one. */
    readonly topLevelKey: string | undefined,
    /** The key under `topLevelKey` (of an object) under which it was exceeded: a request's parameter. */
    readonly secondKey?: string,
  ) {
    super(`JSON nests deeper than ${maxDepth} levels`);
    this.name = "JsonDepthError";
  }
}

/** `JSON.parse` followed by the depth bound; throws SyntaxError (or JsonDepthError) like JSON.parse. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const value: unknown = JSON.parse(text);
  // Nesting deeper than maxDepth needs an opening and a closing bracket per level: shorter text cannot,
  // and most records and journal lines are shorter, so they skip the walk (journal resume reads 100k).
  if (text.length >= 2 * (maxDepth + 1)) assertJsonDepth(value, maxDepth);
  return value;
}

/** Throws JsonDepthError when `value` nests containers deeper than `maxDepth` (the top level counts 1). */
export function assertJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): void {
  if (!nestsDeeper(value, maxDepth)) return;
  // The top-level key is looked for only once the bound is known to be exceeded.
  const top = deepKey(value, maxDepth - 1);
  const second = top === undefined ? undefined : deepKey((value as Record<string, unknown>)[top], maxDepth - 2);
  throw new JsonDepthError(maxDepth, top, second);
}

/** The key of an object whose value nests deeper than `maxDepth`; undefined for anything else. */
function deepKey(value: unknown, maxDepth: number): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).find((key) => nestsDeeper((value as Record<string, unknown>)[key], maxDepth));
}

/** Whether `value` nests containers deeper than `maxDepth` (the top level counts 1), without recursion. */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  return nestsDeeper(value, maxDepth);
}

/** Whether `value` nests containers deeper than `maxDepth`: an explicit-stack walk, two parallel stacks. */
function nestsDeeper(value: unknown, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    const items = Array.isArray(node) ? node : Object.values(node);
    for (const item of items) {
      if (typeof item === "object" && item !== null) {
        nodes.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
