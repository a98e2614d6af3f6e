/**
 * The rules' text in the HTML report is Markdown (spec/DECISIONS.md, spec/seed-rules.yaml):
 * `code`, **bold**, _emphasis_. Rendered by markdown-it — CommonMark, so `snake_case` and a `*`
 * inside a code span stay as written — inline only (each rule is one paragraph of the report),
 * with raw HTML off (a `<event>` in the text is shown, escaped, never parsed as markup), no
 * autolinking and no typographic replacements, so the text reads as it does in the files.
 * markdown-it's own link check drops javascript:, vbscript:, file: and non-image data: URLs.
 */
import MarkdownIt from "markdown-it";

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The inline HTML for one rule's text: escaped, Markdown rendered. */
export function renderRuleText(text: string): string {
  return markdown.renderInline(text);
}
