import { render } from '@testing-library/react';
import { selectAllTitle } from './select-all-title';

describe('selectAllTitle', () => {
  it('leaves the header checkbox alone and takes the hidden copy out of the tab order', () => {
    const { container } = render(
      <table>
        <thead>
          <tr>
            <th>{selectAllTitle(<input type="checkbox" aria-label="Select all" />)}</th>
          </tr>
        </thead>
        <tbody>
          <tr aria-hidden="true">
            <td>{selectAllTitle(<input type="checkbox" aria-label="Select all" />)}</td>
          </tr>
        </tbody>
      </table>,
    );
    const [header, copy] = container.querySelectorAll<HTMLInputElement>('input');
    expect(header.tabIndex).toBe(0);
    expect(header.closest<HTMLElement>('.fw-select-all')!.inert).toBeFalsy();
    expect(copy.tabIndex).toBe(-1);
    expect(copy.closest<HTMLElement>('.fw-select-all')!.inert).toBe(true);
  });
});
