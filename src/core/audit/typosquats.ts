// Package names one edit away from a popular package (a swapped, missing, extra or changed letter): the classic
// typosquat. Names that are themselves well-known packages near a popular one (request, debug, colors…) are not.
const popular: Record<'pip' | 'npm', readonly string[]> = {
  pip: [
    'requests',
    'numpy',
    'pandas',
    'urllib3',
    'setuptools',
    'django',
    'flask',
    'boto3',
    'botocore',
    'colorama',
    'matplotlib',
    'scipy',
    'tensorflow',
    'torch',
    'pyyaml',
    'beautifulsoup4',
    'pillow',
    'cryptography',
    'openai',
    'anthropic',
    'langchain',
    'transformers',
    'scikit-learn',
    'selenium',
    'pytest',
    'jinja2',
    'certifi',
    'idna',
    'python-dateutil',
    'six',
    'wheel',
    'pip',
    'click',
    'rich',
    'httpx',
    'pydantic',
    'fastapi',
    'uvicorn',
    'sqlalchemy',
    'psycopg2',
    'redis',
    'celery',
    'paramiko',
    'pymongo',
    'openpyxl',
    'pypdf',
    'reportlab',
    'tqdm',
    'lxml',
  ],
  npm: [
    'lodash',
    'express',
    'react',
    'axios',
    'chalk',
    'commander',
    'moment',
    'webpack',
    'typescript',
    'eslint',
    'jquery',
    'vue',
    'dotenv',
    'request',
    'underscore',
    'async',
    'bluebird',
    'uuid',
    'yargs',
    'mongoose',
    'next',
    'prettier',
    'jest',
    'mocha',
    'electron',
    'socket.io',
    'body-parser',
    'cross-env',
    'nodemon',
    'puppeteer',
    'playwright',
    'openai',
    'zod',
    'vite',
    'rollup',
    'esbuild',
    'babel-core',
    'core-js',
    'classnames',
    'redux',
  ],
};

const legitimate = new Set([
  'psycopg',
  'psycopg3',
  'pypdf2',
  'pypdf3',
  'openapi',
  'nuxt',
  'react-dom',
  'chalk-animation',
  'axios-retry',
  'request',
  'debug',
  'colors',
  'color',
  'async',
  'rich',
  'click',
  'clip',
  'six',
  'wheel',
  'torch',
  'touch',
  'pip',
  'pipx',
  'vite',
  'vue',
  'next',
  'jest',
  'zod',
  'nock',
  'redis',
  'react',
  'preact',
  'idna',
  'flask',
  'httpx',
  'httpie',
  'uvicorn',
  'celery',
  'lxml',
  'tqdm',
  'moment',
  'pandas',
  'numpy',
  'scipy',
  'pytest',
  'express',
  'chalk',
  'uuid',
]);

/** Damerau-Levenshtein distance, stopping early above 1. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].map((c, i) => (c === b[i] ? -1 : i)).filter((i) => i >= 0);
    if (diff.length === 1) return true;
    return (
      diff.length === 2 &&
      diff[1] === diff[0]! + 1 &&
      a[diff[0]!] === b[diff[1]!] &&
      a[diff[1]!] === b[diff[0]!]
    );
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

/** The popular package a name is one edit away from, or null. */
export function typosquatOf(name: string, registry: 'pip' | 'npm'): string | null {
  const n = name
    .toLowerCase()
    .replace(/[<>=!~[;].*$/, '')
    .replace(/[^\w.-]+$/, '')
    .replace(/^[^\w@]+/, '');
  if (n.length < 4 || legitimate.has(n) || popular[registry].includes(n)) return null;
  return popular[registry].find((p) => p.length >= 4 && withinOneEdit(n, p)) ?? null;
}

/** The package names an install command line names, with their registry. */
export function installedNames(line: string): { name: string; registry: 'pip' | 'npm' }[] {
  const out: { name: string; registry: 'pip' | 'npm' }[] = [];
  const pip = /\b(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|pipx)\s+install\s+([^\n;&|#`"')]*)/i.exec(line);
  if (pip)
    for (const w of pip[1]!.split(/\s+/))
      if (w && !w.startsWith('-') && !/[/:]/.test(w)) out.push({ name: w, registry: 'pip' });
  const npm = /\b(?:npm|pnpm|yarn)\s+(?:i|install|add)\s+([^\n;&|#`"')]*)/i.exec(line);
  if (npm)
    for (const w of npm[1]!.split(/\s+/))
      if (w && !w.startsWith('-') && !/[/:]/.test(w.replace(/^@[\w-]+\//, '')))
        out.push({ name: w.replace(/@[^@/]*$/, ''), registry: 'npm' });
  return out;
}
