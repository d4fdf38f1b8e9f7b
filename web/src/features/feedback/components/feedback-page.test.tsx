import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import { refusal, serve } from '@/testing/serve';
import type { Feedback } from '../api/feedback';
import { FeedbackPage } from './feedback-page';

const sent: Feedback = {
  id: 7,
  category: 'problem',
  text: 'The map stays blank',
  contact: 'me@farm.example',
  state: 'open',
  answer: '',
  createTime: Date.UTC(2026, 2, 1),
  answerTime: null,
  screenshots: [],
};

describe('FeedbackPage', () => {
  beforeEach(() => changeLanguage('en_US'));
  afterEach(() => vi.unstubAllGlobals());

  it('checks the form before sending, names the field the server refuses, then lists what was sent', async () => {
    let posts = 0;
    let refuse = true;
    const bodies: FormData[] = [];
    serve({
      'GET /apis/feedback': () => (posts > 1 ? [sent] : []),
      'POST /apis/feedback': (_, init) => {
        posts++;
        bodies.push(init?.body as FormData);
        if (refuse) {
          refuse = false;
          return new Response(
            JSON.stringify({ code: 1400, message: 'Text must be at most 2000 characters', data: null, error: { key: 'feedback.textTooLong', field: 'text' } }),
            { status: 400, headers: { 'Content-Type': 'application/json' } },
          );
        }
        return sent;
      },
    });
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<FeedbackPage offered="me@farm.example" />);

    // The bound address is offered; the list starts empty.
    await waitFor(() => expect(screen.getByPlaceholderText('E-mail address or phone (optional)')).toHaveValue('me@farm.example'));
    expect(await screen.findByText('You have not sent any feedback yet')).toBeInTheDocument();

    // Nothing chosen or written: both named, nothing sent.
    await user.click(screen.getByRole('button', { name: /Send feedback/ }));
    expect(await screen.findByText('Please choose a category')).toBeInTheDocument();
    expect(screen.getByText('Please describe your feedback')).toBeInTheDocument();
    expect(posts).toBe(0);

    // A GIF is refused by its type before anything is sent; a PNG is taken.
    // The upload input is made anew after each choice.
    const input = () => screen.getByTestId('feedback-form').querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input(), new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }));
    expect(await screen.findByText('cat.gif: only JPEG, PNG or WebP pictures are accepted')).toBeInTheDocument();
    await user.upload(input(), new File([new Uint8Array(6 * 1024 * 1024)], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByText('huge.png: each picture must be at most 5 MB')).toBeInTheDocument();
    await user.upload(input(), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'map.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.queryByText(/each picture must be at most 5 MB/)).not.toBeInTheDocument());

    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByTitle('Problem'));
    await user.type(screen.getByPlaceholderText(/What happened/), '   The map stays blank  ');
    await user.click(screen.getByRole('button', { name: /Send feedback/ }));

    // The server's refusal shows under the field it names.
    const textItem = screen.getByPlaceholderText(/What happened/).closest('.ant-form-item') as HTMLElement;
    expect(await within(textItem).findByText('Text must be at most 2000 characters')).toBeInTheDocument();
    expect(posts).toBe(1);
    const first = bodies[0];
    expect(first.get('category')).toBe('problem');
    expect(first.get('text')).toBe('The map stays blank');
    expect(first.get('contact')).toBe('me@farm.example');
    expect(first.getAll('screenshots').map((f) => (f as File).name)).toEqual(['map.png']);

    // Sent again: thanked, the form's text cleared, the feedback listed as open.
    await user.click(screen.getByRole('button', { name: /Send feedback/ }));
    expect(await screen.findByText('Thank you: your feedback was sent')).toBeInTheDocument();
    const item = await screen.findByTestId('feedback-item');
    expect(within(item).getByText('The map stays blank')).toBeInTheDocument();
    expect(within(item).getByText('Open')).toBeInTheDocument();
    expect(screen.getByPlaceholderText(/What happened/)).toHaveValue('');
  });

  it('shows an answered feedback with its answer', async () => {
    serve({ 'GET /apis/feedback': () => [{ ...sent, state: 'answered', answer: 'Fixed in 1.4', answerTime: Date.UTC(2026, 2, 2) }] });
    renderWithProviders(<FeedbackPage />);
    const item = await screen.findByTestId('feedback-item');
    expect(within(item).getByText('Answered')).toBeInTheDocument();
    expect(within(item).getByTestId('feedback-answer')).toHaveTextContent('Fixed in 1.4');
  });

  it('shows a failed list', async () => {
    serve({ 'GET /apis/feedback': () => refusal(1500, 'internal error', 500) });
    renderWithProviders(<FeedbackPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('internal error');
  });
});
