import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { refusal, serve } from '@/testing/serve';
import { InstallationPanel, LatestIdPanel } from './rain-more';

const event = { start: 1_780_000_000_000, end: 1_780_003_600_000, hours: 1, mm: 30, intensity: 30, thresholdIntensity: 14.82, ratio: 2.024, exceeded: true, ongoing: false };

describe('rain gauge details', () => {
  it('shows the latest event against the threshold', async () => {
    serve({ 'GET /apis/poi/9/pluviometer/i-d': () => ({ begin: 0, end: 1, threshold: { alpha: 14.82, beta: 0.39 }, event }) });
    renderWithProviders(<LatestIdPanel deviceId={9} />);
    expect(await screen.findByTestId('poi-id-latest-verdict')).toHaveTextContent('超过 I-D 临界线');
    expect(screen.getByTestId('poi-id-latest')).toHaveTextContent('30 mm/h');
    expect(screen.getByTestId('poi-id-latest')).toHaveTextContent('202%');
  });

  it('says when there was no rain event', async () => {
    serve({ 'GET /apis/poi/9/pluviometer/i-d': () => ({ begin: 0, end: 1, threshold: { alpha: 14.82, beta: 0.39 }, event: null }) });
    renderWithProviders(<LatestIdPanel deviceId={9} />);
    expect(await screen.findByTestId('poi-id-latest-empty')).toHaveTextContent('最近7天没有降雨过程');
  });

  it('shows a refused installation call as an error', async () => {
    serve({ 'GET /apis/poi/9/pluviometer/installing': () => refusal(1404, '设备不存在', 404) });
    renderWithProviders(<InstallationPanel deviceId={9} />);
    expect(await screen.findByText('设备不存在')).toBeInTheDocument();
  });
});
