/** Every AI lab query starts with this key. */
export const ailabKey = ['ailab'] as const;
export const samplesKey = [...ailabKey, 'samples'] as const;
export const setsKey = [...ailabKey, 'sets'] as const;
export const elementsKey = [...ailabKey, 'elements'] as const;
export const modelsKey = [...ailabKey, 'models'] as const;
export const appsKey = [...ailabKey, 'apps'] as const;
export const recordsKey = [...ailabKey, 'records'] as const;
