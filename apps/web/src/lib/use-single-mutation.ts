import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useRef } from 'react';

/**
 * `useMutation` for an action that is done once it succeeded (send, void, sign, decline): `mutate`
 * ignores calls while one runs and after one succeeded. The pending state reaches the button only
 * after a re-render, too late for a fast double click, which would otherwise send twice.
 */
export function useSingleMutation<TData, TVariables>(options: UseMutationOptions<TData, Error, TVariables>) {
  const mutation = useMutation(options);
  const closed = useRef(false);
  function mutate(variables: TVariables) {
    if (closed.current) return;
    closed.current = true;
    // The outcome is in the mutation's state and its onSuccess/onError; only a failure reopens.
    mutation.mutateAsync(variables).catch(() => {
      closed.current = false;
    });
  }
  return { ...mutation, mutate };
}
