// The trace types live in the shared contract so the renderer can read traces; the engine re-exports them.
export * from '../../shared/trace';
