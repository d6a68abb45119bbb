// Fans core events out to every host that listens (IPC, SSE, CLI progress).
import type { CuratorEvent, CuratorEventListener } from '../shared/events';

export class EventBus {
  private readonly listeners = new Set<CuratorEventListener>();

  on(listener: CuratorEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: CuratorEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not stop the others or the job that emitted.
      }
    }
  }
}
