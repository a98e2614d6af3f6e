/**
 * Examples of media types that are not JSON may be written as the bytes on the wire (OpenAPI 3.1:
 * "use a string value to contain the example"), so a reader sees exactly what is sent. To check
 * one against its schema, decode it the way a client would: a form into its fields, an XML
 * document into its root element's children.
 */
import { XMLParser } from "fast-xml-parser";

const xml = new XMLParser({ parseTagValue: false, ignoreDeclaration: true, ignoreAttributes: true });

export interface DecodedXml {
  root: string;
  /** Child element names in document order. */
  order: string[];
  fields: Record<string, unknown>;
}

export function decodeXml(text: string): DecodedXml {
  const doc = xml.parse(text) as Record<string, Record<string, unknown>>;
  const roots = Object.keys(doc);
  if (roots.length !== 1) throw new Error(`expected one root element, got ${roots.join(", ")}`);
  const root = roots[0]!;
  const order = [...text.matchAll(/<([A-Za-z_][\w.-]*)>/g)].map((m) => m[1]!).filter((n) => n !== root);
  return { root, order, fields: doc[root]! };
}

/** The value a schema judges, for an example of `mediaType` (strings of non-JSON types decoded). */
export function decodeExample(mediaType: string | undefined, value: unknown): unknown {
  if (typeof value !== "string" || mediaType === undefined) return value;
  if (mediaType === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(value));
  if (mediaType === "application/xml" || mediaType.endsWith("+xml")) return decodeXml(value).fields;
  return value;
}
