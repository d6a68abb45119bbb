// Dropping a folder, zip or SKILL.md anywhere on the Library window: in the desktop app its path is imported, in
// browser mode a file is uploaded first (a folder cannot be uploaded; the import panel says so).
import { useEffect, useState, type ReactNode } from 'react';
import { useClient } from '../app/context';
import './sources.css';

export interface Dropped {
  path?: string;
  file?: File;
  /** Tells two drops of the same thing apart. */
  seq: number;
}

export function useWindowDrop(): { dropped: Dropped | null; overlay: ReactNode } {
  const client = useClient();
  const [dropped, setDropped] = useState<Dropped | null>(null);
  const [over, setOver] = useState(false);
  useEffect(() => {
    const desktop = client.mode === 'desktop' ? window.curator?.desktop : undefined;
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onOver = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      setDropped((prev) => ({
        seq: (prev?.seq ?? 0) + 1,
        ...(desktop ? { path: desktop.pathForFile(file) } : { file }),
      }));
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [client]);
  return {
    dropped,
    overlay: over ? <div className="drop-overlay">Drop a folder, .zip or SKILL.md to import it</div> : null,
  };
}
