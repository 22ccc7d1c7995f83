import { Markdown, type MarkdownTheme } from "@mariozechner/pi-tui";
import type { TokenLinesCache } from "./token-lines-cache.js";

type RenderToken = (token: { type: string; raw: string }, width: number, nextTokenType?: string, styleContext?: unknown) => string[];

/** A reference definition (`[id]: url`) changes how links elsewhere render: no block is reused then. */
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/** pi-tui's Markdown, its top-level blocks looked up in a TokenLinesCache before they are rendered. */
export class CachedMarkdown extends Markdown {
  cache: TokenLinesCache | undefined;
  private reusable = false;

  constructor(text: string, paddingX: number, paddingY: number, theme: MarkdownTheme, cache: TokenLinesCache) {
    super(text, paddingX, paddingY, theme);
    this.cache = cache;
    this.reusable = !LINK_DEFINITION.test(text);
    // renderToken is pi-tui's private per-block step of render(): wrapped, not reimplemented.
    const self = this as unknown as { renderToken: RenderToken };
    const renderToken = self.renderToken;
    if (typeof renderToken !== "function") throw new Error("pi-tui's Markdown has no renderToken: this pi-tui version is not supported");
    self.renderToken = (token, width, next, styleContext) => {
      const cache = this.cache;
      // Nested blocks (styleContext) are rendered by their parent, which the cache holds whole.
      if (!cache || !this.reusable || styleContext !== undefined) return renderToken.call(this, token, width, next, styleContext);
      return cache.lookup(token, width, next, () => renderToken.call(this, token, width, next));
    };
  }

  override setText(text: string): void {
    this.reusable = !LINK_DEFINITION.test(text);
    super.setText(text);
  }
}
