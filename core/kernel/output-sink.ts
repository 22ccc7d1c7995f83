/** Where frames go: the real stdout in production, an in-memory stream in kernel tests. */
export interface OutputSink {
  /** Writes one batch; `done` runs once the bytes have left the process (or failed to). */
  write(data: string, done: (error?: Error | null) => void): void;
}
