// Secrets and sending data out. Reading a credential and sending data to a host are each a line rule; a skill that
// does both is the exfiltration chain (skill-rules.ts), the finding a curator must not miss. Reading an API token from
// one named environment variable is how configuration is meant to work, and is not a finding.
import type { LineRule } from './line-rule';

const readVerb = String.raw`(\bcat|\bhead|\btail|\bless|\bstrings|\bsource|\bcp|\bscp|\btar\b[^\n]*|\bzip\b[^\n]*|\bbase64|\bopen\(|\bread(File|_text|_bytes)?(Sync)?\(|\bPath\([^)]*\)\.read|Get-Content|\bgc\b|\bdotenv_values\(|\bload_dotenv\(|\bfs\.\w+\(|\s@(?=[~/$.])|(^|\s)<\s*(?=["']?[~/$.]))`;

export const secretReadRule: LineRule = {
  id: 'SC-EX-SECRET-READ',
  category: 'exfiltration',
  title: 'Reads credentials or private data',
  why: 'SSH keys, cloud credentials, browser profiles, keychains and .env files are what attackers want; a skill should never read them — check where the data goes.',
  keywords: [
    '.ssh',
    '.aws',
    'gcloud',
    '.azure',
    '.kube',
    '.docker',
    'netrc',
    'git-credentials',
    'npmrc',
    'pypirc',
    'login data',
    'cookies',
    'firefox',
    'keychain',
    'find-generic-password',
    'find-internet-password',
    'shadow',
    'wallet',
    '.gnupg',
    '.env',
    'local state',
    'id_rsa',
    'id_ed25519',
  ],
  patterns: [
    // What only an attacker reads: private SSH keys, browser password stores, keychains, /etc/shadow, wallets.
    /\.ssh\/(id_(rsa|dsa|ecdsa|ed25519)(?!\.pub)\b|identity\b)|\bid_(rsa|ed25519|ecdsa)(?![.\w])/,
    /(google-chrome|chromium|BraveSoftware|Microsoft\/Edge|\.mozilla\/firefox|Firefox\/Profiles)[^\n]*(Login Data|Cookies|Local State|logins\.json|key[34]\.db|Web Data)|\b(Login Data|logins\.json|key4\.db)\b/i,
    /Library\/Keychains|\bsecurity\s+(find-generic-password|find-internet-password|dump-keychain)\b/,
    /\/etc\/shadow\b|\bwallet\.dat\b|\.gnupg\/(private-keys|secring)/,
    // Configuration that holds tokens: a finding when it is read, not when it is mentioned or written.
    new RegExp(
      `${readVerb}[^\\n]{0,60}?(\\.aws\\/(credentials|config)|\\.config\\/gcloud|\\.azure\\/|\\.kube\\/config|\\.docker\\/config\\.json|\\.netrc|\\.git-credentials|\\.npmrc|\\.pypirc|(^|[\\s"'/(~])\\.env(?![.\\w-]))`,
    ),
    /(^|[\s"'/(])\.env\b[^\n]{0,80}\|\s*(xargs\b[^\n|]*\b)?(cat|base64|gzip|tar)\b/,
  ],
  unless: [/ssh-keygen\b/, /\.env\.(example|sample|template)\b/, /\b(chmod|ls|mkdir|touch|ssh-add)\s/],
  severity: { prose: 'low', inline: 'low', 'doc-code': 'high', script: 'high' },
};

export const envDumpRule: LineRule = {
  id: 'SC-EX-ENV-DUMP',
  category: 'exfiltration',
  title: 'Collects every environment variable',
  why: 'The whole environment holds tokens and keys the skill has no use for; read only the one named variable it needs.',
  keywords: ['printenv', 'env', 'environ', 'process.env', 'gci', 'get-childitem'],
  patterns: [
    /(^\s*|[;&|]\s*|\$\(\s*)(printenv|env)\s*($|[|>;)&])/,
    /\b(json\.dumps|str|dict|repr|print)\(\s*(dict\()?os\.environ\s*\)*|os\.environ\.items\(\)|\bfor\s+\w+\s+in\s+os\.environ\b/,
    /JSON\.stringify\(\s*process\.env\s*\)|Object\.(entries|keys|values)\(\s*process\.env\s*\)|\.\.\.process\.env\b[^\n]*(fetch|post|send|write)/,
    /\b(gci|get-childitem|dir|ls)\s+env:|\[environment\]::getenvironmentvariables\(\)/i,
    /\bset\s*\|\s*(curl|nc|base64)/,
  ],
  severity: { prose: 'low', 'doc-code': 'medium', script: 'medium' },
};

export const sendDataRule: LineRule = {
  id: 'SC-EX-SEND-DATA',
  category: 'exfiltration',
  title: 'Sends data to a host',
  why: 'Uploading data is fine for what the skill is about; check that the host is the service the skill names and that nothing private is sent.',
  keywords: [
    'curl',
    'wget',
    ' nc ',
    'ncat',
    'netcat',
    'requests.',
    'httpx.',
    'urlopen',
    'fetch(',
    'invoke-webrequest',
    'invoke-restmethod',
    'iwr',
    'irm',
    'socket',
    '/dev/tcp',
    'smtplib',
    'sendmail',
  ],
  patterns: [
    /\bcurl\b[^\n]*\s(-d|--data(-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|-X\s*(POST|PUT))\b/i,
    /\bwget\b[^\n]*--(post-data|post-file|body-file|method=(POST|PUT))/i,
    /(^|[|;&\s])(nc|ncat|netcat)\s+(-\w+\s+)*[\w.-]+\s+\d{2,5}\b/,
    /\/dev\/(tcp|udp)\/[\w.-]+\/\d+/,
    /\b(requests|httpx|session)\.(post|put|patch)\s*\(|urllib\.request\.Request\([^\n]*data\s*=|\burlopen\([^\n]*data\s*=/,
    /\bfetch\s*\([^\n]*method\s*:\s*['"](POST|PUT)['"]|\baxios\.(post|put)\s*\(|\.send\(\s*JSON\.stringify/i,
    /\b(invoke-webrequest|invoke-restmethod|iwr|irm)\b[^\n]*-(method\s+(post|put)|body\b|infile\b)/i,
    /\bsmtplib\.SMTP|\bsendmail\b/,
  ],
  unless: [/\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])\b/],
  severity: { prose: 'info', 'doc-code': 'info', script: 'info' },
};

export const dnsLeakRule: LineRule = {
  id: 'SC-EX-DNS-LEAK',
  category: 'exfiltration',
  title: 'Puts data into a DNS name',
  why: 'A lookup of a host name built from command output carries that output to whoever runs the name server, past most firewalls; no skill needs it.',
  keywords: ['nslookup', 'dig ', 'host ', 'ping ', 'resolve-dnsname', 'gethostbyname'],
  patterns: [
    /(^|[\s;|&(])(nslookup|dig|host|ping|resolve-dnsname)\s+(-\S+\s+)*["']?[\w.-]*(\$\(|`|\$\{?\w+\}?\.)/,
    /\bgethostbyname\(\s*[^\n]*(\+|%|\.format|f["'])/,
  ],
  severity: { prose: 'low', 'doc-code': 'high', script: 'high' },
};

export const exfiltrationRules: LineRule[] = [secretReadRule, envDumpRule, sendDataRule, dnsLeakRule];
