import { packText } from '../text-packing';
import type { Migration } from './index';

// Selection traces stored compressed like skill texts (text-packing.ts): an evaluation stores one trace per task and
// variant, tens of KB each as JSON, and a library grew by 14–48 MiB per evaluation. Readers go through unpack_text()
// or unpackText(); the traces already stored are packed here. A build before this one refuses the library (its schema
// is newer), instead of reading a packed trace as JSON.
export const m061RunTracesPacked: Migration = {
  id: 61,
  name: 'run-traces-packed',
  sql: '',
  afterSql: (db) => {
    const rows = db
      .prepare("SELECT id, trace FROM selection_runs WHERE typeof(trace) = 'text'")
      .iterate() as IterableIterator<{ id: number; trace: string }>;
    const packed: [number, string | Buffer][] = [];
    for (const row of rows) packed.push([row.id, packText(row.trace)]);
    const update = db.prepare('UPDATE selection_runs SET trace = ? WHERE id = ?');
    for (const [id, trace] of packed) if (typeof trace !== 'string') update.run(trace, id);
  },
};
