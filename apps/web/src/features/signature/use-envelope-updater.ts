import { useQueryClient } from '@tanstack/react-query';
import type { EnvelopeView } from '@vertragsgenerator/domain';
import { envelopeQueryOptions } from './api';

/**
 * What the sender view does after an action on its envelope: shows the envelope the server answered
 * with, or (null: the action was refused, the envelope changed meanwhile) loads it again.
 */
export function useEnvelopeUpdater(envelopeId: string): (envelope: EnvelopeView | null) => void {
  const queryClient = useQueryClient();
  const { queryKey } = envelopeQueryOptions(envelopeId);
  return (envelope) => {
    if (envelope) queryClient.setQueryData(queryKey, envelope);
    else void queryClient.invalidateQueries({ queryKey });
  };
}
