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

/**
 * Where a device's commands are read and sent: its device page (`/poi/{id}`, with the session) or
 * its unified portal (`/uni/device/{sn}`, with the portal link's token). `key` prefixes the query
 * keys, so invalidating it refreshes everything the device shows.
 */
export interface CommandTarget {
  key: readonly unknown[];
  base: string;
  headers?: Record<string, string>;
}

export function poiCommandTarget(id: number): CommandTarget {
  return { key: poiKeys.device(id), base: `/poi/${id}` };
}

export function getCommandDefsQueryOptions(target: CommandTarget, lang: Language) {
  return queryOptions({
    queryKey: [...target.key, 'command-defs', lang],
    queryFn: ({ signal }) => api.get<CommandDefs>(`${target.base}/commands/definitions`, { signal, headers: target.headers }),
    staleTime: 30 * 60_000,
  });
}

export function useCommandDefs(target: CommandTarget, lang: Language) {
  return useQuery(getCommandDefsQueryOptions(target, lang));
}

export function getCommandsQueryOptions(target: CommandTarget, lang: Language, page: number, size: number) {
  return queryOptions({
    queryKey: [...target.key, 'commands', lang, page, size],
    queryFn: ({ signal }) =>
      api.get<CommandPage>(`${target.base}/commands`, { signal, headers: target.headers, params: { page, size } }),
    refetchInterval: (query) => (query.state.data?.list.some(isOpen) ? COMMAND_POLL_MS : false),
  });
}

export function useCommands(target: CommandTarget, lang: Language, page: number, size: number, enabled: boolean) {
  return useQuery({ ...getCommandsQueryOptions(target, lang, page, size), enabled });
}

export interface SendCommand {
  name: string;
  params?: Record<string, string | number>;
}

export function useSendCommand(target: CommandTarget, { onSuccess }: { onSuccess?: (command: Command) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SendCommand) => api.post<Command>(`${target.base}/commands`, body, { headers: target.headers }),
    onSuccess: async (command) => {
      await queryClient.invalidateQueries({ queryKey: target.key });
      onSuccess?.(command);
    },
  });
}
