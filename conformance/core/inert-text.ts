/**
 * Text from a target made inert before it reaches a terminal: a target is untrusted, and its
 * bytes in an error line or a report must not drive the terminal — ESC sequences (a cleared
 * screen, a window title, colours faking "All cases passed"), BEL, a CR that rewrites the line,
 * C1 controls, or bidirectional overrides that reorder what is shown. Each becomes a visible
 * `\uXXXX`; tabs and (unless `oneLine`) line feeds stay.
 */

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_AND_NEWLINES = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

export function inert(text: string, options: { oneLine?: boolean } = {}): string {
  return text.replace(options.oneLine ? CONTROLS_AND_NEWLINES : CONTROLS, visible);
}
