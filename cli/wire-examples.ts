/**
 * The contract writes the examples of its form-encoded and XML answers as data (the fields, an
 * object), as every OpenAPI tool reads them, with the exact bytes in each example's description.
 * Prism answers an example as it is written, so for the mock each such example becomes its wire
 * text: a form by URLSearchParams, an XML document as the root element (the schema's `xml.name`)
 * holding one child element per field, in the example's order.
 */
type Json = unknown;
type Media = { schema?: Json; example?: Json; examples?: Record<string, Json> };

const isForm = (type: string): boolean => type === "application/x-www-form-urlencoded";
const isXml = (type: string): boolean => type === "application/xml" || type === "text/xml" || type.endsWith("+xml");

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The root element's name: the schema's `xml.name`, or the one its alternatives agree on. */
function xmlRoot(schema: Json): string {
  const s = (schema ?? {}) as { xml?: { name?: string }; oneOf?: Json[]; anyOf?: Json[] };
  if (s.xml?.name) return s.xml.name;
  const names = new Set([...(s.oneOf ?? []), ...(s.anyOf ?? [])].map((a) => (a as { xml?: { name?: string } }).xml?.name));
  return names.size === 1 ? ([...names][0] ?? "root") : "root";
}

export function wireText(type: string, schema: Json, value: Json): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const fields = Object.entries(value as Record<string, Json>).map(([k, v]): [string, string] => [k, String(v)]);
  if (isForm(type)) return new URLSearchParams(fields).toString();
  if (isXml(type)) {
    const root = xmlRoot(schema);
    return `<${root}>${fields.map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`).join("")}</${root}>`;
  }
  return value;
}

function resolveLocal(doc: Json, node: Json): Json {
  const ref = (node as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
  return ref
    .slice(2)
    .split("/")
    .reduce<Json>((n, t) => (n as Record<string, Json> | undefined)?.[t.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

/** Every response and request example of a form or XML media type, written as its wire text (in place). */
export function examplesAsWireText<T>(doc: T): T {
  const paths = ((doc as { paths?: Record<string, Record<string, Json>> }).paths ?? {}) as Record<string, Record<string, Json>>;
  const medias: [string, Media][] = [];
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op === null || typeof op !== "object") continue;
      const { requestBody, responses } = op as { requestBody?: Json; responses?: Record<string, Json> };
      for (const holder of [requestBody, ...Object.values(responses ?? {})]) {
        const content = (resolveLocal(doc, holder) as { content?: Record<string, Media> } | undefined)?.content ?? {};
        for (const [type, media] of Object.entries(content)) if (isForm(type) || isXml(type)) medias.push([type, media]);
      }
    }
  }
  for (const [type, media] of medias) {
    if (media.example !== undefined) media.example = wireText(type, media.schema, media.example);
    for (const [name, ex] of Object.entries(media.examples ?? {})) {
      const example = resolveLocal(doc, ex) as { summary?: string; value?: Json };
      media.examples![name] = { ...example, value: wireText(type, media.schema, example.value) };
    }
  }
  return doc;
}
