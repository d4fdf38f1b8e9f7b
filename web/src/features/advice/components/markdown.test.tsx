import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import { AnswerMarkdown } from './markdown';

const ANSWER = [
  'Irrigate **41 mm** today:',
  '',
  '```json',
  '{"amount": 41, "unit": "mm"}',
  '```',
  '',
  '```shell',
  'export FW=http://127.0.0.1',
  'curl -s "$FW/apis/ai/task/today/4" # ask again',
  '```',
  '',
  '```python',
  'print("not highlighted")',
  '```',
].join('\n');

/** The Clipboard API of a secure page, writing through the given function. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('isSecureContext', true);
  const clipboard = { writeText: vi.fn(writeText) };
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
  return clipboard;
}

describe('AnswerMarkdown', () => {
  beforeEach(async () => {
    await changeLanguage('en_US');
  });

  it('renders markdown and highlights json and shell, and not a language outside SPEC §9', () => {
    renderWithProviders(<AnswerMarkdown text={ANSWER} />);
    expect(screen.getByText('41 mm').tagName).toBe('STRONG');
    const [json, shell, python] = screen.getAllByTestId('advice-code');
    expect(json.querySelector('code.hljs.language-json')).not.toBeNull();
    expect(json.querySelector('.hljs-attr')).toHaveTextContent('"amount"');
    expect(json.querySelector('.hljs-number')).toHaveTextContent('41');
    expect(within(json).getByText('json')).toBeInTheDocument();
    expect(shell.querySelector('.hljs-built_in')).toHaveTextContent('export');
    expect(shell.querySelector('.hljs-string .hljs-variable')).toHaveTextContent('$FW');
    expect(shell.querySelector('.hljs-comment')).toHaveTextContent('# ask again');
    expect(python.querySelector('.hljs, [class^="hljs-"]')).toBeNull();
    expect(python.querySelector('code')).toHaveTextContent('print("not highlighted")');
  });

  it('highlights markdown and javascript fences too', () => {
    renderWithProviders(<AnswerMarkdown text={'```markdown\n# Title\n```\n\n```js\nconst mm = 41;\n```'} />);
    const [md, js] = screen.getAllByTestId('advice-code');
    expect(md.querySelector('.hljs-section')).toHaveTextContent('# Title');
    expect(js.querySelector('.hljs-keyword')).toHaveTextContent('const');
  });

  it('lets no HTML of the answer through', () => {
    const { container } = renderWithProviders(<AnswerMarkdown text={'<img src=x onerror="alert(1)"> and ```json\n"<b>bold</b>"\n```'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });

  it('copies a code block as it reads, without the fence, and says so', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AnswerMarkdown text={ANSWER} />);
    const clipboard = stubClipboard(() => Promise.resolve());
    await user.click(screen.getAllByTestId('advice-code-copy')[0]);
    expect(clipboard.writeText).toHaveBeenCalledWith('{"amount": 41, "unit": "mm"}');
    expect(await screen.findByText('Copied')).toBeInTheDocument();
  });

  it("says SPEC §8's message when the browser refuses the clipboard", async () => {
    const user = userEvent.setup();
    renderWithProviders(<AnswerMarkdown text={ANSWER} />);
    stubClipboard(() => Promise.reject(new Error('denied')));
    await user.click(screen.getAllByTestId('advice-code-copy')[1]);
    expect(
      await screen.findByText('Copy operation failed, please try again or check if the browser has been authorized to access the clipboard'),
    ).toBeInTheDocument();
  });
});
