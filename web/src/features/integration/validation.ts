import type { FormRule, InputProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** SPEC §5 and §9: a channel's name at most 64, its address at most 255; an application's name at most 20. */
export const CHANNEL_NAME_MAX_LENGTH = 64;
export const PUSH_URL_MAX_LENGTH = 255;
export const APP_NAME_MAX_LENGTH = 20;

/** Counts characters as people see them (and as the server counts), so a CJK name counts once per character. */
export function characterCount(value: string): number {
  return Array.from(value).length;
}

/** Cuts typed text to `max` characters counted the same way. */
export function cutTo(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

/** An input's character count: at most `max`, counted as above, with longer typed text cut to fit. */
export function countUpTo(max: number): NonNullable<InputProps['count']> {
  return { max, strategy: characterCount, exceedFormatter: (text, config) => cutTo(text, config.max) };
}

/**
 * SPEC §5's valid address: an optional http or https prefix, a dotted host, an optional port and
 * an optional path without spaces (the server's own pattern).
 */
const URL_PATTERN = /^(https?:\/\/)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d{1,5})?(\/\S*)?$/;

export function isValidPushUrl(value: string): boolean {
  const url = value.trim();
  if (!URL_PATTERN.test(url)) return false;
  const port = /^(?:https?:\/\/)?[^/:]+:(\d+)/.exec(url)?.[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

export type NameProblem = 'required' | 'tooLong';

export function nameProblem(value: unknown, max: number): NameProblem | null {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') return 'required';
  if (characterCount(name) > max) return 'tooLong';
  return null;
}

export type UrlProblem = 'required' | 'tooLong' | 'invalid';

/** What is wrong with a push address; an empty one is fine when it is optional (an application's). */
export function urlProblem(value: unknown, { optional = false } = {}): UrlProblem | null {
  const url = typeof value === 'string' ? value.trim() : '';
  if (url === '') return optional ? null : 'required';
  if (characterCount(url) > PUSH_URL_MAX_LENGTH) return 'tooLong';
  if (!isValidPushUrl(url)) return 'invalid';
  return null;
}

function rejectWith(message: string) {
  return Promise.reject(new Error(message));
}

/** The channel form's rules, with the server's messages in the current language. */
export function useChannelFormRules() {
  const { t } = useTranslation('integration');
  return useMemo(() => {
    const name: FormRule[] = [
      {
        validator: (_rule, value: unknown) => {
          const problem = nameProblem(value, CHANNEL_NAME_MAX_LENGTH);
          if (problem === 'required') return rejectWith(t('validation.channelNameRequired'));
          if (problem === 'tooLong') return rejectWith(t('validation.channelNameTooLong', { max: CHANNEL_NAME_MAX_LENGTH }));
          return Promise.resolve();
        },
      },
    ];
    const url: FormRule[] = [
      {
        validator: (_rule, value: unknown) => {
          const problem = urlProblem(value);
          if (problem === 'required') return rejectWith(t('validation.urlRequired'));
          if (problem === 'tooLong') return rejectWith(t('validation.urlTooLong', { max: PUSH_URL_MAX_LENGTH }));
          if (problem === 'invalid') return rejectWith(t('validation.urlInvalid'));
          return Promise.resolve();
        },
      },
    ];
    const deviceIds: FormRule[] = [{ required: true, type: 'array', min: 1, message: t('validation.devicesRequired') }];
    return { name, url, deviceIds };
  }, [t]);
}

/** The application form's rules. Devices are checked only when the range is chosen devices. */
export function useAppFormRules() {
  const { t } = useTranslation('integration');
  return useMemo(() => {
    const name: FormRule[] = [
      {
        validator: (_rule, value: unknown) => {
          const problem = nameProblem(value, APP_NAME_MAX_LENGTH);
          if (problem === 'required') return rejectWith(t('validation.appNameRequired'));
          if (problem === 'tooLong') return rejectWith(t('validation.appNameTooLong', { max: APP_NAME_MAX_LENGTH }));
          return Promise.resolve();
        },
      },
    ];
    const pushUrl: FormRule[] = [
      {
        validator: (_rule, value: unknown) => {
          const problem = urlProblem(value, { optional: true });
          if (problem === 'tooLong') return rejectWith(t('validation.urlTooLong', { max: PUSH_URL_MAX_LENGTH }));
          if (problem === 'invalid') return rejectWith(t('validation.urlInvalid'));
          return Promise.resolve();
        },
      },
    ];
    const deviceIds: FormRule[] = [{ required: true, type: 'array', min: 1, message: t('validation.devicesRequired') }];
    return { name, pushUrl, deviceIds };
  }, [t]);
}
