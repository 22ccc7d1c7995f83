/**
 * Output bounds shared by the coding tools. They keep one tool result well inside a model's context
 * and inside the protocol's frame bounds; every cut is made on a UTF-8 character boundary.
 */
export const CODING_TOOL_LIMITS = {
  /** Lines and bytes of text one `read` call or one `bash` result returns. */
  maxOutputLines: 2000,
  maxOutputBytes: 50 * 1024,
  /** The tail carried by each streamed `bash` update, and how often updates may be sent. */
  updateTailLines: 200,
  updateTailBytes: 16 * 1024,
  updateIntervalMs: 100,
  /** `bash` timeout: default and ceiling, and the SIGTERM → SIGKILL grace period. */
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 3_600_000,
  killGraceMs: 2000,
  /** After the shell exits, how long to wait for background jobs still holding its output pipes. */
  pipeDrainMs: 500,
  /** `ls`, `find` and `grep` result counts: default and ceiling. */
  defaultListLimit: 500,
  maxListLimit: 5000,
  defaultFindLimit: 1000,
  defaultGrepLimit: 100,
  maxGrepLimit: 2000,
  /** Context lines `grep` may show before and after each match. */
  maxGrepContext: 20,
  /** A `grep` match line is shown up to this many characters. */
  grepLineChars: 500,
  /** Files larger than this are skipped by `grep` and refused by `edit`. */
  maxScanFileBytes: 32 * 1024 * 1024,
  /**
   * Images `read` hands to a model: at most this many bytes (base64 of 3.75 MiB stays under the 5 MB
   * that Anthropic accepts per image; OpenAI and Google accept more) and pixels per side (Anthropic's bound).
   */
  maxImageBytes: 3_750_000,
  maxImageSide: 8000,
  /** Bytes sniffed for a NUL to call a file binary. */
  binarySniffBytes: 8192,
} as const;
