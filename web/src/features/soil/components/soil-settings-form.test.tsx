import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { changeLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';
import type { SoilSettings } from '../types';
import { fieldPath, SoilSettingsForm } from './soil-settings-form';

const settings: SoilSettings = {
  configured: false,
  nodes: [
    { depth: 10, thickness: 15, fieldCapacity: null, unitWeight: null, saturation: null },
    { depth: 20, thickness: 10, fieldCapacity: null, unitWeight: null, saturation: null },
  ],
  cropType: '',
  cropVariety: '',
  irrigationMethod: '',
  plantingTime: null,
  areaMu: null,
  enableTime: null,
  upload: false,
  cropTypes: [{ id: 'maize', name: 'Maize' }],
  irrigationMethods: [{ id: 'drip', name: 'Drip' }],
  canEdit: true,
};

describe('SoilSettingsForm', () => {
  beforeEach(() => changeLanguage('en_US'));

  it('names every broken rule in the field it concerns, then saves', async () => {
    const onSave = vi.fn(async () => undefined);
    const user = userEvent.setup();
    renderWithProviders(<SoilSettingsForm settings={settings} saving={false} error={null} onSave={onSave} />);

    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Please enter the field capacity at 10 cm')).toBeInTheDocument();
    expect(screen.getByText('Please enter the unit weight at 20 cm')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Field capacity at 10 cm'), '0');
    await user.type(screen.getByLabelText('Field capacity at 20 cm'), '30');
    await user.type(screen.getByLabelText('Unit weight at 10 cm'), '1.3');
    await user.type(screen.getByLabelText('Unit weight at 20 cm'), '1.4');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The field capacity at 10 cm must be greater than 0')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Field capacity at 10 cm'));
    await user.type(screen.getByLabelText('Field capacity at 10 cm'), '25.5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(
      await screen.findByText('The field capacities at 10 cm and 20 cm differ by 4.5%; adjacent layers may differ by at most 4%'),
    ).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Field capacity at 10 cm'));
    await user.type(screen.getByLabelText('Field capacity at 10 cm'), '26');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        nodes: [
          { depth: 10, fieldCapacity: 26, unitWeight: 1.3 },
          { depth: 20, fieldCapacity: 30, unitWeight: 1.4 },
        ],
        upload: false,
      }),
    );
    await waitFor(() => expect(screen.queryByText(/differ by 4.5%/)).not.toBeInTheDocument());
  });

  it('shows the server refusal under the field it names', async () => {
    const refusal = new ApiError({ kind: 'normal', message: 'This device has no node at 20 cm', field: 'nodes[1].fieldCapacity' });
    const onSave = vi.fn(async () => {
      throw refusal;
    });
    const user = userEvent.setup();
    const filled = { ...settings, nodes: settings.nodes.map((n) => ({ ...n, fieldCapacity: 30, unitWeight: 1.35 })) };
    renderWithProviders(<SoilSettingsForm settings={filled} saving={false} error={refusal} onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('This device has no node at 20 cm')).toBeInTheDocument();
  });

  it('reads read-only settings without a save button', () => {
    renderWithProviders(<SoilSettingsForm settings={{ ...settings, canEdit: false }} saving={false} error={null} onSave={vi.fn()} />);
    expect(screen.getByText('You can view these settings but not change them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save settings' })).not.toBeInTheDocument();
  });

  it('turns the server field into a form path', () => {
    expect(fieldPath('nodes[2].unitWeight')).toEqual(['nodes', 2, 'unitWeight']);
    expect(fieldPath('areaMu')).toEqual(['areaMu']);
  });
});
