// Gives every screen the one client and the live event stream.
import { createContext, useContext, useEffect, useRef } from 'react';
import type { CuratorEvent } from '../../../shared/events';
import type { CuratorClient } from '../client/client';

export const ClientContext = createContext<CuratorClient | null>(null);

export function useClient(): CuratorClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient outside ClientContext');
  return client;
}

/** Calls the listener for each event; the latest listener is used without re-subscribing. */
export function useCuratorEvent(listener: (event: CuratorEvent) => void): void {
  const client = useClient();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => client.onEvent((event) => latest.current(event)), [client]);
}
