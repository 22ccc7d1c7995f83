/** One unit of fleet work: a prompt for one Zi session, with its budget (docs/fleet.md). */
export interface ZiTask {
  /** Stable across retries: names the task in heartbeats and logs. */
  taskId: string;
  prompt: string;
  /** The project directory the session works in (the worker's sandbox). */
  cwd: string;
  /** The worker's ZI_HOME: settings, credentials, and the journals a retry resumes. */
  ziHome: string;
  /** `provider/id`, e.g. `anthropic/claude-sonnet-4-5`; omitted: the resumed session's model or defaultModel. */
  model?: string;
  /** The run's budget (session.set_budget): maxCostUsd, maxTokens, maxTurns, maxSeconds. */
  budget?: { maxCostUsd?: number; maxTokens?: number; maxTurns?: number; maxSeconds?: number };
  /** A JSON Schema the final answer must match (session.prompt outputSchema). */
  outputSchema?: Record<string, unknown>;
  /** More flags after `--mode rpc` (e.g. `--faux-script FILE` in tests). */
  ziArgs?: string[];
  /** The zi entry point; default: the one `zi/client` was built with. */
  ziPath?: string;
}

/** What the activity returns: how the run ended, its answer, what it spent, and the journal it kept. */
export interface ZiTaskResult {
  taskId: string;
  reason: string;
  text: string;
  structured?: unknown;
  budget?: unknown;
  sessionFile: string;
  attempt: number;
  modelCalls: number;
  costUsd: number;
}

/** Heartbeat details: the journal a retry resumes, and the latest event (progress for the workflow's UI). */
export interface ZiHeartbeat {
  sessionFile: string;
  event: string;
  turns: number;
}
