import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { weatherCatalogue } from '@/testing/device-fixtures';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { DownloadDialog, EMAIL_PATTERN } from './download-dialog';

type Answer = (path: string, init?: RequestInit) => Response;

function serve(answer: Answer) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => answer(new URL(String(input), 'http://localhost').pathname, init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const ok = (data: unknown) => jsonResponse({ code: 0, message: '', data });

function task(status: string, extra: Record<string, unknown> = {}) {
  return { taskId: 't1', status, progress: status === 'sent' ? 100 : 40, rows: 288, attempts: 1, error: '', createdAt: 1, finishedAt: null, ...extra };
}

function renderDialog(config?: { mail: boolean; fileKeepHours: number }) {
  return renderWithProviders(<DownloadDialog deviceId={13} catalogue={weatherCatalogue} config={config} open onClose={() => {}} />);
}

// Typing into antd forms and waiting for a poll take a few seconds on a busy machine.
describe('DownloadDialog', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('asks for at least one parameter and a valid e-mail before calling the server', async () => {
    const fetchMock = serve(() => ok({ taskId: 't1' }));
    const user = userEvent.setup();
    renderDialog();

    for (const box of screen.getAllByRole('checkbox')) await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Send to my email' }));
    expect(await screen.findByText('Please select at least one parameter')).toBeInTheDocument();
    expect(await screen.findByText('Please enter email')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'farmer@');
    await user.click(screen.getByRole('button', { name: 'Send to my email' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the choice, shows progress, then where the file went', async () => {
    let polls = 0;
    const fetchMock = serve((_path, init) => {
      if (init?.method === 'POST') return ok({ taskId: 't1' });
      polls += 1;
      return ok(polls < 2 ? task('running', { rows: 120 }) : task('sent'));
    });
    const user = userEvent.setup();
    renderDialog();

    await user.click(screen.getByLabelText('Rainfall'));
    await user.type(screen.getByLabelText('Email'), 'farmer@example.com');
    await user.click(screen.getByRole('button', { name: 'Send to my email' }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toBe('/apis/poi/13/datapoints/export');
    const body = JSON.parse(String(init?.body));
    expect(body).toMatchObject({ email: 'farmer@example.com', dim: 'raw', format: 'xlsx' });
    expect(body.params).not.toContain('rainfall');
    expect(body.params).toContain('airTemp');
    expect(body.end - body.begin).toBeLessThanOrEqual(7 * 86_400_000);

    expect(await screen.findByTestId('poi-export-progress')).toHaveTextContent('Exporting…');
    expect(await screen.findByTestId('poi-export-done')).toHaveTextContent('Sent to farmer@example.com');
    expect(screen.getByTestId('poi-export-done')).toHaveTextContent('288 rows');
    expect(window.localStorage.getItem('fw-export-email')).toBe('farmer@example.com');
  });

  it("shows the server's reason when the export fails", async () => {
    serve((_path, init) =>
      init?.method === 'POST' ? ok({ taskId: 't1' }) : ok(task('failed', { error: 'The mail server refused the message' })),
    );
    const user = userEvent.setup();
    renderDialog();

    await user.type(screen.getByLabelText('Email'), 'farmer@example.com');
    await user.click(screen.getByRole('button', { name: 'Send to my email' }));
    expect(await screen.findByTestId('poi-export-failed')).toHaveTextContent('The mail server refused the message');
  });

  it('shows a refusal such as a missing export right under the form', async () => {
    serve(() => jsonResponse({ code: 1403, message: 'No permission to export!', data: null }, 403));
    const user = userEvent.setup();
    renderDialog();

    await user.type(screen.getByLabelText('Email'), 'farmer@example.com');
    await user.click(screen.getByRole('button', { name: 'Send to my email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No permission to export!');
  });

  it('gives up waiting with the timeout message', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      serve((_path, init) => (init?.method === 'POST' ? ok({ taskId: 't1' }) : ok(task('queued'))));
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderDialog();

      await user.type(screen.getByLabelText('Email'), 'farmer@example.com');
      await user.click(screen.getByRole('button', { name: 'Send to my email' }));
      expect(await screen.findByTestId('poi-export-progress')).toHaveTextContent('Waiting to start…');
      await vi.advanceTimersByTimeAsync(3 * 60_000 + 1000);
      expect(await screen.findByTestId('poi-export-timeout')).toHaveTextContent('Export timeout, please try again later!');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('DownloadDialog without a mail server', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('says so before the form, asks for no address, and offers the finished file', async () => {
    let polls = 0;
    const fetchMock = serve((_path, init) => {
      if (init?.method === 'POST') return ok({ taskId: 't 1' });
      polls += 1;
      return ok(polls < 2 ? task('running', { rows: 120 }) : task('ready', { progress: 100 }));
    });
    const user = userEvent.setup();
    renderDialog({ mail: false, fileKeepHours: 24 });

    expect(screen.getByTestId('poi-export-nomail')).toHaveTextContent('This server does not send e-mail');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send to my email' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Prepare the file' }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toBe('/apis/poi/13/datapoints/export');
    expect(JSON.parse(String(init?.body))).not.toHaveProperty('email');

    expect(await screen.findByTestId('poi-export-progress')).toHaveTextContent('Exporting…');
    const ready = await screen.findByTestId('poi-export-ready');
    expect(ready).toHaveTextContent('Your file is ready');
    expect(ready).toHaveTextContent('288 rows; the file is kept for 24 hours.');
    const link = screen.getByTestId('poi-export-file');
    expect(link).toHaveAttribute('href', '/apis/poi/13/datapoints/export/t%201/file');
    expect(link).toHaveAttribute('download');
  });

  it('asks for the address as before when the server mails files', async () => {
    serve(() => ok({ taskId: 't1' }));
    renderDialog({ mail: true, fileKeepHours: 24 });
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByTestId('poi-export-nomail')).not.toBeInTheDocument();
  });
});

describe('EMAIL_PATTERN', () => {
  it.each(['a@b.cn', 'farm.manager+alerts@example.co.uk'])('accepts %s', (address) => {
    expect(EMAIL_PATTERN.test(address)).toBe(true);
  });

  it.each(['', 'farmer', 'farmer@', 'farmer@example', 'far mer@example.com', '@example.com', 'a@b..cn'])('refuses %s', (address) => {
    expect(EMAIL_PATTERN.test(address)).toBe(false);
  });
});
