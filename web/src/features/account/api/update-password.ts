import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface UpdatePasswordInput {
  oldPassword: string;
  newPassword: string;
}

/** Signs out every other session of the account; the current one stays. */
export function updatePassword(input: UpdatePasswordInput): Promise<null> {
  return api.put<null>('/account/password', input);
}

export function useUpdatePassword({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: updatePassword, onSuccess: () => onSuccess?.() });
}
