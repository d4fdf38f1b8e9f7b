import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Language } from '@/lib/i18n';
import { poiKeys } from '@/lib/poi-keys';

/** One input of a command (GET /apis/poi/{id}/commands/definitions). */
export interface CommandInput {
  name: string;
  label: string;
  kind: 'int' | 'string';
  required: boolean;
  unit?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  options?: string[];
}

export interface CommandDef {
  name: string;
  label: string;
  inputs: CommandInput[];
  maxSize: number;
}

export interface CommandDefs {
  /** Whether the caller may send them (owner, or a grant with the settings right). */
  allowed: boolean;
  commands: CommandDef[];
}

export type CommandState = 'submitted' | 'pending' | 'effective' | 'failed' | 'expired';

/** A command with its states' times (unix ms; null until reached). */
export interface Command {
  id: number;
  name: string;
  label: string;
  params: Record<string, string | number>;
  state: CommandState;
  reasonCode?: string;
  reason?: string;
  confirmedBy?: 'ack' | 'report';
  source: string;
  by: { id: number; name: string } | null;
  submittedAt: number;
  pendingAt: number | null;
  deliveredAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
}

export interface CommandPage {
  list: Command[];
  total: number;
}

/** The command list is polled this often while a command waits for the device. */
export const COMMAND_POLL_MS = 2000;

export function isOpen(command: Command): boolean {
  return command.state === 'submitted' || command.state === 'pending';
}

export function getCommandDefsQueryOptions(id: number, lang: Language) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'command-defs', lang),
    queryFn: ({ signal }) => api.get<CommandDefs>(`/poi/${id}/commands/definitions`, { signal }),
    staleTime: 30 * 60_000,
  });
}

export function useCommandDefs(id: number, lang: Language) {
  return useQuery(getCommandDefsQueryOptions(id, lang));
}

export function getCommandsQueryOptions(id: number, lang: Language, page: number, size: number) {
  return queryOptions({
    queryKey: poiKeys.localized(id, 'commands', lang).concat([page, size]),
    queryFn: ({ signal }) => api.get<CommandPage>(`/poi/${id}/commands?page=${page}&size=${size}`, { signal }),
    refetchInterval: (query) => (query.state.data?.list.some(isOpen) ? COMMAND_POLL_MS : false),
  });
}

export function useCommands(id: number, lang: Language, page: number, size: number, enabled: boolean) {
  return useQuery({ ...getCommandsQueryOptions(id, lang, page, size), enabled });
}

export interface SendCommand {
  name: string;
  params?: Record<string, string | number>;
}

export function useSendCommand(id: number, { onSuccess }: { onSuccess?: (command: Command) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SendCommand) => api.post<Command>(`/poi/${id}/commands`, body),
    onSuccess: async (command) => {
      await queryClient.invalidateQueries({ queryKey: poiKeys.device(id) });
      onSuccess?.(command);
    },
  });
}
