import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from './api';

const signatorySchema = z.object({ id: z.string(), name: z.string(), function: z.string() });
export type Signatory = z.infer<typeof signatorySchema>;

/**
 * The fixed list of people who sign offers and terminations, from the server's configuration: the single
 * forms and the Serien offer them.
 */
export function useSignatories() {
  return useQuery({
    queryKey: ['signatories'],
    queryFn: ({ signal }) => apiJson('/backend/signatories', z.array(signatorySchema), { signal }),
    // The list lives in the server's configuration and changes with a deployment at most.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
