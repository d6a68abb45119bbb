// A transport carries one API call and the event stream; the client above it is the same in desktop and browser mode.
import type { ApiMethod } from '../../../shared/api';
import type { CuratorEvent } from '../../../shared/events';
import type { InvokeOutcome } from '../../../preload/bridge';

export interface Transport {
  readonly kind: 'ipc' | 'http';
  invoke(method: ApiMethod, req: unknown): Promise<InvokeOutcome>;
  subscribe(listener: (event: CuratorEvent) => void): () => void;
  /** Browser mode: sends a .zip or SKILL.md to the server and gets the path to import. */
  upload?(file: File): Promise<InvokeOutcome>;
}
