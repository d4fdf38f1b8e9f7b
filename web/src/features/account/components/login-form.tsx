import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon, LockIcon, UserIcon } from '@/components/plain-icons';
import { errorMessage, isApiError } from '@/lib/api-client';
import { firstRuleError, type SharedRule } from '@/lib/form-rules';
import { useLogin, type LoginInput } from '../api/login';
import type { Profile } from '../types';
import { useAccountRules } from '../validation';

type Field = keyof LoginInput;
const FIELDS: Field[] = ['accountNumber', 'password'];

interface TextFieldProps {
  name: Field;
  label: string;
  error: string;
  prefix: ReactNode;
  suffix?: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
}

/** A labelled input with its icon and the message of the rule it breaks. */
function TextField({ name, label, error, prefix, suffix, inputProps }: TextFieldProps) {
  const id = `login_${name}`;
  return (
    <div className={error ? 'fw-field fw-field--error' : 'fw-field'}>
      <label className="fw-field__label" htmlFor={id}>
        {label}
      </label>
      <span className="fw-input">
        <span className="fw-input__prefix">{prefix}</span>
        <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}_help` : undefined} {...inputProps} />
        {suffix}
      </span>
      <div className="fw-field__help" id={`${id}_help`} aria-live="polite">
        {error}
      </div>
    </div>
  );
}

/**
 * The login form, drawn without a component library so the login page is light on a phone
 * network: the same rules and messages as every other form (validation.ts), checked as the user
 * types once a field was touched, and all of them on submit.
 */
export function LoginForm({ onSuccess }: { onSuccess: (profile: Profile) => void }) {
  const { t } = useTranslation('account');
  const rules = useAccountRules();
  const login = useLogin({ onSuccess });
  const [values, setValues] = useState<LoginInput>({ accountNumber: '', password: '' });
  const [errors, setErrors] = useState<Record<Field, string>>({ accountNumber: '', password: '' });
  const [passwordShown, setPasswordShown] = useState(false);
  const fieldRules: Record<Field, SharedRule[]> = { accountNumber: rules.accountNumber, password: rules.loginPassword };

  const check = async (field: Field, value: string) => {
    const message = await firstRuleError(fieldRules[field], value);
    setErrors((was) => ({ ...was, [field]: message }));
    return message;
  };

  const change = (field: Field, value: string) => {
    setValues((was) => ({ ...was, [field]: value }));
    if (login.isError) login.reset();
    void check(field, value);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const messages = await Promise.all(FIELDS.map((field) => check(field, values[field])));
    const firstBad = FIELDS.find((_, index) => messages[index]);
    if (firstBad) {
      form.querySelector<HTMLInputElement>(`#login_${firstBad}`)?.focus();
      return;
    }
    login.mutate(values);
  };

  const error = login.error;
  const titled = isApiError(error) && error.title !== '';
  const passwordLabel = passwordShown ? t('login.hidePassword') : t('login.showPassword');

  return (
    <form id="login" className="fw-form" noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        name="accountNumber"
        label={t('login.accountNumber')}
        error={errors.accountNumber}
        prefix={<UserIcon />}
        inputProps={{
          value: values.accountNumber,
          onChange: (event) => change('accountNumber', event.target.value),
          placeholder: t('login.accountNumberPlaceholder'),
          autoComplete: 'username',
          autoCapitalize: 'off',
          spellCheck: false,
        }}
      />
      <TextField
        name="password"
        label={t('login.password')}
        error={errors.password}
        prefix={<LockIcon />}
        suffix={
          <button
            type="button"
            className="fw-input__suffix"
            aria-label={passwordLabel}
            title={passwordLabel}
            aria-pressed={passwordShown}
            onClick={() => setPasswordShown((shown) => !shown)}
          >
            {passwordShown ? <EyeIcon /> : <EyeOffIcon />}
          </button>
        }
        inputProps={{
          type: passwordShown ? 'text' : 'password',
          value: values.password,
          onChange: (event) => change('password', event.target.value),
          placeholder: t('login.passwordPlaceholder'),
          autoComplete: 'current-password',
        }}
      />
      <button type="submit" className="fw-button fw-button--primary fw-button--large fw-button--block" disabled={login.isPending} aria-busy={login.isPending}>
        {login.isPending ? <span className="fw-spinner fw-spinner--small" aria-hidden="true" /> : null}
        {t('login.submit')}
      </button>
      {error ? (
        // Every failure shows here, a fatal one too: the login page has no dialog of its own.
        <div className="fw-alert fw-alert--error" role="alert">
          <strong>{titled ? error.title : errorMessage(error)}</strong>
          {titled && error.content ? <p>{error.content}</p> : null}
        </div>
      ) : null}
    </form>
  );
}
