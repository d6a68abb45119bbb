// Loads one API call's answer into state, with loading and error, and reloads on demand.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiMethod, ApiRequest, ApiResponse } from '../../../shared/api';
import type { ApiErrorData } from '../../../shared/errors';
import { asErrorData } from '../client/client';
import { useClient } from './context';

export interface ApiState<T> {
  data: T | null;
  /** The request `data` answers (as JSON): the last answer stays while the next request loads. */
  dataKey: string | null;
  error: ApiErrorData | null;
  loading: boolean;
  reload: () => void;
}

export function useApi<M extends ApiMethod>(method: M, req: ApiRequest<M> | null): ApiState<ApiResponse<M>> {
  const client = useClient();
  const key = req === null ? null : JSON.stringify(req);
  const [state, setState] = useState<{
    data: ApiResponse<M> | null;
    dataKey: string | null;
    error: ApiErrorData | null;
    loading: boolean;
  }>({ data: null, dataKey: null, error: null, loading: key !== null });
  const [tick, setTick] = useState(0);
  const generation = useRef(0);

  useEffect(() => {
    if (key === null) return;
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    client.call(method, JSON.parse(key) as ApiRequest<M>).then(
      (data) => mine === generation.current && setState({ data, dataKey: key, error: null, loading: false }),
      (error: unknown) =>
        mine === generation.current && setState((s) => ({ ...s, error: asErrorData(error), loading: false })),
    );
  }, [client, method, key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Runs an action, keeping its busy flag and error for the button that started it. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorData | null>(null);
  const run = useCallback(async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (e) {
      setError(asErrorData(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clearError: () => setError(null) };
}
