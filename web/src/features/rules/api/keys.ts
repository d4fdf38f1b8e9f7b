/** Every rule query starts with this key, so a saved rule refreshes the table and the pickers. */
export const rulesKey = ['rules'] as const;
