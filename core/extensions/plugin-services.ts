import type { AgentSession } from "../session/agent-session.js";
import type { ChildSessionFactory } from "../session/child-session-factory.js";

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
 * What a compiled-in plugin gets besides the extension API (extension files never do): the parent
 * session's tool set and substrate journal entries, child sessions, the project's `.zi/` with its
 * trust decision, and the way to report a user file it could not use.
 */
export interface PluginServices {
  readonly session: Pick<AgentSession, "appendSubagentEntry" | "toolList" | "getState">;
  readonly childSessions: Pick<ChildSessionFactory, "create">;
  readonly project: ProjectContent;
  /**
   * A user file (or directory) the plugin could not use: one stderr line (`zi: extension <source> was
   * skipped: <error>`, or `was not loaded` for content left out whole) and an `extension_error` event.
   */
  report(source: string, error: string, outcome?: "skipped" | "not loaded"): Promise<void>;
}
