/** Device categories, in the order the type filter groups them (SPEC §3). */
export const CATEGORIES = ['meteorology', 'soil', 'disaster', 'irrigation', 'ecology'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface DeviceTypeEntry {
  id: number;
  model: string;
  category: Category;
}

/**
 * The server's type catalogue (internal/devices/types.go). Names are in the devices namespace
 * under types.{id}; a slave (LQS001) shares its host's type id.
 */
export const DEVICE_TYPES: readonly DeviceTypeEntry[] = [
  { id: 5, model: 'TQS010', category: 'meteorology' },
  { id: 4, model: 'TQC005', category: 'meteorology' },
  { id: 7, model: 'TQA012', category: 'meteorology' },
  { id: 14, model: 'TQN008', category: 'meteorology' },
  { id: 1, model: 'SMP003', category: 'soil' },
  { id: 2, model: 'ZS006', category: 'soil' },
  { id: 3, model: 'DCR004', category: 'soil' },
  { id: 21, model: 'ZSQ006', category: 'soil' },
  { id: 6, model: 'RG001', category: 'disaster' },
  { id: 9, model: 'RG002', category: 'disaster' },
  { id: 8, model: 'SJ001', category: 'disaster' },
  { id: 10, model: 'YY001', category: 'irrigation' },
  { id: 17, model: 'LQ001', category: 'ecology' },
  { id: 19, model: 'LQM001', category: 'ecology' },
  { id: 20, model: 'IBS001', category: 'ecology' },
  { id: 22, model: 'IBS002', category: 'ecology' },
];

export const TYPE_IDS: readonly number[] = DEVICE_TYPES.map((type) => type.id);
