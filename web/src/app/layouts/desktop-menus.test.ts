import { describe, expect, it } from 'vitest';
import { activeEntry, integrationMenu, mainMenu } from './desktop-menus';

describe('menu highlighting', () => {
  it.each([
    ['/apps/devices', 'device'],
    ['/apps/poi/tianqi/h/d', 'device'],
    ['/apps/events', 'event'],
    ['/console/account', 'mine'],
    ['/console/api', 'application'],
    ['/console/release/log', 'support'],
    ['/apps/rules', undefined],
  ])('main menu for %s is %s', (pathname, key) => {
    expect(activeEntry(mainMenu, pathname)).toBe(key);
  });

  it.each([
    ['/console/data/push/', 'dataPush'],
    ['/console/data/push/log', 'dataPush'],
    ['/console/et0/detail/4', 'et0'],
    ['/apps/model-service/samples', 'modelService'],
    ['/apps/devices', undefined],
  ])('integration menu for %s is %s', (pathname, key) => {
    expect(activeEntry(integrationMenu, pathname)).toBe(key);
  });
});
