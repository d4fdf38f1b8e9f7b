import { renderHook } from '@testing-library/react';
import { useWanted } from './use-wanted';

describe('useWanted', () => {
  it('is false until first wanted, then stays true', () => {
    const { result, rerender } = renderHook(({ wanted }) => useWanted(wanted), { initialProps: { wanted: false } });
    expect(result.current).toBe(false);
    rerender({ wanted: true });
    expect(result.current).toBe(true);
    rerender({ wanted: false });
    expect(result.current).toBe(true);
  });
});
