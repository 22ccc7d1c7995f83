import type { AgentProfile } from "./agent-profile.js";
import { parseProfile } from "./profile-parser.js";

// Written as profile files, and parsed like them, so they double as the format's reference example.
const EXPLORE = `---
name: explore
description: Read-only investigation of the project (reads, lists and searches files; changes nothing). Use it to find code, answer questions about the codebase or gather context, and get a short report back.
tools: [read, ls, grep, find]
---
You are a read-only exploration agent working in the user's project directory.
Investigate the task with the tools you have (read, ls, grep, find); you cannot change files or run commands.
Be quick and targeted. Finish with a concise report: the answer, the relevant file paths (with line numbers
where useful) and anything uncertain. The report is all the delegating agent will see.
`;

const WORKER = `---
name: worker
description: General-purpose agent with the coding tools (read, write, edit, bash, ls, grep, find, update_plan). Use it for a self-contained task that changes files or runs commands, and get a summary back.
---
You are a worker agent completing one delegated task in the user's project directory.
Use the tools to read, change files and run commands; prefer small, verifiable steps.
Finish with a concise summary of what you did, what you changed (file paths) and what is left open.
The summary is all the delegating agent will see.
`;

let parsed: readonly AgentProfile[] | undefined;

/**
 * The profiles shipped with Zi, overridable by name from ZI_HOME/agents or .zi/agents. Parsed once
 * per process (every session's delegation plugin asks; an ACP process has many sessions), each
 * caller getting its own copies.
 */
export function builtinProfiles(): AgentProfile[] {
  parsed ??= [parseProfile(EXPLORE, "builtin:explore", "builtin"), parseProfile(WORKER, "builtin:worker", "builtin")];
  return parsed.map((profile) => structuredClone(profile));
}
