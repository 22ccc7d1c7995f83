/** Receives a one-line warning. Injected so tests can capture warnings without touching stderr. */
export type Warn = (message: string) => void;

/** stdout belongs to the protocol: every warning goes to stderr, flattened to a single line. */
export const warnOnStderr: Warn = (message) => {
  process.stderr.write(`zi: warning: ${message.replace(/\s*[\r\n]+\s*/g, " ")}\n`);
};
