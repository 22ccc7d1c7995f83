/**
 * Whether a model call may read more of its provider's response: closed while the session's backlog
 * of that call is at its bound. HTTP response bodies wait on it before each read (see gated-fetch.ts),
 * so a stalled session stops reading the socket and TCP pushes back on the provider.
 */
export class ReadGate {
  private closed = false;
  private released = false;
  private waiters: (() => void)[] = [];
  /**
   * The `type` of a provider error event seen in this call's response body (`server_error`), if any:
   * SDKs keep only the error's message, and the retry decision needs the type (gated-fetch.ts).
   */
  streamErrorType: string | undefined;

  /** Undefined when reading may go on now, else a promise that resolves once it may. */
  wait(): Promise<void> | undefined {
    if (!this.closed || this.released) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  set open(open: boolean) {
    this.closed = !open;
    if (open) this.wake();
  }

  /** For good (the call ended or was aborted): a read must never wait for a consumer that is gone. */
  release(): void {
    this.released = true;
    this.wake();
  }

  private wake(): void {
    // Opened after every event the session takes: nothing to copy when no read waits (the usual case).
    if (this.waiters.length === 0) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
