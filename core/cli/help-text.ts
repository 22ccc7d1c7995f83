import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RUN_EXIT_CODES } from "../json-mode/run-exit-codes.js";

/** "0 completed, 1 failed, ...": from the one table of exit codes, wrapped to fit 80 columns. */
const exitStatus = (): string => {
  const parts = Object.entries(RUN_EXIT_CODES).map(([status, code]) => `${code} ${status.replace(/_/g, " ")}`);
  const lines = ["Exit status (-p, --mode json):"];
  parts.forEach((part, i) => {
    const piece = `${part}${i === parts.length - 1 ? "." : ","}`;
    if (lines[lines.length - 1].length + piece.length + 1 > 78) lines.push(" ");
    lines[lines.length - 1] += ` ${piece}`;
  });
  return lines.join("\n");
};

/**
 * What `zi --help` prints: every mode and what it is for, the main flags, the keys of the interactive
 * mode, the environment, the files Zi reads and where the docs are. Every line fits 80 columns
 * (test/e2e/cli-help.e2e.spec.ts checks it); the one-line forms are USAGE_TEXT, printed on a usage error.
 */
export const helpText = (docsDir: string = packageDocs()): string => `zi: a coding agent, for a person at a terminal and for programs that drive it.

Usage:
  zi [options] [PROMPT...]        interactive session (on a terminal);
                                  PROMPT, when given, is sent first
  zi -p [options] PROMPT...       print mode: one prompt, only the final answer
                                  on stdout; piped stdin is added to the prompt
  zi --mode rpc [options]         JSONL protocol on stdin/stdout, for programs
  zi --mode json [options] PROMPT one prompt, its events as JSON lines
  zi --mode acp [options]         Agent Client Protocol, for editors (Zed, ...)
  zi --mode pi-rpc [pi's flags]   pi 0.73.1's RPC protocol, for pi's clients
  zi prompt                       print the system prompt a session would send
  zi schema                       print the protocol's JSON Schema
  zi export JOURNAL [OUT]         a session as one HTML page a browser opens

Options:
  --model PROVIDER/ID   model to use, e.g. anthropic/claude-sonnet-4-5;
                        offline: faux/echo (answers "Echo: ...")
  --thinking LEVEL      off, minimal, low, medium, high or xhigh
  -c, --continue        continue the latest session of this directory
  --resume              pick a session of this directory to continue
  --session FILE        continue the session journaled in FILE
  --no-session          keep nothing: the session is not written to disk
  --extension PATH      load an extension file (repeatable)
  --trust-project       load this project's own code (.zi/extensions) this run
  --faux-script FILE    scripted answers for the faux/scripted model (tests)
  --output-schema FILE  -p, json: the answer must match this JSON Schema
  --max-cost-usd X, --max-tokens N, --max-turns N, --max-seconds N
                        -p, json: end the run when a budget is reached
  -h, --help            this help;  --version  the version

Interactive keys:
  Enter send (while a run goes on: steer it)   Alt+Enter queue a follow-up
  Shift+Enter new line   Esc interrupt   Ctrl+C twice exit   Up history
  @ complete a file path   / commands (/help lists them, /exit ends)

${exitStatus()}
A tool call that needs approval is denied there (nobody can answer).

Environment:
  ZI_HOME               Zi's own directory (default ~/.zi)
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ... provider keys; or
                        ZI_HOME/auth.json, or ZI_HOME/models.json
  ZI_FAUX_SCRIPT        as --faux-script

Files read:
  ZI_HOME/settings.json, .zi/settings.json     settings, permissions
  ZI_HOME/models.json, ZI_HOME/auth.json       providers, models, keys
  ZI_HOME/AGENTS.md, AGENTS.md / CLAUDE.md     instructions (root to cwd)
  ZI_HOME/SYSTEM.md, APPEND_SYSTEM.md          system prompt (also in .zi/)
  ZI_HOME/mcp.json, .zi/mcp.json               MCP servers
  ZI_HOME/skills/, .zi/skills/, .agents/skills/  skills
  ZI_HOME/extensions/, .zi/extensions/ (trusted) extensions
  Sessions are journaled under ZI_HOME/sessions/.

Docs (interactive.md, protocol.md, models.md, permissions.md, ...):
  ${docsDir}`;

/** The docs/ directory shipped in the package, found upwards from this file (dist/ when built). */
function packageDocs(): string {
  for (let dir = new URL(".", import.meta.url); dir.pathname !== "/"; dir = new URL("..", dir)) {
    if (existsSync(new URL("docs/protocol.md", dir))) return fileURLToPath(new URL("docs/", dir));
  }
  return "docs/ in the zi package";
}
