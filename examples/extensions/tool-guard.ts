/**
 * tool-guard: an extension's gate before every tool call (docs/permissions.md, "The extension gate"),
 * loaded as it is by the end-to-end tests (test/e2e/permissions.e2e.spec.ts).
 *
 * Try it: zi --mode rpc --extension examples/extensions/tool-guard.ts
 *
 * - denies writes and edits of secret files (`.env`, `*.pem`), with a message the model reads;
 * - rewrites `bash` commands that start with `sudo ` to run without it (the new arguments are
 *   checked against the tool's schema again, and the policy then judges the rewritten command);
 * - allows `ls` and `read` without a question even under an `ask` policy (a `deny` rule still wins).
 */
import { basename } from "node:path";
import type { ZiExtensionApi } from "../../core/extensions/extension-api.js";

const SECRET = /^\.env(\..*)?$|\.pem$/;

export default function toolGuard(zi: ZiExtensionApi): void {
  zi.onToolCall((call) => {
    const path = typeof call.args.path === "string" ? call.args.path : undefined;
    if ((call.toolName === "write" || call.toolName === "edit") && path !== undefined && SECRET.test(basename(path))) {
      return { action: "deny", message: `tool-guard: ${basename(path)} holds secrets; leave it alone.` };
    }
    if (call.toolName === "bash" && typeof call.args.command === "string" && call.args.command.startsWith("sudo ")) {
      return { action: "rewrite", args: { ...call.args, command: call.args.command.slice("sudo ".length) } };
    }
    if (call.toolName === "ls" || call.toolName === "read") return { action: "allow" };
    return undefined;
  });
}
