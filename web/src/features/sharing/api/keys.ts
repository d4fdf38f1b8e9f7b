/** Every sharing query starts with this key, so a grant, a revocation or an acceptance refreshes them all. */
export const sharingKey = ['sharing'] as const;

/** Lists of devices start with this key (the devices feature's); accepting or giving back changes them. */
export const devicesListKey = ['devices'] as const;

/** A device's detail (its rights included) starts with this key (the poi feature's). */
export const poiKey = ['poi'] as const;
