const REDACTED = "[redacted]";
/**
 * Frames and journal lines are JSON: a "secret" as short as `1` or `true` (a placeholder someone set)
 * would rewrite protocol text itself. Real provider keys are far longer; shorter values are still
 * scrubbed from stderr, not from JSON (nor held back in streamed text).
 */
export const MIN_JSON_SECRET_LENGTH = 16;
// pi-ai's marker for ambient cloud credentials (AWS profiles, Google ADC): not a secret itself.
const AMBIENT_CREDENTIALS = "<authenticated>";

/**
 * The process's one set of secrets and the three ways Zi scrubs them: plain text (stderr), JSON text
 * (frames, journal lines) and streamed text (`StreamScrubber`). Every credential source feeds it (each
 * session's credential store, extensions' and MCP servers' `secrets.add`); nothing replaces it, so a
 * secret one ACP session learned is scrubbed from every other session's frames too.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  /** Longest first, so a key that contains another key is scrubbed whole. */
  private plain: string[] | undefined;
  /** Each long-enough secret as it appears inside a JSON string (escaped), longest first. */
  private jsonForms: string[] | undefined;
  private streamed: string[] | undefined;

  /** Marks a value (an API key, a custom auth header) as something every output must scrub. */
  add(value: string): void {
    if (!value || value === AMBIENT_CREDENTIALS || this.secrets.has(value)) return;
    this.secrets.add(value);
    this.plain = this.jsonForms = this.streamed = undefined;
  }

  get size(): number {
    return this.secrets.size;
  }

  /** Replaces every known secret in `text` with `[redacted]`. */
  redact(text: string): string {
    if (this.secrets.size === 0) return text;
    this.plain ??= [...this.secrets].sort((a, b) => b.length - a.length);
    return replaceAll(text, this.plain);
  }

  /**
   * `redact` for JSON text written by JSON.stringify (a frame, a journal line): each secret of at least
   * MIN_JSON_SECRET_LENGTH characters, as it appears inside a JSON string, becomes `[redacted]`. The
   * result is never longer than the input and stays valid JSON (the marker needs no escaping).
   */
  redactJson(text: string): string {
    if (this.secrets.size === 0) return text;
    return replaceAll(text, this.jsonSecrets());
  }

  /**
   * `redactJson` for JSON given as UTF-8 bytes: searched as bytes, so a frame without a secret (nearly
   * every one) is passed on as it is, neither decoded nor copied; one with a secret becomes scrubbed text.
   */
  redactJsonBytes(bytes: Buffer): Buffer | string {
    if (this.secrets.size === 0) return bytes;
    const forms = this.jsonSecrets();
    for (const form of forms) if (bytes.includes(form)) return replaceAll(bytes.toString("utf8"), forms);
    return bytes;
  }

  private jsonSecrets(): string[] {
    this.jsonForms ??= this.long().map((secret) => JSON.stringify(secret).slice(1, -1));
    return this.jsonForms;
  }

  /** A scrubber for one streamed text (the deltas of one content block). */
  stream(): StreamScrubber {
    return new StreamScrubber(this);
  }

  /** The secrets a streamed text is held back for (those JSON scrubbing covers), longest first. */
  streamedSecrets(): readonly string[] {
    this.streamed ??= this.long();
    return this.streamed;
  }

  /** Plain-text scrubbing of the streamed secrets only: streamed text is unescaped, and short values stay. */
  redactStreamed(text: string): string {
    const secrets = this.streamedSecrets();
    return secrets.length === 0 ? text : replaceAll(text, secrets);
  }

  private long(): string[] {
    return [...this.secrets].filter((secret) => secret.length >= MIN_JSON_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  }
}

/**
 * Scrubs a text that arrives in pieces: each piece is scrubbed together with what was held back, and
 * the tail that could still be the start of a secret is held back until the next piece (or `end`)
 * shows it is not, so that the joined pieces never hold a key, whatever the split.
 */
export class StreamScrubber {
  private held = "";

  constructor(private readonly redactor: Redactor) {}

  /** What may be sent of `piece` now (possibly ""). */
  push(piece: string): string {
    const secrets = this.redactor.streamedSecrets();
    if (secrets.length === 0 && this.held === "") return piece;
    const text = this.redactor.redactStreamed(this.held + piece);
    const keep = heldTail(text, secrets);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** The end of the text: what was held back (it cannot be a whole secret, `push` would have scrubbed it). */
  end(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }
}

/** The length of the longest suffix of `text` that is a proper prefix of a secret. */
function heldTail(text: string, secrets: readonly string[]): number {
  let keep = 0;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length > keep; length--) {
      if (text.charCodeAt(text.length - length) === secret.charCodeAt(0) && text.endsWith(secret.slice(0, length))) {
        keep = length;
        break;
      }
    }
  }
  return keep;
}

function replaceAll(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
  return result;
}
