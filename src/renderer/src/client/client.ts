// The typed API client: every screen calls the contract through this, never a transport directly.
import type { ApiMethod, ApiRequest, ApiResponse } from '../../../shared/api';
import type { ApiErrorData } from '../../../shared/errors';
import type { CuratorEvent } from '../../../shared/events';
import type { Transport } from './transport';

export class ApiError extends Error {
  constructor(readonly data: ApiErrorData) {
    super(data.message);
    this.name = 'ApiError';
  }
  get code() {
    return this.data.code;
  }
}

export class CuratorClient {
  private readonly listeners = new Set<(event: CuratorEvent) => void>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly transport: Transport) {}

  get mode(): 'desktop' | 'browser' {
    return this.transport.kind === 'ipc' ? 'desktop' : 'browser';
  }

  async call<M extends ApiMethod>(method: M, req: ApiRequest<M>): Promise<ApiResponse<M>> {
    const outcome = await this.transport.invoke(method, req);
    if (!outcome.ok) throw new ApiError(outcome.error);
    return outcome.result as ApiResponse<M>;
  }

  get canUpload(): boolean {
    return typeof this.transport.upload === 'function';
  }

  async upload(file: File): Promise<{ path: string }> {
    if (!this.transport.upload)
      throw new ApiError({ code: 'UNAVAILABLE', message: 'This window cannot upload files' });
    const outcome = await this.transport.upload(file);
    if (!outcome.ok) throw new ApiError(outcome.error);
    return outcome.result as { path: string };
  }

  /** One subscription to the transport however many screens listen. */
  onEvent(listener: (event: CuratorEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.unsubscribe) {
      this.unsubscribe = this.transport.subscribe((event) => {
        for (const l of [...this.listeners]) l(event);
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.unsubscribe) {
        this.unsubscribe();
        this.unsubscribe = null;
      }
    };
  }
}

export function asErrorData(error: unknown): ApiErrorData {
  if (error instanceof ApiError) return error.data;
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
