/** Where frames go: the real stdout in production, an in-memory stream in kernel tests. */
export interface OutputSink {
  /**
   * Writes one batch, JSON lines as text or as UTF-8 bytes (a buffer is the writer's, and not written
   * to again); `done` runs once the bytes have left the process (or failed to), writes completing in order.
   */
  write(data: string | Buffer, done: (error?: Error | null) => void): void;
}
