import { describe, expect, it } from 'vitest';
import { applyTemplate, blankRuleValues, clearTemplate, fromRule, paramSourceOf, toRuleInput, type RuleFormValues } from './form-state';
import type { Rule, RuleTemplate } from './types';

const frostTemplate: RuleTemplate = {
  id: 'frost',
  name: 'Frost risk',
  rule: {
    name: 'Frost risk',
    typeId: 5,
    deviceIds: [],
    level: 'alarm',
    enabled: true,
    template: 'frost',
    notify: ['email'],
    silentHours: 0,
    description: 'Air temperature at or below 0 °C.',
    expressions: [{ expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 0 }],
  },
};

const heavyRainTemplate: RuleTemplate = {
  id: 'heavyRain',
  name: 'Heavy rain',
  rule: {
    name: 'Heavy rain',
    level: 'alarm',
    expressions: [
      { expressionId: 1, nodes: [], param: 'rainfall', aggregation: 'sum', operator: 'gte', threshold: 50, windowMinutes: 1440 },
    ],
  },
};

describe('rule form state', () => {
  it('a blank rule: no type, no devices, no conditions, e-mail, no silent period', () => {
    expect(blankRuleValues()).toEqual({
      template: '',
      name: '',
      deviceIds: [],
      level: 'normal',
      expressions: [],
      notify: ['email'],
      silentHours: 0,
      description: '',
    });
  });

  it('builds the POST body from a template with devices chosen', () => {
    const values = { ...applyTemplate({ ...blankRuleValues(), typeId: 5 }, frostTemplate), deviceIds: [12, 11] };
    expect(toRuleInput(values, true)).toEqual({
      name: 'Frost risk',
      enabled: true,
      typeId: 5,
      deviceIds: [12, 11],
      level: 'alarm',
      expressions: [{ expressionId: 1, nodes: [], param: 'airTemp', aggregation: 'min', operator: 'lte', threshold: 0 }],
      notify: ['email'],
      silentHours: 0,
      description: 'Air temperature at or below 0 °C.',
      template: 'frost',
    });
  });

  it('sends the second threshold only for ranges, the window and source only when set, depths sorted, ids 1…n', () => {
    const values: RuleFormValues = {
      typeId: 8,
      template: '',
      name: '  Slope watch ',
      deviceIds: [3],
      level: 'normal',
      expressions: [
        { nodes: [30, 10], param: 'soilMoisture', aggregation: 'avg', operator: 'in', threshold: 10, threshold2: 20, windowMinutes: 0 },
        { nodes: [], param: 'tiltAngle', aggregation: 'max', operator: 'gte', threshold: 5, threshold2: 99, windowMinutes: 0 },
        { nodes: [], param: 'rainfall', aggregation: 'sum', operator: 'gte', threshold: 50, windowMinutes: 1440, deviceId: 9 },
      ],
      notify: [],
      silentHours: 24,
      description: ' ',
    };
    const body = toRuleInput(values, false);
    expect(body.name).toBe('Slope watch');
    expect(body.description).toBe('');
    expect(body.enabled).toBe(false);
    expect(body.silentHours).toBe(24);
    expect(body).not.toHaveProperty('template');
    expect(body.expressions).toEqual([
      { expressionId: 1, nodes: [10, 30], param: 'soilMoisture', aggregation: 'avg', operator: 'in', threshold: 10, threshold2: 20 },
      { expressionId: 2, nodes: [], param: 'tiltAngle', aggregation: 'max', operator: 'gte', threshold: 5 },
      { expressionId: 3, nodes: [], param: 'rainfall', aggregation: 'sum', operator: 'gte', threshold: 50, windowMinutes: 1440, deviceId: 9 },
    ]);
  });

  it('edits a stored rule and sends it back unchanged', () => {
    const rule: Rule = {
      id: 4,
      name: 'Dry roots',
      enabled: false,
      typeId: 2,
      typeName: 'Soil station',
      deviceIds: [5, 6],
      level: 'normal',
      expressions: [{ expressionId: 1, nodes: [10, 20], param: 'soilMoisture', aggregation: 'avg', operator: 'lte', threshold: 15 }],
      notify: ['email', 'wechat'],
      silentHours: 48,
      description: 'Irrigate.',
      template: 'drought',
      createTime: 1,
      updateTime: 2,
    };
    const values = fromRule(rule);
    expect(values.expressions[0]).toEqual({
      nodes: [10, 20],
      param: 'soilMoisture',
      aggregation: 'avg',
      operator: 'lte',
      threshold: 15,
      threshold2: null,
      windowMinutes: 0,
      deviceId: undefined,
    });
    const { id: _id, typeName: _typeName, createTime: _c, updateTime: _u, ...stored } = rule;
    expect(toRuleInput(values, rule.enabled)).toEqual(stored);
  });

  it('a template keeps the type and devices, and a name the user typed', () => {
    const current: RuleFormValues = { ...blankRuleValues(), typeId: 5, deviceIds: [1], name: 'North orchard' };
    const applied = applyTemplate(current, frostTemplate);
    expect(applied).toMatchObject({ typeId: 5, deviceIds: [1], name: 'North orchard', level: 'alarm', template: 'frost' });
    expect(applied.expressions).toHaveLength(1);

    // Switching templates replaces the previous template's name, not the user's.
    const fromFrost = applyTemplate({ ...current, name: '' }, frostTemplate);
    expect(fromFrost.name).toBe('Frost risk');
    const switched = applyTemplate(fromFrost, heavyRainTemplate, frostTemplate);
    expect(switched.name).toBe('Heavy rain');
    expect(switched.expressions[0]).toMatchObject({ param: 'rainfall', windowMinutes: 1440 });
    expect(switched.description).toBe('');

    const blank = clearTemplate(switched, heavyRainTemplate);
    expect(blank).toMatchObject({ typeId: 5, deviceIds: [1], name: '', template: '', expressions: [] });
    expect(clearTemplate({ ...switched, name: 'Mine' }, heavyRainTemplate).name).toBe('Mine');
  });

  it('reads parameters from the other device an expression names, else the rule type', () => {
    expect(paramSourceOf({ nodes: [], windowMinutes: 0 }, 5)).toEqual({ typeId: 5 });
    expect(paramSourceOf({ nodes: [], windowMinutes: 0, deviceId: 9 }, 5)).toEqual({ deviceId: 9 });
    expect(paramSourceOf({ nodes: [], windowMinutes: 0 }, undefined)).toBeUndefined();
  });
});
