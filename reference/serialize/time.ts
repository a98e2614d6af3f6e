/** Timestamps on the wire: ISO 8601 UTC with second precision, as the service sends them. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function isoRequired(value: Date | string): string {
  return iso(value)!;
}
