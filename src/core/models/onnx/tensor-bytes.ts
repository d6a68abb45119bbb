// Reads chosen elements of an ONNX weight wherever its bytes live (inline raw_data, float_data, or an external data
// file), without loading the whole tensor: the yes/no derivation needs two rows of a 600 MB LM head.
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { elementBytes, int64, TensorType, type TensorProto } from './onnx-model-proto';

/** Reads parts of a weight, wherever its bytes live (inline, float_data, or an external file). */
export class TensorBytes {
  private readonly size: number;
  constructor(
    private readonly t: TensorProto,
    private readonly dir: string,
  ) {
    const size = elementBytes(t.data_type);
    if (!size) throw new Error(`weight ${t.name} has data type ${t.data_type}`);
    this.size = size;
  }

  /** `count` elements from element `index` on. */
  read(index: number, count: number, fd: number | undefined): Uint8Array {
    const n = count * this.size;
    const { t } = this;
    if (t.data_location === 1) {
      const offset = Number(t.external_data?.find((e) => e.key === 'offset')?.value ?? 0);
      const out = Buffer.alloc(n);
      if (readSync(fd!, out, 0, n, offset + index * this.size) !== n)
        throw new Error(`weight ${t.name} is cut short`);
      return out;
    }
    if (t.raw_data && t.raw_data.byteLength > 0)
      return t.raw_data.slice(index * this.size, index * this.size + n);
    if (t.float_data && t.data_type === TensorType.FLOAT)
      return new Uint8Array(Float32Array.from(t.float_data.slice(index, index + count)).buffer);
    throw new Error(`weight ${t.name} stores its values in a form not read here`);
  }

  /** For a [..., V] tensor: the given indices of the last axis, as a [..., k] tensor named `name`. */
  pickLast(indices: number[], name: string): TensorProto {
    const dims = this.t.dims.map(int64);
    const last = dims.at(-1) ?? 1;
    const outer = dims.slice(0, -1).reduce((a, b) => a * b, 1);
    const fd = this.open();
    try {
      const out = new Uint8Array(outer * indices.length * this.size);
      for (let o = 0; o < outer; o++)
        indices.forEach((c, k) =>
          out.set(this.read(o * last + c, 1, fd), (o * indices.length + k) * this.size),
        );
      return {
        name,
        dims: [...dims.slice(0, -1), indices.length],
        data_type: this.t.data_type,
        raw_data: out,
      };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** For a [V, H] tensor: rows `indices`, transposed to [H, k]. */
  pickRowsTransposed(indices: number[], name: string): TensorProto {
    const [, width = 1] = this.t.dims.map(int64);
    const fd = this.open();
    try {
      const rows = indices.map((r) => this.read(r * width, width, fd));
      const out = new Uint8Array(width * indices.length * this.size);
      for (let h = 0; h < width; h++)
        rows.forEach((row, k) =>
          out.set(row.subarray(h * this.size, (h + 1) * this.size), (h * indices.length + k) * this.size),
        );
      return { name, dims: [width, indices.length], data_type: this.t.data_type, raw_data: out };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private open(): number | undefined {
    if (this.t.data_location !== 1) return undefined;
    const location = this.t.external_data?.find((e) => e.key === 'location')?.value ?? '';
    return openSync(path.join(this.dir, location), 'r');
  }
}
