/** Every event query starts with this key, so marking messages read refreshes lists and counts. */
export const eventsKey = ['events'] as const;
