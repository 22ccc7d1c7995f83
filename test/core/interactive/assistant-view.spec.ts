import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { Markdown } from "@mariozechner/pi-tui";
import { codeHighlighter, markdownTheme } from "../../../core/interactive/ansi-style.js";
import { AssistantView } from "../../../core/interactive/assistant-view.js";

const WIDTH = 80;

/** Markdown whose blocks meet at blank lines in every way the parts of a streamed reply can be cut. */
const DOCUMENT = [
  "# Title\n\nA paragraph with `code`, **bold** and a [link](https://example.com).\n",
  "- a tight\n- list\n\n- now loose\n\n",
  "```ts\nconst x: number = 1;\n\nfunction f() {\n  return x;\n}\n```\n\n",
  "> a quote\n>\n> over lines\n\n\n\nafter three blank lines\n\n",
  "| a | b |\n| --- | --- |\n| 1 | 2 |\n\n",
  "1. one\n2. two\n\n---\n\n```\nplain fence\n```\n",
  "## Part 2\n\nthe end ~~struck~~ here\n",
].join("");

/** The document cut into deltas of `size` characters, each followed by a frame. */
function streamed(text: string, size: number, link = ""): string[] {
  const view = new AssistantView(() => false);
  const full = text + link;
  for (let at = 0; at < full.length; at += size) {
    view.delta("text_delta", 0, full.slice(at, at + size));
    view.render(WIDTH);
  }
  view.end({ content: [{ type: "text", text: full }] });
  return view.render(WIDTH);
}

const whole = (text: string) => new Markdown(text, 1, 0, markdownTheme).render(WIDTH);

describe("AssistantView", () => {
  beforeAll(async () => {
    await codeHighlighter.load();
    expect(codeHighlighter.ready).toBe(true);
  });

  it.each([1, 3, 7, 40, 1000])("draws a reply streamed in %i-character deltas as pi-tui draws the whole message", (size) => {
    expect(streamed(DOCUMENT, size)).toEqual(whole(DOCUMENT));
  });

  it("draws links resolved by a reference definition that comes last as the whole message does", () => {
    const text = "see [the docs][d] first\n\n";
    const link = "[d]: https://example.com/docs\n";
    const lines = streamed(text, 5, link);
    expect(lines).toEqual(whole(text + link));
    expect(lines.join("\n")).not.toContain("[the docs][d]");
  });

  it("does not highlight again at the end the code blocks a part already drew", () => {
    const view = new AssistantView(() => false);
    view.delta("text_delta", 0, DOCUMENT);
    view.delta("text_delta", 0, "\n\n");
    view.render(WIDTH);
    const expected = whole(`${DOCUMENT}\n\n`);
    const highlight = jest.spyOn(codeHighlighter, "highlight");
    try {
      view.end({ content: [{ type: "text", text: `${DOCUMENT}\n\n` }] });
      expect(view.render(WIDTH)).toEqual(expected);
      expect(highlight).not.toHaveBeenCalled();
    } finally {
      highlight.mockRestore();
    }
  });

  it("draws the whole message again at a new width", () => {
    const view = new AssistantView(() => false);
    view.delta("text_delta", 0, DOCUMENT);
    view.render(WIDTH);
    view.end({ content: [{ type: "text", text: DOCUMENT }] });
    view.render(WIDTH);
    expect(view.render(40)).toEqual(new Markdown(DOCUMENT, 1, 0, markdownTheme).render(40));
  });

  it.each([1, 5, 64])("keeps the streamed drawing at message_end when its parts are the whole message's blocks (%i-character deltas)", (size) => {
    // Headings, paragraphs, tight lists and fences cut at blank lines: each part's last block is drawn
    // knowing the block after it, so the frame before message_end is already the final rendering.
    const text = "## Part 1\n\nsome words here\n- an item\n- another\n\n```js\nconst value = compute(1);\n```\n\nafter the code\n\n## Part 2\n\nthe end\n";
    const view = new AssistantView(() => false);
    for (let at = 0; at < text.length; at += size) {
      view.delta("text_delta", 0, text.slice(at, at + size));
      view.render(WIDTH);
    }
    const streamedLines = [...view.render(WIDTH)];
    const expected = whole(text);
    const highlight = jest.spyOn(codeHighlighter, "highlight");
    try {
      view.end({ content: [{ type: "text", text }] });
      const final = view.render(WIDTH);
      expect(final).toEqual(expected);
      expect(streamedLines).toEqual(final);
      expect(highlight).not.toHaveBeenCalled();
    } finally {
      highlight.mockRestore();
    }
  });

  it("does not draw the blank lines a reply starts with", () => {
    expect(streamed("\n\n## Part 1\n\nwords\n", 2)).toEqual(whole("## Part 1\n\nwords\n"));
  });
});
