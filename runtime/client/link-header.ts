/**
 * RFC 8288 `Link` header parsing: `<url>; rel="next", <url>; rel="last"`. Only what pagination
 * needs: target URL by relation type. A small scanner rather than a split on "," because URLs
 * and quoted parameter values may themselves contain commas and semicolons.
 */
export function parseLinkHeader(header: string | null | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  const text = header ?? "";
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  while (i < text.length) {
    const open = text.indexOf("<", i);
    if (open < 0) break;
    const close = text.indexOf(">", open);
    if (close < 0) break;
    const target = text.slice(open + 1, close);
    i = close + 1;
    let rel = "";
    for (;;) {
      skipSpace();
      if (text[i] !== ";") break;
      i++;
      skipSpace();
      const nameStart = i;
      while (i < text.length && !/[=;,\s]/.test(text[i]!)) i++;
      const name = text.slice(nameStart, i).toLowerCase();
      skipSpace();
      let value = "";
      if (text[i] === "=") {
        i++;
        skipSpace();
        if (text[i] === '"') {
          const end = text.indexOf('"', i + 1);
          value = text.slice(i + 1, end < 0 ? text.length : end);
          i = end < 0 ? text.length : end + 1;
        } else {
          const start = i;
          while (i < text.length && !/[;,\s]/.test(text[i]!)) i++;
          value = text.slice(start, i);
        }
      }
      if (name === "rel" && rel === "") rel = value;
    }
    // A rel may hold several space-separated types: rel="next last". The first link wins.
    for (const type of rel.toLowerCase().split(/\s+/).filter(Boolean)) if (!(type in links)) links[type] = target;
    skipSpace();
    if (text[i] === ",") i++;
  }
  return links;
}
