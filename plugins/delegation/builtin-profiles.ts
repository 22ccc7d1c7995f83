import type { AgentProfile } from "./agent-profile.js";

// The profiles shipped with Zi, as the parser would make them of profile files (the profile-file form
// of each is checked by test/plugins/delegation/builtin-profiles.spec.ts). Kept as data, not parsed
// from YAML: loading the YAML library and its first parse were ~20 ms of CPU on every ACP process's
// way to its first reply, where no profile file exists (docs/performance.md, ACP, Session 33).
const BUILTIN: readonly AgentProfile[] = [
  {
    name: "explore",
    description:
      "Read-only investigation of the project (reads, lists and searches files; changes nothing). Use it to find code, answer questions about the codebase or gather context, and get a short report back.",
    systemPrompt: [
      "You are a read-only exploration agent working in the user's project directory.",
      "Investigate the task with the tools you have (read, ls, grep, find); you cannot change files or run commands.",
      "Be quick and targeted. Finish with a concise report: the answer, the relevant file paths (with line numbers",
      "where useful) and anything uncertain. The report is all the delegating agent will see.",
    ].join("\n"),
    origin: "builtin",
    source: "builtin:explore",
    tools: ["read", "ls", "grep", "find"],
  },
  {
    name: "worker",
    description:
      "General-purpose agent with the coding tools (read, write, edit, bash, ls, grep, find, update_plan). Use it for a self-contained task that changes files or runs commands, and get a summary back.",
    systemPrompt: [
      "You are a worker agent completing one delegated task in the user's project directory.",
      "Use the tools to read, change files and run commands; prefer small, verifiable steps.",
      "Finish with a concise summary of what you did, what you changed (file paths) and what is left open.",
      "The summary is all the delegating agent will see.",
    ].join("\n"),
    origin: "builtin",
    source: "builtin:worker",
  },
];

/**
 * The profiles shipped with Zi, overridable by name from ZI_HOME/agents or .zi/agents; each caller
 * gets its own copies (every session's delegation plugin asks; an ACP process has many sessions).
 */
export function builtinProfiles(): AgentProfile[] {
  return BUILTIN.map((profile) => structuredClone(profile));
}
