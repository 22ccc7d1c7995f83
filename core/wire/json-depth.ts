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
  ) {
    super(`JSON nests deeper than ${maxDepth} levels`);
    this.name = "JsonDepthError";
  }
}

/** `JSON.parse` followed by the depth bound; throws SyntaxError (or JsonDepthError) like JSON.parse. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const value: unknown = JSON.parse(text);
  assertJsonDepth(value, maxDepth);
  return value;
}

/** Throws JsonDepthError when `value` nests containers deeper than `maxDepth` (the top level counts 1). */
export function assertJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): void {
  if (typeof value !== "object" || value === null) return;
  const topIsObject = !Array.isArray(value);
  // Each frame: a container, its depth, and the top-level key it hangs under.
  const stack: [object, number, string | undefined][] = [[value, 1, undefined]];
  while (stack.length > 0) {
    const [node, depth, top] = stack.pop()!;
    if (depth > maxDepth) throw new JsonDepthError(maxDepth, top);
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === "object" && item !== null) stack.push([item, depth + 1, top]);
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === "object" && item !== null) stack.push([item, depth + 1, depth === 1 && topIsObject ? key : top]);
    }
  }
}
