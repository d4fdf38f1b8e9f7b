/** Colours for labels, distinct from one another and visible on a photo; one per element. */
export const LABEL_COLORS = ['#ff4d4f', '#52c41a', '#1677ff', '#faad14', '#eb2f96', '#13c2c2', '#a0d911', '#722ed1', '#fa541c', '#2f54eb'];

/** An element's colour: by its place in the list, so the first ten never share one. */
export function elementColor(identifiers: readonly string[], identifier: string): string {
  const index = identifiers.indexOf(identifier);
  if (index >= 0) return LABEL_COLORS[index % LABEL_COLORS.length];
  // An element deleted since: a colour from its name, still stable.
  let hash = 0;
  for (const char of identifier) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return LABEL_COLORS[Math.abs(hash) % LABEL_COLORS.length];
}
