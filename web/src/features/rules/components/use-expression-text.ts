import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuleDevicesOfTypes } from '../api/get-rule-devices';
import { sourceKey, useRuleParamsOf } from '../api/get-rule-params';
import { useRuleTypes } from '../api/get-rule-types';
import { describeExpression } from '../summary';
import type { Expression, ParamSource, Rule } from '../types';

/**
 * Words for the conditions of a page of rules: parameter names and units come from each rule's
 * type (or the other device an expression reads), device names from the caller's devices, which
 * are only fetched when some condition reads another device.
 */
export function useExpressionText(rules: Rule[]) {
  const { t } = useTranslation('rules');
  const sources = useMemo(() => {
    const byKey = new Map<string, ParamSource>();
    for (const rule of rules) {
      byKey.set(sourceKey({ typeId: rule.typeId }), { typeId: rule.typeId });
      for (const expression of rule.expressions) {
        if (expression.deviceId) byKey.set(sourceKey({ deviceId: expression.deviceId }), { deviceId: expression.deviceId });
      }
    }
    return [...byKey.values()];
  }, [rules]);
  const params = useRuleParamsOf(sources);

  const readsOtherDevices = sources.some((source) => 'deviceId' in source);
  const types = useRuleTypes({ enabled: readsOtherDevices });
  const { devices } = useRuleDevicesOfTypes((types.data ?? []).map((type) => type.typeId), { enabled: readsOtherDevices });

  return useCallback(
    (rule: Rule, expression: Expression) => {
      const source: ParamSource = expression.deviceId ? { deviceId: expression.deviceId } : { typeId: rule.typeId };
      const param = params.get(sourceKey(source))?.find((p) => p.id === expression.param);
      const deviceName = expression.deviceId ? devices.find((d) => d.id === expression.deviceId)?.name : undefined;
      return describeExpression(t, expression, { param, deviceName });
    },
    [t, params, devices],
  );
}
