import type { EditorTheme, MarkdownTheme, SelectListTheme } from "@mariozechner/pi-tui";
import { CodeHighlighter } from "./code-highlighter.js";

/** The one highlighter of code blocks (loaded by the interactive mode at start). */
export const codeHighlighter = new CodeHighlighter();

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

/** The few styles the interactive mode uses, as plain SGR sequences (no colour library needed). */
export const style = Object.freeze({
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  strike: sgr(9, 29),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  blue: sgr(34, 39),
  magenta: sgr(35, 39),
  cyan: sgr(36, 39),
  gray: sgr(90, 39),
  userBg: (text: string) => `\x1b[48;5;236m${text}\x1b[49m`,
});

export const selectListTheme: SelectListTheme = {
  selectedPrefix: style.cyan,
  selectedText: (text) => style.bold(style.cyan(text)),
  description: style.gray,
  scrollInfo: style.gray,
  noMatch: style.gray,
};

export const editorTheme: EditorTheme = { borderColor: style.gray, selectList: selectListTheme };

export const markdownTheme: MarkdownTheme = {
  heading: (text) => style.bold(style.cyan(text)),
  link: style.blue,
  linkUrl: style.gray,
  code: style.yellow,
  codeBlock: style.green,
  codeBlockBorder: style.gray,
  quote: style.italic,
  quoteBorder: style.gray,
  hr: style.gray,
  listBullet: style.cyan,
  bold: style.bold,
  italic: style.italic,
  strikethrough: style.strike,
  underline: style.underline,
  highlightCode: (code, lang) => codeHighlighter.highlight(code, lang),
};
