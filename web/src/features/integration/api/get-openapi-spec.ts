import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { OpenApiDocument } from '../types';

/** The open API's OpenAPI 3.1 document. It may come bare or in the usual envelope. */
export async function getOpenApiSpec(signal?: AbortSignal): Promise<OpenApiDocument> {
  const response = await fetch('/apis/openapi/spec.json', { headers: { Accept: 'application/json' }, credentials: 'include', signal });
  if (response.ok) {
    const body = (await response.json()) as OpenApiDocument & { code?: number; data?: OpenApiDocument };
    if (typeof body.code !== 'number') return body;
    if (body.code === 0 && body.data) return body.data;
  }
  // A refusal comes in the envelope: let the client turn it into the usual error.
  return api.get<OpenApiDocument>('/openapi/spec.json', { signal });
}

export function getOpenApiSpecQueryOptions() {
  return queryOptions({
    queryKey: ['integration', 'openapi-spec'],
    queryFn: ({ signal }) => getOpenApiSpec(signal),
    staleTime: Infinity,
  });
}

export function useOpenApiSpec({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getOpenApiSpecQueryOptions(), enabled });
}
