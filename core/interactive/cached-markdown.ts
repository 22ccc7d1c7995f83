import { Markdown, type MarkdownTheme } from "@mariozechner/pi-tui";
import type { TokenLinesCache } from "./token-lines-cache.js";

type RenderToken = (token: { type: string; raw: string }, width: number, nextTokenType?: string, styleContext?: unknown) => string[];

/** A reference definition (`[id]: url`) changes how links elsewhere render: no block is reused then. */
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/** One top-level block as pi-tui's lexer cut it, with the type of the block after it: all its lines depend on (with the width). */
export interface BlockKey {
  type: string;
  raw: string;
  next: string | undefined;
}

/**
 * pi-tui's Markdown, its top-level blocks looked up in a TokenLinesCache before they are rendered.
 * As a part of a streamed reply it is told the type of the block that follows it in the message
 * (`follow`), so that its last block is drawn as the whole message draws it. It keeps the blocks of
 * its last layout (`blocks`); a probe (`layout` false) only lexes: it records its blocks and draws none.
 */
export class CachedMarkdown extends Markdown {
  cache: TokenLinesCache | undefined;
  blocks: readonly BlockKey[] = [];
  /** Whether the text is blank (pi-tui draws nothing and calls no renderToken then). */
  private blank: boolean;
  private reusable = false;
  private after: string | undefined;
  private recording: BlockKey[] | undefined;

  constructor(text: string, paddingX: number, paddingY: number, theme: MarkdownTheme, cache: TokenLinesCache, layout = true) {
    super(text, paddingX, paddingY, theme);
    this.cache = cache;
    this.blank = text.trim() === "";
    this.reusable = !CachedMarkdown.definesLinks(text);
    // renderToken is pi-tui's private per-block step of render(): wrapped, not reimplemented.
    const self = this as unknown as { renderToken: RenderToken };
    const renderToken = self.renderToken;
    if (typeof renderToken !== "function") throw new Error("pi-tui's Markdown has no renderToken: this pi-tui version is not supported");
    self.renderToken = (token, width, next, styleContext) => {
      // Nested blocks (styleContext) are rendered by their parent, which the cache holds whole.
      if (styleContext !== undefined) return renderToken.call(this, token, width, next, styleContext);
      // Only the last block has no next one here; in the message, the next part's first block follows it.
      const following = next ?? this.after;
      (this.recording ??= []).push({ type: token.type, raw: token.raw, next: following });
      if (!layout) return [];
      const cache = this.cache;
      if (!cache || !this.reusable) return renderToken.call(this, token, width, following);
      return cache.lookup(token, width, following, () => renderToken.call(this, token, width, following));
    };
  }

  /** Whether `text` defines a link reference (which changes how links anywhere in the document render). */
  static definesLinks(text: string): boolean {
    return LINK_DEFINITION.test(text);
  }

  /** The type of the first block of the last layout (undefined while there is none). */
  get firstType(): string | undefined {
    return this.blocks[0]?.type;
  }

  /** The type of the block that follows this text in the message (undefined: none yet). */
  follow(type: string | undefined): void {
    if (type === this.after) return;
    this.after = type;
    this.invalidate();
  }

  override setText(text: string): void {
    this.blank = text.trim() === "";
    this.reusable = !CachedMarkdown.definesLinks(text);
    super.setText(text);
  }

  override render(width: number): string[] {
    this.recording = undefined;
    const lines = super.render(width);
    const recorded = this.recording;
    this.recording = undefined;
    // Nothing recorded: pi-tui's own cache answered (the blocks are those of before), or there is no text.
    if (recorded) this.blocks = recorded;
    else if (this.blank) this.blocks = [];
    return lines;
  }
}
