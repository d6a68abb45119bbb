// Supply chain: code pulled in at run time from a URL or a moving branch, and package names one edit away from a
// popular one (typosquats). A pinned install from the registry is what a careful author writes, and is not a finding.
import type { LineRule } from './line-rule';

export const supplyChainRules: LineRule[] = [
  {
    id: 'SC-SC-INSTALL-FROM-URL',
    category: 'supply-chain',
    title: 'Installs a package from a URL or a Git repository',
    why: 'A package installed from a URL or a branch bypasses the registry and changes whenever its owner wants; install a pinned version from the registry, or vendor the code in the package.',
    keywords: ['pip', 'npm', 'pnpm', 'yarn', 'gem ', 'uv '],
    patterns: [
      /\b(pip3?|python3?\s+-m\s+pip|uv\s+pip|pipx)\s+install\s+((-[-\w]+(=\S+)?|[\w.[\]=<>~-]+)\s+)*["']?(git\+|https?:\/\/)/i,
      /\b(npm|pnpm|yarn)\s+(i|install|add)\s+((-[-\w]+|[@\w./-]+)\s+)*["']?(https?:\/\/|git\+|github:|gitlab:)/i,
      /\bgem\s+install\s+((-[-\w]+|[\w.-]+)\s+)*https?:\/\//i,
    ],
    severity: { prose: 'low', 'doc-code': 'medium', script: 'high' },
  },
  {
    id: 'SC-SC-UNPINNED-REMOTE-SCRIPT',
    category: 'supply-chain',
    title: 'Fetches a script from a moving branch',
    why: 'A script fetched from main or master at run time is whatever was pushed last; pin it to a commit and check its hash, or ship it in the package.',
    keywords: ['raw.githubusercontent', 'gist.githubusercontent', 'gitlab', 'bitbucket'],
    patterns: [
      /raw\.githubusercontent\.[a-z]+\/[^\s"')]+\/(main|master|HEAD|latest|dev)\/[^\s"')]+\.(sh|py|ps1|js|rb|pl)\b/i,
      /gist\.githubusercontent\.[a-z]+\/[^\s"')]+\/raw\/[^\s"')]+\.(sh|py|ps1|js)\b/i,
      /\/-\/raw\/(main|master)\/[^\s"')]+\.(sh|py|ps1)\b/i,
    ],
    severity: { prose: 'low', 'doc-code': 'medium', script: 'medium' },
  },
];
