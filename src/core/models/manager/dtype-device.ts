// Which weights file and which execution provider a model runs with: the defaults, the transformers.js file names,
// and the order in which devices are tried (a GPU provider first when asked, the CPU last so something always runs).

export const onnxDtypes = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;
export type OnnxDtype = (typeof onnxDtypes)[number];

export const deviceChoices = ['auto', 'cpu', 'cuda', 'dml', 'coreml'] as const;
export type DeviceChoice = (typeof deviceChoices)[number];
export type Device = Exclude<DeviceChoice, 'auto'>;

// transformers.js 4.3 DEFAULT_DTYPE_SUFFIX_MAPPING: onnx/model{suffix}.onnx
const dtypeSuffix: Record<OnnxDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

/** The file transformers.js loads for a dtype, relative to the model folder. */
export function onnxFileForDtype(dtype: OnnxDtype, baseName = 'model'): string {
  return `onnx/${baseName}${dtypeSuffix[dtype]}.onnx`;
}

/** The dtype a weights file name stands for, or undefined for files that are not model weights. */
export function dtypeOfOnnxFile(fileName: string, baseName = 'model'): OnnxDtype | undefined {
  const name = fileName.replace(/^onnx\//, '');
  return onnxDtypes.find((d) => name === `${baseName}${dtypeSuffix[d]}.onnx`);
}

export function isGpuDevice(device: Device): boolean {
  return device !== 'cpu';
}

/** q8 on the CPU (int8 kernels are fast there and the file is a quarter of fp32), fp16 on a GPU. */
export function defaultDtype(device: Device): OnnxDtype {
  return isGpuDevice(device) ? 'fp16' : 'q8';
}

/**
 * Picks the dtype for a device: the requested one, else the device default, else (when the folder lacks that file)
 * the first file the folder has in order of preference. Returns undefined when the folder has no usable file.
 */
export function chooseDtype(
  device: Device,
  available: OnnxDtype[],
  requested?: OnnxDtype,
): OnnxDtype | undefined {
  if (requested) return available.includes(requested) ? requested : undefined;
  const preference: OnnxDtype[] = isGpuDevice(device)
    ? ['fp16', 'fp32', 'q4f16', 'q8', 'int8', 'uint8', 'q4', 'bnb4']
    : ['q8', 'int8', 'uint8', 'fp32', 'q4', 'bnb4', 'fp16', 'q4f16'];
  const wanted = defaultDtype(device);
  if (available.includes(wanted)) return wanted;
  return preference.find((d) => available.includes(d));
}

/** The providers onnxruntime-node ships per platform (its README table, 1.30); CUDA needs its extra install. */
export function gpuDevicesFor(platform: NodeJS.Platform, arch: string): Device[] {
  if (platform === 'win32') return ['dml'];
  if (platform === 'darwin' && arch === 'arm64') return ['coreml'];
  if (platform === 'linux' && arch === 'x64') return ['cuda'];
  return [];
}

/** Devices to try in order; every list ends with the CPU so a failing GPU provider falls back. */
export function deviceCandidates(
  choice: DeviceChoice,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): Device[] {
  if (choice === 'cpu') return ['cpu'];
  if (choice === 'auto') return [...gpuDevicesFor(platform, arch), 'cpu'];
  return [choice, 'cpu'];
}
