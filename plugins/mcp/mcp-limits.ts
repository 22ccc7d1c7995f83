/** The MCP plugin's bounds and defaults, in one place (docs/mcp.md states each). */
export const MCP_LIMITS = {
  /** How long a prompt waits for a server still starting, counted from the server's start (per server: `promptWaitMs`). */
  defaultPromptWaitMs: 10_000,
  /** A server that has not answered `initialize` and `tools/list` by then is failed (per server: `startupTimeoutMs`). */
  defaultStartupTimeoutMs: 30_000,
  /** One tool call without a response (progress notifications restart it) (per server: `toolTimeoutMs`). */
  defaultToolTimeoutMs: 120_000,
  /** However much progress it reports, a call ends after this long. */
  maxToolCallMs: 3_600_000,
  /** Restarts of a server that crashed, each on the next use of one of its tools. */
  maxRestarts: 3,
  /** Text of one tool result given to the model, in UTF-8 bytes (the coding tools' bound). */
  maxOutputBytes: 50 * 1024,
  /** Images of one tool result, and their total base64 size. */
  maxImages: 8,
  maxImageBytes: 8 * 1024 * 1024,
  /** A stdout line of a stdio server longer than this kills the server (bounded memory). */
  maxLineBytes: 16 * 1024 * 1024,
  /** The last bytes of a server's stderr quoted in its failure reason. */
  stderrTailBytes: 1024,
  /** Tool-name bound of every provider: at most 64 of [A-Za-z0-9_-]. */
  maxToolNameChars: 64,
  /** `toolSearch: "auto"` offers the search tool instead of every schema once MCP tools exceed this count. */
  searchThresholdTools: 30,
  /** A tool's input schema is refused (the tool left out, with a note) past this nesting or this JSON size. */
  maxSchemaDepth: 64,
  maxSchemaBytes: 64 * 1024,
  /** Tools one search returns (with their schemas). */
  searchResults: 8,
  /** Stop: stdin closed, then SIGTERM to the group, then SIGKILL, each after this grace (inside Zi's 2 s shutdown bound). */
  stopGraceMs: 400,
  /** Environment and header values at least this long are registered with the credential redaction. */
  minSecretChars: 6,
} as const;
