/** Every data-push query starts with this key, so a saved, switched or deleted channel refreshes them all. */
export const pushKey = ['integration', 'push'] as const;

/** Every open-API application query starts with this key. */
export const appsKey = ['integration', 'apps'] as const;
