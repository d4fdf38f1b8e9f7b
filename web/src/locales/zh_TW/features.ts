// The texts of the console's features and antd's texts for the language: a second chunk, loaded
// with the first console page (antd draws only console pages).
import antdLocale from 'antd/es/locale/zh_TW';
import advice from './advice.json';
import ailab from './ailab.json';
import briefing from './briefing.json';
import devices from './devices.json';
import et0 from './et0.json';
import feedback from './feedback.json';
import integration from './integration.json';
import mobilePoi from './mobilePoi.json';
import overview from './overview.json';
import poi from './poi.json';
import rules from './rules.json';
import release from './release.json';
import sharing from './sharing.json';
import waterUse from './waterUse.json';

export const resources = { briefing, devices, et0, poi, rules, sharing, integration, mobilePoi, release, waterUse, overview, feedback, ailab, advice };

export { antdLocale };
