/** Where frames go: the real stdout in production, an in-memory stream in kernel tests. */
export interface OutputSink {
  /**
   * Writes one batch, JSON lines as text or as UTF-8 bytes; `done` runs once the bytes have left the
   * process (or failed to), writes completing in order. A buffer stays the writer's: once its `done`
   * has run the writer may fill it again, so a sink keeps no reference to it past that.
   */
  write(data: string | Buffer, done: (error?: Error | null) => void): void;
}
