import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { describeExpression } from './summary';
import type { Expression, RuleParam } from './types';

const airTemp: RuleParam = { id: 'airTemp', name: 'Air temperature', unit: '°C', precision: 1, nodes: [] };
const soil: RuleParam = { id: 'soilMoisture', name: 'Soil moisture', unit: '%', precision: 1, nodes: [10, 20, 30] };
const rain: RuleParam = { id: 'rainfall', name: 'Rainfall', unit: 'mm', precision: 1, nodes: [] };
const offline: RuleParam = { id: 'offline_minutes', name: 'Offline for', unit: 'min', precision: 0, nodes: [] };

const frost: Expression = { expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 0 };
const waterlogging: Expression = {
  expressionId: 1,
  nodes: [20, 10],
  param: 'soilMoisture',
  aggregation: 'avg',
  operator: 'gte',
  threshold: 45,
};
const heavyRain: Expression = {
  expressionId: 2,
  nodes: [],
  param: 'rainfall',
  aggregation: 'sum',
  operator: 'gte',
  threshold: 50,
  windowMinutes: 1440,
  deviceId: 7,
};
const band: Expression = { ...frost, aggregation: 'avg', operator: 'notIn', threshold: 10, threshold2: 25 };
const offlineTwoHours: Expression = { ...frost, param: 'offline_minutes', aggregation: 'max', operator: 'gte', threshold: 120 };

const en = i18n.getFixedT('en_US', 'rules');
const cn = i18n.getFixedT('zh_CN', 'rules');
const tw = i18n.getFixedT('zh_TW', 'rules');

describe('conditions in words', () => {
  it('English', () => {
    expect(describeExpression(en, frost, { param: airTemp })).toBe('Air temperature min ≤ 0 °C');
    expect(describeExpression(en, waterlogging, { param: soil })).toBe('Soil moisture at 10, 20 cm avg ≥ 45 %');
    expect(describeExpression(en, heavyRain, { param: rain, deviceName: 'Gauge 2' })).toBe(
      'Rainfall (Gauge 2) sum over 24 hours ≥ 50 mm',
    );
    expect(describeExpression(en, { ...heavyRain, windowMinutes: 90 }, { param: rain, deviceName: 'Gauge 2' })).toBe(
      'Rainfall (Gauge 2) sum over 90 minutes ≥ 50 mm',
    );
    expect(describeExpression(en, band, { param: airTemp })).toBe('Air temperature avg not in 10 ~ 25 °C');
    expect(describeExpression(en, offlineTwoHours, { param: offline })).toBe('Offline for ≥ 120 min');
  });

  it('Simplified Chinese', () => {
    const named = (p: RuleParam, name: string) => ({ ...p, name });
    expect(describeExpression(cn, frost, { param: named(airTemp, '空气温度') })).toBe('空气温度最小值 ≤ 0 °C');
    expect(describeExpression(cn, waterlogging, { param: named(soil, '土壤体积含水量') })).toBe(
      '土壤体积含水量 10、20 cm 平均值 ≥ 45 %',
    );
    expect(describeExpression(cn, heavyRain, { param: named(rain, '降雨量'), deviceName: '雨量计 2' })).toBe(
      '降雨量（雨量计 2）近 24 小时累计值 ≥ 50 mm',
    );
    expect(describeExpression(cn, { ...band, operator: 'in' }, { param: named(airTemp, '空气温度') })).toBe(
      '空气温度平均值 在 10 ~ 25 °C 之间',
    );
    expect(describeExpression(cn, offlineTwoHours, { param: named(offline, '离线时长') })).toBe('离线时长 ≥ 120 min');
  });

  it('Traditional Chinese', () => {
    expect(describeExpression(tw, { ...heavyRain, windowMinutes: 10080 }, { param: { ...rain, name: '降雨量' }, deviceName: '雨量計' })).toBe(
      '降雨量（雨量計）近 7 天累計值 ≥ 50 mm',
    );
    expect(describeExpression(tw, band, { param: { ...airTemp, name: '空氣溫度' } })).toBe('空氣溫度平均值 不在 10 ~ 25 °C 之間');
  });

  it('falls back to the parameter id and the device id while names load', () => {
    expect(describeExpression(en, heavyRain)).toBe('rainfall (#7) sum over 24 hours ≥ 50');
  });
});
