import type { AgentSession } from "../session/agent-session.js";
import type { ChildSessionFactory } from "../session/child-session-factory.js";

/** A directory of user-provided files a plugin reads, and where it came from. */
export interface PluginSourceDir {
  dir: string;
  origin: "global" | "project";
}

/**
 * What a compiled-in plugin gets besides the extension API (extension files never do): the parent
 * session's tool set and substrate journal entries, child sessions, and the directories it may read.
 */
export interface PluginServices {
  readonly session: Pick<AgentSession, "appendSubagentEntry" | "toolList" | "getState">;
  readonly childSessions: Pick<ChildSessionFactory, "create">;
  /**
   * `ZI_HOME/agents`, then the project's `.zi/agents` only when project content may load (the same
   * decision as for `.zi/extensions`, ExtensionDiscovery.loadsProjectContent), by rising priority.
   */
  readonly agentDirs: readonly PluginSourceDir[];
  /** A broken user file: one stderr line and an `extension_error` event naming `source`. */
  report(source: string, error: string): Promise<void>;
}
