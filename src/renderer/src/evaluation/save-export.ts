// Saves an export as a file in the browser: a download. (The desktop app asks for a path in the native save dialog.)
const types: Record<string, string> = {
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
};

export function saveAsFile(content: string, fileName: string): void {
  const ext = fileName.split('.').pop() ?? '';
  const url = URL.createObjectURL(
    new Blob([content], { type: `${types[ext] ?? 'text/plain'};charset=utf-8` }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; revoke once the event loop has moved on.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
