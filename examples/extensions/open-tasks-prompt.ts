/**
 * open-tasks-prompt: adds the project's open tasks to the system prompt of every run, read when the
 * run starts, so that edits to TASKS.md reach the model without restarting Zi. Loaded as it is by the
 * end-to-end tests (test/e2e/context.e2e.spec.ts) and explained in docs/context.md.
 *
 * Try it: zi prompt --extension examples/extensions/open-tasks-prompt.ts
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ZiExtensionApi } from "../../core/extensions/extension-api.js";

/** Open Markdown checklist items (`- [ ] ...`), at most this many. */
const MAX_TASKS = 20;

export default function (zi: ZiExtensionApi) {
  zi.onSystemPrompt(async ({ cwd, tools }) => {
    const text = await readFile(join(cwd, "TASKS.md"), "utf8").catch(() => "");
    const open = text
      .split("\n")
      .filter((line) => /^\s*[-*] \[ \] /.test(line))
      .slice(0, MAX_TASKS)
      .map((line) => line.trim());
    if (open.length === 0) return undefined; // nothing to add to this run
    const hint = tools.includes("update_plan") ? " Pick one and keep the work plan current with update_plan." : "";
    return `# Open tasks (TASKS.md)\n\n${open.join("\n")}\n\nThese are the project's open tasks.${hint}`;
  });
}
