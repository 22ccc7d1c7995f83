import type { AgentSession } from "../session/agent-session.js";
import type { AgentTool } from "../session/agent-tool.js";
import type { ChildSessionFactory } from "../session/child-session-factory.js";
import type { SettingsStore } from "../config/settings-store.js";

/** The project's `.zi/` directory, and the one decision whether content found there may load. */
export interface ProjectContent {
  /** `<project>/.zi` */
  readonly dir: string;
  /**
   * The project trust decision (core/config/project-trust.ts): the same answer the extension loader
   * uses for `.zi/extensions`. A plugin reading its own files under `dir` follows it.
   */
  readonly trusted: boolean;
  /** Why the project is not trusted and how to trust it, for the one line naming what was skipped. */
  readonly untrustedReason: string;
}

/**
 * Tools a plugin offers and withdraws while Zi runs (MCP servers' tools): unlike `registerTool`, not
 * only while loading. A run in progress sees a change from its next model call.
 */
export interface PluginToolSet {
  /** Replaces every tool this plugin offers at run time; returns the names refused because another owner has them. */
  replace(tools: readonly AgentTool[]): string[];
  /** Work before every model call, e.g. a bounded wait for tools still starting; returns the removal function. */
  beforeModelCall(hook: (signal: AbortSignal) => Promise<void>): () => void;
}

/** Values a plugin reads from user configuration that must never reach frames, journals or stderr. */
export interface PluginSecrets {
  /** Registers a value with the credential redaction stderr gets. */
  add(value: string): void;
  /** `text` with every registered value replaced by `[redacted]`. */
  redact(text: string): string;
}

/**
 * What a compiled-in plugin gets besides the extension API (extension files never do): the parent
 * session's tool set and substrate journal entries, child sessions, the project's `.zi/` with its
 * trust decision, the way to report a user file it could not use, run-time tools, the credential
 * redaction and shutdown work.
 */
export interface PluginServices {
  readonly session: Pick<AgentSession, "appendSubagentEntry" | "appendPermissionEntry" | "toolList" | "getState" | "announce" | "toolGate" | "approvals" | "sandbox">;
  /** `observe` (every child once it exists) is optional so that test doubles need only `create`. */
  readonly childSessions: Pick<ChildSessionFactory, "create"> & Partial<Pick<ChildSessionFactory, "observe">>;
  readonly project: ProjectContent;
  /**
   * A user file (or directory) the plugin could not use: one stderr line (`zi: extension <source> was
   * skipped: <error>`, or `was not loaded` for content left out whole) and an `extension_error` event.
   */
  /** `ZI_HOME/settings.json` and the project's `.zi/settings.json`, read apart (a project may only tighten some keys). */
  readonly settings: Pick<SettingsStore, "getGlobal" | "getProject">;
  report(source: string, error: string, outcome?: "skipped" | "not loaded"): Promise<void>;
  /** This plugin's run-time tools (each plugin gets its own view). */
  readonly tools: PluginToolSet;
  readonly secrets: PluginSecrets;
  /** Work for Zi's shutdown (after the session is disposed, within Zi's shutdown bound). */
  onDispose(hook: () => Promise<void>): void;
}
