import { ADVICE_GROUPS } from '../api/get-devices';
import type { FieldChoice } from '../api/keys';
import type { AdviceDevice } from '../types';

/** The field a page address names: ?device=4&field=11,13 (the lead device, then the others). */
export function fieldFromSearch(search: URLSearchParams): FieldChoice | null {
  const lead = Number(search.get('device'));
  if (!Number.isInteger(lead) || lead <= 0) return null;
  const others = (search.get('field') ?? '')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((id, index, all) => Number.isInteger(id) && id > 0 && id !== lead && all.indexOf(id) === index);
  return { lead, others };
}

/** The address's search part for a field. */
export function searchOfField(field: FieldChoice): URLSearchParams {
  const search = new URLSearchParams({ device: String(field.lead) });
  const others = field.others.filter((id) => id !== field.lead);
  if (others.length) search.set('field', others.join(','));
  return search;
}

function groupOf(device: AdviceDevice): number {
  const index = (ADVICE_GROUPS as readonly string[]).indexOf(device.category);
  return index < 0 ? ADVICE_GROUPS.length : index;
}

/** Devices in the picker's order: soil first (where the tasks come from), then by name. */
export function sortForPicker(devices: AdviceDevice[]): AdviceDevice[] {
  return [...devices].sort((a, b) => groupOf(a) - groupOf(b) || a.name.localeCompare(b.name));
}

/** The device a page opens on when its address names none: the first soil device, else the first. */
export function defaultLead(devices: AdviceDevice[]): AdviceDevice | undefined {
  return sortForPicker(devices)[0];
}
