// The texts of the console's features: a second chunk, loaded with the first console page.
import devices from './devices.json';
import integration from './integration.json';
import mobilePoi from './mobilePoi.json';
import poi from './poi.json';
import rules from './rules.json';
import sharing from './sharing.json';

export const resources = { devices, poi, rules, sharing, integration, mobilePoi };
