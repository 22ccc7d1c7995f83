import { Parser } from "yaml";

type CstNode = { type: string; items?: { key?: unknown; value?: unknown }[]; value?: unknown };

/**
 * The `yaml` library's composer recurses per nesting level, and 5,000 nested collections overflow
 * the stack. Its parser (the CST) is iterative, so the depth is measured there first, with an explicit
 * stack, and the same bound as the JSON files applies before anything recursive runs.
 */
export function yamlDeeperThan(text: string, maxDepth: number): boolean {
  const stack: [CstNode, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token as CstNode, 0]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) return true;
    if (node.type === "document" && node.value) stack.push([node.value as CstNode, depth]);
    for (const item of node.items ?? []) {
      for (const child of [item.key, item.value]) if (child && typeof child === "object") stack.push([child as CstNode, depth + 1]);
    }
  }
  return false;
}
