import { useMemo, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { highlight } from '../lib/highlight';
import { useAdviceCopy } from './use-advice-copy';
import './markdown.css';

/** The syntax tree's element, as react-markdown hands it to a component. */
type Element = NonNullable<ExtraProps['node']>;
type ElementContent = Element['children'][number];

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** The fence's language: the code element's "language-…" class. */
function fenceOf(code: Element): string | undefined {
  const classes: unknown = code.properties.className;
  const list: string[] = Array.isArray(classes) ? classes.map(String) : typeof classes === 'string' ? classes.split(' ') : [];
  return list.find((c) => c.startsWith('language-'))?.slice('language-'.length);
}

/** A fenced code block: highlighted when its language is one of SPEC §9's, with a copy button. */
export function CodeBlock({ code, fence }: { code: string; fence?: string }) {
  const { t } = useTranslation('advice');
  const copy = useAdviceCopy();
  const html = useMemo(() => highlight(code, fence), [code, fence]);
  return (
    <div className="fw-md-code" data-testid="advice-code">
      <div className="fw-md-code__bar">
        <span className="fw-md-code__lang">{fence ?? t('chat.code')}</span>
        <button type="button" className="fw-md-code__copy" onClick={() => void copy(code)} data-testid="advice-code-copy">
          {t('copy.code')}
        </button>
      </div>
      {/* Highlight.js escapes the code's own text; its markup is spans with hljs-* classes only. */}
      <pre tabIndex={0}>
        {html === null ? (
          <code>{code}</code>
        ) : (
          <code className={`hljs language-${fence}`} dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  );
}

function Pre({ node, children }: ComponentProps<'pre'> & ExtraProps) {
  const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  if (!code) return <pre>{children}</pre>;
  // The text ends with the fence's newline; the copy should not.
  return <CodeBlock code={code.children.map(textOf).join('').replace(/\n$/, '')} fence={fenceOf(code)} />;
}

/** Links open beside the page: an answer is not left by following one. */
function Link({ node: _node, ...props }: ComponentProps<'a'> & ExtraProps) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

const components: Components = { pre: Pre, a: Link };

/**
 * An answer in markdown (GitHub's flavour: tables, lists, fences), rendered as React elements —
 * no HTML of the answer's own is let through — with code highlighted.
 */
export function AnswerMarkdown({ text }: { text: string }) {
  return (
    <div className="fw-md">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
