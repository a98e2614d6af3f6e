/**
 * Reads Prism's console log. Prism prints one line per event; the ones that matter to us are
 * the "listening" line (the server is ready), "Request received" (which request the following
 * lines belong to) and "Violation:" (a request or response that breaks the contract).
 */
export interface Violation {
  request: string;
  location: string;
  message: string;
}

export type PrismEvent =
  | { kind: "listening"; url: string }
  | { kind: "request"; request: string }
  | { kind: "violation"; location: string; message: string }
  | { kind: "other" };

// Prism colours its output when attached to a terminal; strip the escapes before matching.
const ANSI = /\x1b\[[0-9;]*m/g;

export function parsePrismLine(raw: string): PrismEvent {
  const line = raw.replace(ANSI, "");
  const listening = /Prism is listening on (\S+)/.exec(line);
  if (listening) return { kind: "listening", url: listening[1]! };
  const request = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/.exec(line);
  if (request) return { kind: "request", request: `${request[1]!.toUpperCase()} ${request[2]!}` };
  const violation = /Violation: (\S+) (.*)$/.exec(line);
  if (violation) return { kind: "violation", location: violation[1]!, message: violation[2]!.trim() };
  return { kind: "other" };
}
