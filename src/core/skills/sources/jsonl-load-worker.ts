// The load worker of a JSONL import (a worker thread): reads a line again by its place in the dump's open file and
// builds its skill (JSON, front matter, validation, digest) and packs its text while the importer's thread writes the
// previous batch.
import { parentPort, workerData } from 'node:worker_threads';
import { packElsewhere } from '../../store/text-packing';
import { readLineAtSync } from './jsonl-lines';
import { skillOfLineBytes } from './jsonl-skill';
import type { LineReply, LineRequest, LoadWorkerData } from './jsonl-loader';

const { fd, base, limits } = workerData as LoadWorkerData;
const port = parentPort!;

port.on('message', (request: LineRequest) => {
  let reply: LineReply;
  try {
    const bytes = readLineAtSync(fd, request.offset, request.length);
    const result = skillOfLineBytes(bytes, request, base, limits);
    let bodyFrom: number | undefined;
    if (result.ok) {
      // The body is the end of the full text: sent once, as where it starts (a copy is a copy on the other side).
      const { fullText, body } = result.skill;
      if (fullText.endsWith(body)) {
        bodyFrom = fullText.length - body.length;
        result.skill.body = '';
      }
    }
    reply = {
      id: request.id,
      result,
      packed: result.ok ? packElsewhere(result.skill.fullText) : null,
      bodyFrom,
    };
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message };
  }
  // The packed text's buffer moves to the importer's thread rather than being copied.
  port.postMessage(reply, 'packed' in reply && reply.packed ? [reply.packed.packed.buffer] : []);
});
