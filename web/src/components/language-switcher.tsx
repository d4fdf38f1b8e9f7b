import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from '@/lib/i18n';
import { CheckIcon, GlobeIcon } from './plain-icons';

/**
 * The language menu: a button and a menu of the three languages, each named in its own language.
 * Plain elements (the login page draws it before antd has loaded), keyboard as a menu button:
 * arrows move between the items, Escape closes and returns to the button.
 */
export function LanguageSwitcher({ showLabel = true }: { showLabel?: boolean }) {
  const { t } = useTranslation();
  const current = currentLanguage();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[Math.max(0, LANGUAGES.indexOf(current))]?.focus();
    const away = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, current]);

  const choose = (language: Language) => {
    setOpen(false);
    button.current?.focus();
    void changeLanguage(language);
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const index = items.current.findIndex((item) => item === document.activeElement);
    const move = (to: number) => {
      event.preventDefault();
      items.current[(to + LANGUAGES.length) % LANGUAGES.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(LANGUAGES.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      setOpen(false);
      button.current?.focus();
    }
  };

  return (
    <div className="fw-menu-button" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="fw-icon-button"
        // With its label shown, the button is named by what it shows (the current language); the word
        // "language" then only describes it.
        aria-label={showLabel ? undefined : t('language')}
        title={showLabel ? t('language') : undefined}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <GlobeIcon />
        {showLabel ? <span>{t(`languages.${current}`)}</span> : null}
      </button>
      {open ? (
        <div className="fw-menu" role="menu" id={menuId} aria-label={t('language')} onKeyDown={onMenuKey}>
          {LANGUAGES.map((language, index) => (
            <button
              key={language}
              ref={(item) => {
                items.current[index] = item;
              }}
              type="button"
              role="menuitemradio"
              aria-checked={language === current}
              tabIndex={-1}
              className="fw-menu__item"
              onClick={() => choose(language)}
            >
              <span>{t(`languages.${language}`)}</span>
              {language === current ? <CheckIcon /> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
