import { describe, expect, it } from 'vitest';
import { baseResources, namespaces, resources } from '.';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** Keys with plural suffixes folded, since languages need different plural forms. */
function keySet(tree: unknown): Set<string> {
  return new Set([...leaves(tree).keys()].map((key) => key.replace(PLURAL_SUFFIX, '')));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();
}

const files = import.meta.glob<{ default: unknown }>('./*/*.json', { eager: true });
const languages = Object.keys(resources) as (keyof typeof resources)[];

describe('locale files', () => {
  it('every language folder has exactly one file per registered namespace', () => {
    for (const language of languages) {
      const found = Object.keys(files)
        .filter((path) => path.startsWith(`./${language}/`))
        .map((path) => path.slice(language.length + 3, -'.json'.length))
        .sort();
      expect(found, language).toEqual([...namespaces].sort());
      for (const namespace of namespaces) {
        expect(resources[language][namespace], `${language}/${namespace}`).toBe(files[`./${language}/${namespace}.json`].default);
      }
    }
  });

  describe.each(languages.filter((language) => language !== 'zh_CN'))('%s', (language) => {
    it.each(namespaces)('has the same keys as zh_CN in %s', (namespace) => {
      const base = keySet(baseResources[namespace]);
      const other = keySet(resources[language][namespace]);
      const missing = [...base].filter((key) => !other.has(key));
      const extra = [...other].filter((key) => !base.has(key));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });
  });

  describe.each(languages)('%s', (language) => {
    it.each(namespaces)('has non-empty texts, the base placeholders and an "other" plural form in %s', (namespace) => {
      const base = leaves(baseResources[namespace]);
      const basePlaceholders = new Map(
        [...base].map(([key, text]) => [key.replace(PLURAL_SUFFIX, ''), placeholders(String(text))]),
      );
      const texts = leaves(resources[language][namespace]);
      for (const [key, text] of texts) {
        expect(typeof text === 'string' && text.trim() !== '', `${language}/${namespace}:${key}`).toBe(true);
        const root = key.replace(PLURAL_SUFFIX, '');
        expect(placeholders(String(text)), `${language}/${namespace}:${key}`).toEqual(basePlaceholders.get(root));
        if (root !== key) expect(texts.has(`${root}_other`), `${language}/${namespace}:${root}_other`).toBe(true);
      }
    });
  });
});
